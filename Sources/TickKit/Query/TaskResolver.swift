import Foundation

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

    /// Resolves one reference.
    ///
    /// A number is a short id. Otherwise, or when no task has that short id,
    /// 4 or more hex digits are matched against the start of task UUIDs
    /// (dashes optional). No match and several matches are errors.
    public func resolve(_ text: String) throws -> ListedTask {
        let ref = text.trimmingCharacters(in: .whitespaces)
        if let n = Int(ref), n > 0, let found = try catalog.task(shortID: n) {
            return found
        }
        let hex = ref.lowercased().filter { $0 != "-" }
        guard hex.count >= 4, hex.allSatisfy(\.isHexDigit) else {
            throw brokenOrMissing(ref)
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

    /// Resolves several references, failing on the first bad one.
    public func resolve(_ texts: [String]) throws -> [ListedTask] {
        try texts.map(resolve)
    }

    private func brokenOrMissing(_ ref: String) -> LookupError {
        if let broken = catalog.problems.first {
            return .taskInBrokenFile(ref, path: broken.path)
        }
        return .taskNotFound(ref)
    }
}
