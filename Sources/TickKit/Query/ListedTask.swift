import Foundation

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
}
