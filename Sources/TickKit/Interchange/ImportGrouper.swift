import FoundationEssentials

/// Sorts imported tasks into the inbox and lists by list name (case-insensitive),
/// for the formats that name a task's list per record.
struct ImportGrouper {
    private var inbox: TaskFile?
    private var lists: [TaskFile] = []
    private var slot: [String: Int] = [:]
    let now: Date
    let inboxID: UUID
    /// Prefix of the name-based ids of new lists, e.g. "todotxt-list:".
    let listIDPrefix: String

    init(now: Date, inboxID: UUID, listIDPrefix: String) {
        self.now = now
        self.inboxID = inboxID
        self.listIDPrefix = listIDPrefix
    }

    /// Adds a task to the list named `name` (nil, empty or "inbox": the inbox).
    mutating func add(_ task: TaskItem, list name: String?) {
        let trimmed = name?.trimmingWhitespace() ?? ""
        if trimmed.isEmpty || trimmed.lowercased() == "inbox" {
            if inbox == nil { inbox = TaskFile(kind: .inbox, id: inboxID, createdAt: now, modifiedAt: now) }
            inbox?.tasks.append(task)
            return
        }
        let key = trimmed.lowercased()
        if let i = slot[key] {
            lists[i].tasks.append(task)
            return
        }
        var file = TaskFile(kind: .list(slug: Slug.make(from: trimmed)), id: UUID(name: listIDPrefix + key),
                            name: trimmed, createdAt: now, modifiedAt: now)
        file.tasks.append(task)
        slot[key] = lists.count
        lists.append(file)
    }

    /// The inbox (when it got tasks), then the lists in the order first seen.
    var files: [TaskFile] { (inbox.map { [$0] } ?? []) + lists }
}
