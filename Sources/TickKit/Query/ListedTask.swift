import FoundationEssentials

/// A task together with the list it is in and its short id, ready to show.
public struct ListedTask: Sendable {
    public var task: TaskItem
    public var kind: FileKind
    /// The list's display name ("Inbox" for the inbox).
    public var listName: String
    public var shortID: Int?
    /// True when the task is not done and depends on a task that exists and is not done.
    public var blocked: Bool

    public init(task: TaskItem, kind: FileKind, listName: String, shortID: Int?, blocked: Bool = false) {
        self.task = task
        self.kind = kind
        self.listName = listName
        self.shortID = shortID
        self.blocked = blocked
    }
}

extension ListedTask {
    /// How a message names the task: its short id, else the first 8 hex
    /// digits of its UUID (a done task's, which stay valid everywhere).
    public var reference: String {
        shortID.map(String.init) ?? String(task.id.lowercased.prefix(8))
    }

    /// Of several copies of one task (an interrupted `tick mv`, a move merged file
    /// by file), the one to show and to act on until they are joined: the copy in
    /// the list the join will keep (latest `list` change), then the newer edit.
    public static func preferredCopy(_ copies: [ListedTask]) -> ListedTask? {
        copies.max { a, b in
            (a.task.listTime, a.task.modifiedAt) < (b.task.listTime, b.task.modifiedAt)
        }
    }

    /// `tasks` with each task once: a task in several files keeps only its
    /// ``preferredCopy(_:)``, at the place of that copy.
    public static func oneCopyEach(_ tasks: [ListedTask]) -> [ListedTask] {
        var seen = Set<UUID>()
        seen.reserveCapacity(tasks.count)
        guard tasks.contains(where: { !seen.insert($0.task.id).inserted }) else { return tasks }
        var copies: [UUID: [ListedTask]] = [:]
        for t in tasks { copies[t.task.id, default: []].append(t) }
        var kept: [UUID: FileKind] = [:]
        for (id, all) in copies where all.count > 1 { kept[id] = preferredCopy(all)?.kind }
        return tasks.filter { t in kept[t.task.id].map { $0 == t.kind } ?? true }
    }
}
