import Foundation

/// Turns what a user typed (a short id or a UUID prefix) into a task.
public struct TaskResolver: Sendable {
    public let snapshot: StoreSnapshot
    public let ids: ShortIDTable

    public init(snapshot: StoreSnapshot, ids: ShortIDTable) {
        self.snapshot = snapshot
        self.ids = ids
    }

    /// Resolves one reference.
    ///
    /// A number is a short id. Otherwise, or when no task has that short id,
    /// 4 or more hex digits are matched against the start of task UUIDs
    /// (dashes optional). No match and several matches are errors.
    public func resolve(_ text: String) throws(LookupError) -> ListedTask {
        let ref = text.trimmingCharacters(in: .whitespaces)
        if let n = Int(ref), n > 0, let uuid = ids.task(withShortID: n), let found = find(uuid) {
            return found
        }
        let hex = ref.lowercased().filter { $0 != "-" }
        guard hex.count >= 4, hex.allSatisfy(\.isHexDigit) else {
            throw brokenOrMissing(ref)
        }
        var matches: [ListedTask] = []
        for (file, task) in snapshot.allTasks where task.id.lowercased.replacingOccurrences(of: "-", with: "").hasPrefix(hex) {
            matches.append(ListedTask(task: task, kind: file.kind, listName: file.displayName, shortID: ids.shortID(of: task.id)))
        }
        if matches.count == 1 { return matches[0] }
        if matches.isEmpty { throw brokenOrMissing(ref) }
        throw .ambiguousTask(ref, candidates: matches.map { m in
            let short = m.shortID.map { "\($0)" } ?? "-"
            return "\(m.task.id.lowercased)  [\(short)] \(m.listName): \(m.task.title)"
        })
    }

    /// Resolves several references, failing on the first bad one.
    public func resolve(_ texts: [String]) throws(LookupError) -> [ListedTask] {
        var out: [ListedTask] = []
        for t in texts { out.append(try resolve(t)) }
        return out
    }

    private func find(_ uuid: UUID) -> ListedTask? {
        for file in snapshot.files {
            if let task = file.tasks.first(where: { $0.id == uuid }) {
                return ListedTask(task: task, kind: file.kind, listName: file.displayName, shortID: ids.shortID(of: uuid))
            }
        }
        return nil
    }

    private func brokenOrMissing(_ ref: String) -> LookupError {
        if let broken = snapshot.problems.first {
            return .taskInBrokenFile(ref, path: broken.path)
        }
        return .taskNotFound(ref)
    }
}
