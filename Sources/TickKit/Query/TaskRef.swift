import Foundation

/// A task located in the store: which file, and its id.
public struct TaskRef: Sendable, Hashable {
    public var kind: FileKind
    public var id: UUID

    public init(kind: FileKind, id: UUID) {
        self.kind = kind
        self.id = id
    }
}

/// A task together with the list it is in and its short id, ready to show.
public struct ListedTask: Sendable {
    public var task: TaskItem
    public var kind: FileKind
    /// The list's display name ("Inbox" for the inbox).
    public var listName: String
    public var shortID: Int?

    public init(task: TaskItem, kind: FileKind, listName: String, shortID: Int?) {
        self.task = task
        self.kind = kind
        self.listName = listName
        self.shortID = shortID
    }

    public var ref: TaskRef { TaskRef(kind: kind, id: task.id) }
}
