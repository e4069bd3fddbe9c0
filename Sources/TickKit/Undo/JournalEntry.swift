import FoundationEssentials

/// One command's changes to a store, as kept in the undo journal (one JSON line).
///
/// `files` holds one ``FileStep`` per write, in the order the command made
/// them; undo reverts them in reverse order. An entry with `undoes` was written
/// by `tick undo` and names the entries it reverted.
public struct JournalEntry: Codable, Sendable, Equatable {
    /// The journal line format this tick writes.
    public static let formatVersion = 1

    public var v: Int
    /// A random UUID; several lines with the same id are the same entry, the last one wins.
    public var id: String
    /// When the command ran (ISO 8601, UTC).
    public var at: String
    /// The command path, e.g. `done` or `lists rm`; never titles or other arguments.
    public var command: String
    /// For `tick undo` entries: the ids of the entries it reverted.
    public var undoes: [String]?
    /// True when the images were dropped because the entry was too large to keep; it cannot be undone.
    public var tooLarge: Bool?
    public var files: [FileStep]
    /// `blocks.json` (the commitments) before and after, when the command changed it.
    public var blocks: CommitmentStep?

    public init(id: String, at: Date, command: String, undoes: [String]? = nil, tooLarge: Bool? = nil, files: [FileStep],
                blocks: CommitmentStep? = nil) {
        self.v = Self.formatVersion
        self.id = id
        self.at = Timestamp.format(at)
        self.command = command
        self.undoes = undoes
        self.tooLarge = tooLarge
        self.files = files
        self.blocks = blocks
    }

    /// When the command ran.
    public var date: Date? { Timestamp.parse(at) }

    /// True for entries written by `tick undo`.
    public var isUndo: Bool { undoes != nil }

    /// The ids of the tasks this entry touched, first appearance first.
    public var taskIDs: [UUID] {
        var seen = Set<UUID>()
        var result: [UUID] = []
        for step in files {
            for t in step.tasks {
                if let id = UUID(uuidString: t.id), seen.insert(id).inserted { result.append(id) }
            }
        }
        return result
    }
}

/// A command's change to `blocks.json`: the whole file before and after
/// (it is small), nil where the file did not exist.
public struct CommitmentStep: Codable, Sendable, Equatable {
    public var before: String?
    public var after: String?

    public init(before: String?, after: String?) {
        self.before = before
        self.after = after
    }
}

/// One write to one store file: the before and after images of what changed.
public struct FileStep: Codable, Sendable, Equatable {
    /// The file, relative to the store root (`inbox.json`, `lists/<slug>.json`).
    public var path: String
    /// The list's display name at the time (after the write, or before a removal).
    public var name: String
    /// The file's `id`, to notice a file that was deleted and created again.
    public var fileID: String
    /// The file did not exist before this write.
    public var created: Bool?
    /// The file was deleted by this write.
    public var removed: Bool?
    /// The whole file before a removal (base64), restored byte for byte.
    public var bytesBefore: String?
    /// The file's permission bits before a removal.
    public var modeBefore: UInt32?
    /// Number of tasks in a removed file.
    public var removedTaskCount: Int?
    /// The file-level fields (canonical JSON without tasks and tombstones) before and after, when they changed.
    public var headerBefore: String?
    public var headerAfter: String?
    /// Tombstones this write added, and ones it removed.
    public var tombstonesAdded: [TombstoneImage]?
    public var tombstonesRemoved: [TombstoneImage]?
    /// The task ids in their order before the write, kept only when the order of the tasks present before and after changed.
    public var orderBefore: [String]?
    /// Every task that was added, removed or changed.
    public var tasks: [TaskStep]
    /// Counts kept instead of `tasks` when the entry was too large.
    public var counts: StepCounts?

    public init(path: String, name: String, fileID: String, tasks: [TaskStep] = []) {
        self.path = path
        self.name = name
        self.fileID = fileID
        self.tasks = tasks
    }

    /// The file this step wrote, or nil when the path is not a store file.
    public var kind: FileKind? { FileKind(relativePath: path) }

    public var isCreated: Bool { created == true }
    public var isRemoved: Bool { removed == true }

    /// How many tasks were added, changed and removed.
    public var taskCounts: StepCounts {
        if let counts { return counts }
        var c = StepCounts()
        for t in tasks {
            switch (t.before, t.after) {
            case (nil, .some): c.added += 1
            case (.some, nil): c.removed += 1
            default: c.changed += 1
            }
        }
        if isRemoved { c.removed += removedTaskCount ?? 0 }
        return c
    }
}

/// Numbers of tasks added, changed and removed.
public struct StepCounts: Codable, Sendable, Equatable {
    public var added = 0
    public var changed = 0
    public var removed = 0

    public init(added: Int = 0, changed: Int = 0, removed: Int = 0) {
        self.added = added
        self.changed = changed
        self.removed = removed
    }

    public static func + (a: StepCounts, b: StepCounts) -> StepCounts {
        StepCounts(added: a.added + b.added, changed: a.changed + b.changed, removed: a.removed + b.removed)
    }

    public var total: Int { added + changed + removed }
}

/// A task before and after a write; nil before = added, nil after = removed.
public struct TaskStep: Codable, Sendable, Equatable {
    public var id: String
    /// The task's canonical JSON before the write.
    public var before: String?
    /// The task's canonical JSON after the write.
    public var after: String?
    /// Where the task was before the write (index and the id of the task before it; no `beforePrev` = first).
    public var beforeIndex: Int?
    public var beforePrev: String?

    public init(id: String, before: String? = nil, after: String? = nil, beforeIndex: Int? = nil, beforePrev: String? = nil) {
        self.id = id
        self.before = before
        self.after = after
        self.beforeIndex = beforeIndex
        self.beforePrev = beforePrev
    }
}

/// A tombstone as the journal keeps it.
public struct TombstoneImage: Codable, Sendable, Equatable {
    public var id: String
    public var at: String

    public init(_ t: Tombstone) {
        id = t.id.lowercased
        at = Timestamp.format(t.at)
    }

    public var tombstone: Tombstone? {
        guard let uuid = UUID(uuidString: id), let date = Timestamp.parse(at) else { return nil }
        return Tombstone(id: uuid, at: date)
    }
}

extension FileKind {
    /// The kind for a path relative to the store root, or nil when it is not a store file.
    public init?(relativePath path: String) {
        if path == "inbox.json" {
            self = .inbox
        } else if path.hasPrefix("lists/"), let slug = Store.slug(ofListFileNamed: String(path.dropFirst(6))), !slug.contains("/") {
            self = .list(slug: slug)
        } else if path.hasPrefix("archive/"), let year = Store.year(ofArchiveFileNamed: String(path.dropFirst(8))) {
            self = .archive(year: year)
        } else {
            return nil
        }
    }
}
