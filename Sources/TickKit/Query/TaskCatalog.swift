import Foundation

/// Where task references are looked up: the files themselves, or the index.
public protocol TaskCatalog {
    /// The pending task with this short id.
    func task(shortID: Int) throws -> ListedTask?
    /// Tasks whose UUID, without dashes, starts with `hexPrefix` (lowercase).
    func tasks(uuidHexPrefix: String) throws -> [ListedTask]
    /// Files that cannot be parsed right now.
    var problems: [FormatError] { get }
}

/// A list as listings and resolvers see it.
public struct ListInfo: Sendable, Equatable {
    public var kind: FileKind
    public var id: UUID
    /// "Inbox" for the inbox.
    public var name: String
    public var color: String?

    public init(kind: FileKind, id: UUID, name: String, color: String?) {
        self.kind = kind
        self.id = id
        self.name = name
        self.color = color
    }
}

/// A catalog over an in-memory snapshot (used without an index, and by tests).
public struct SnapshotCatalog: TaskCatalog {
    public let snapshot: StoreSnapshot
    public let ids: ShortIDTable

    public init(snapshot: StoreSnapshot, ids: ShortIDTable) {
        self.snapshot = snapshot
        self.ids = ids
    }

    public func task(shortID: Int) -> ListedTask? {
        guard let uuid = ids.task(withShortID: shortID) else { return nil }
        for file in snapshot.files {
            if let task = file.tasks.first(where: { $0.id == uuid }) {
                return ListedTask(task: task, kind: file.kind, listName: file.displayName, shortID: shortID)
            }
        }
        return nil
    }

    public func tasks(uuidHexPrefix hex: String) -> [ListedTask] {
        snapshot.allTasks.compactMap { file, task in
            guard task.id.lowercased.replacingOccurrences(of: "-", with: "").hasPrefix(hex) else { return nil }
            return ListedTask(task: task, kind: file.kind, listName: file.displayName, shortID: ids.shortID(of: task.id))
        }
    }

    public var problems: [FormatError] { snapshot.problems }
}

extension StoreSnapshot {
    /// The lists (and inbox) as ``ListInfo``s, in display order.
    public var listInfos: [ListInfo] {
        files.map { ListInfo(kind: $0.kind, id: $0.id, name: $0.displayName, color: $0.color) }
    }
}
