import FoundationEssentials

/// Which file of a store a list lives in.
public enum FileKind: Hashable, Sendable, Comparable {
    /// `inbox.json`: tasks in no list.
    case inbox
    /// `lists/<slug>.json`.
    case list(slug: String)
    /// `archive/<year>.json`: done tasks moved out of the lists (`tick archive`).
    case archive(year: Int)

    /// Path of the file relative to the store root.
    public var relativePath: String {
        switch self {
        case .inbox: return "inbox.json"
        case .list(let slug): return "lists/\(slug).json"
        case .archive(let year): return "archive/\(year).json"
        }
    }

    /// True for an `archive/<year>.json` file.
    public var isArchive: Bool {
        if case .archive = self { return true }
        return false
    }

    /// What derived task ids are seeded with (Docs/FORMAT.md 5.4): the slug,
    /// `inbox`, or `archive-<year>`.
    public var idSeed: String {
        switch self {
        case .inbox: return "inbox"
        case .list(let slug): return slug
        case .archive(let year): return "archive-\(year)"
        }
    }

    /// The slug, or nil for the inbox.
    public var slug: String? {
        if case .list(let slug) = self { return slug }
        return nil
    }

    /// The inbox, then lists by slug, then archive files by year.
    public static func < (lhs: FileKind, rhs: FileKind) -> Bool {
        switch (lhs, rhs) {
        case let (.list(a), .list(b)): return a < b
        case let (.archive(a), .archive(b)): return a < b
        default: return lhs.rank < rhs.rank
        }
    }

    private var rank: Int {
        switch self {
        case .inbox: return 0
        case .list: return 1
        case .archive: return 2
        }
    }
}

/// The contents of one store file: the inbox or a list, with its tasks in manual order.
public struct TaskFile: Sendable, Equatable {
    /// The file format version tick writes.
    public static let currentVersion = 1

    public var kind: FileKind
    public var version: Int
    public var id: UUID
    /// The list's name; nil for the inbox.
    public var name: String?
    /// `#rrggbb`, lowercase.
    public var color: String?
    public var createdAt: Date
    /// Changes when the list's own metadata changes, not when its tasks do.
    public var modifiedAt: Date
    /// Unknown file-level keys, preserved verbatim and in order.
    public var extra: [JSONMember]
    /// The tasks; their order is the manual order.
    public var tasks: [TaskItem]
    /// Tasks deleted on purpose (for two-way merges), oldest first.
    public var deleted: [Tombstone]
    /// True when the id or timestamps were missing on disk.
    public var needsFill: Bool

    public init(
        kind: FileKind,
        version: Int = TaskFile.currentVersion,
        id: UUID,
        name: String? = nil,
        color: String? = nil,
        createdAt: Date,
        modifiedAt: Date,
        extra: [JSONMember] = [],
        tasks: [TaskItem] = [],
        deleted: [Tombstone] = [],
        needsFill: Bool = false
    ) {
        self.kind = kind
        self.version = version
        self.id = id
        self.name = name
        self.color = color
        self.createdAt = createdAt
        self.modifiedAt = modifiedAt
        self.extra = extra
        self.tasks = tasks
        self.deleted = deleted
        self.needsFill = needsFill
    }

    /// A new, empty file.
    public static func empty(_ kind: FileKind, name: String?, color: String? = nil, now: Date) -> TaskFile {
        TaskFile(kind: kind, id: UUID(), name: name, color: color, createdAt: now, modifiedAt: now)
    }

    /// The name shown to users: the list's name, or "Inbox".
    public var displayName: String { name ?? "Inbox" }

    /// Index of a task by id.
    public func index(of id: UUID) -> Int? {
        tasks.firstIndex { $0.id == id }
    }
}
