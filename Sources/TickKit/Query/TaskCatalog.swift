import FoundationEssentials

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
            guard task.id.lowercased.replacingAll("-", with: "").hasPrefix(hex) else { return nil }
            return ListedTask(task: task, kind: file.kind, listName: file.displayName, shortID: ids.shortID(of: task.id))
        }
    }

    public var problems: [FormatError] { snapshot.problems }
}

extension ListInfo {
    /// The inbox first, then lists by name (case- and accent-insensitive,
    /// numbers in numeric order), then by slug.
    public static func displayOrder(_ infos: [ListInfo]) -> [ListInfo] {
        let keyed = infos.map { (info: $0, key: ListInfo.sortKey($0.name)) }
        return keyed.sorted { a, b in
            if a.info.kind == .inbox || b.info.kind == .inbox { return a.info.kind == .inbox && b.info.kind != .inbox }
            if a.key != b.key { return a.key.lexicographicallyPrecedes(b.key) }
            return a.info.kind < b.info.kind
        }.map(\.info)
    }

    /// A sort key: folded text, with runs of digits compared as numbers.
    static func sortKey(_ name: String) -> [SortPart] {
        let folded = TextFolding.fold(name)
        var parts: [SortPart] = []
        var digits = ""
        var text = ""
        for ch in folded {
            if ch.isASCII && ch.isNumber {
                if !text.isEmpty { parts.append(.text(text)); text = "" }
                digits.append(ch)
            } else {
                if !digits.isEmpty { parts.append(.number(Int(digits.prefix(18)) ?? 0)); digits = "" }
                text.append(ch)
            }
        }
        if !digits.isEmpty { parts.append(.number(Int(digits.prefix(18)) ?? 0)) }
        if !text.isEmpty { parts.append(.text(text)) }
        return parts
    }

    /// Part of a name's sort key.
    enum SortPart: Comparable {
        case number(Int)
        case text(String)
    }
}

extension StoreSnapshot {
    /// The lists (and inbox) as ``ListInfo``s, in display order.
    public var listInfos: [ListInfo] {
        files.map { ListInfo(kind: $0.kind, id: $0.id, name: $0.displayName, color: $0.color) }
    }
}
