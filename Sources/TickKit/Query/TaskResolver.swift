import FoundationEssentials

/// Turns what a user typed (a short id or a UUID prefix) into a task.
public struct TaskResolver {
    public let catalog: any TaskCatalog

    public init(catalog: any TaskCatalog) {
        self.catalog = catalog
    }

    /// Convenience: resolve against a snapshot and a short-id table.
    public init(snapshot: StoreSnapshot, ids: ShortIDTable) {
        self.init(catalog: SnapshotCatalog(snapshot: snapshot, ids: ids))
    }

    /// Resolves one reference (``TaskReference/single(_:)``: the one id grammar).
    ///
    /// A number is a short id; one of 4+ digits that no task holds is then
    /// matched as a UUID prefix. A UUID prefix (8+ hex digits, or 4+ with a
    /// digit and a letter, dashes optional) is matched against the start of
    /// task UUIDs. No match and several matches are errors.
    public func resolve(_ text: String) throws -> ListedTask {
        let typed = text.trimmingWhitespace()
        guard let ref = TaskReference.single(typed) else { throw brokenOrMissing(typed) }
        return try resolve(ref, typed: typed)
    }

    /// Resolves a reference already parsed (the doors of ``TaskMutation`` take
    /// these: `tick ui` passes the ids it holds). `typed` names it in errors.
    public func resolve(_ reference: TaskReference, typed: String? = nil) throws -> ListedTask {
        let ref = typed ?? reference.text
        let hex: String
        switch reference {
        case .short(let r):
            guard r.count == 1, let found = try catalog.task(shortID: r.lowerBound) else { throw brokenOrMissing(ref) }
            return found
        case .shortOrPrefix(let n, let digits):
            if let found = try catalog.task(shortID: n) { return found }
            hex = digits
        case .uuidPrefix(let prefix):
            hex = prefix
        case .id(let id):
            hex = id.lowercased.filter { $0 != "-" }
        }
        let matches = try catalog.tasks(uuidHexPrefix: hex)
        if matches.count == 1 { return matches[0] }
        // One task in two files (an interrupted move): one task, the newer copy.
        if let first = matches.first, matches.count > 1, matches.allSatisfy({ $0.task.id == first.task.id }) {
            return ListedTask.preferredCopy(matches) ?? first
        }
        if matches.isEmpty { throw brokenOrMissing(ref) }
        throw LookupError.ambiguousTask(ref, candidates: matches.map { m in
            let short = m.shortID.map { "\($0)" } ?? "-"
            return "\(m.task.id.lowercased)  [\(short)] \(m.listName): \(m.task.title)"
        })
    }

    /// Resolves several parsed references, failing on the first bad one.
    public func resolve(_ references: [TaskReference]) throws -> [ListedTask] {
        try references.map { try resolve($0) }
    }

    private func brokenOrMissing(_ ref: String) -> LookupError {
        if let broken = catalog.problems.first {
            return .taskInBrokenFile(ref, path: broken.path)
        }
        return .taskNotFound(ref)
    }
}
