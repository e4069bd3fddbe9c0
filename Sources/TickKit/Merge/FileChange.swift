import FoundationEssentials

/// How one store file changed between two versions, in counts (never titles).
public struct FileChange: Sendable, Equatable {
    /// Path relative to the store.
    public var path: String
    /// The store file it is, nil for other files (`.gitattributes`, notes...).
    public var kind: FileKind?
    public var fileAdded = false
    public var fileRemoved = false
    /// One of the versions could not be parsed.
    public var unreadable = false
    /// The list's own name or color changed.
    public var metadataChanged = false
    /// Only the order of tasks that are in both versions changed.
    public var reordered = false
    public var addedIDs: Set<UUID> = []
    public var removedIDs: Set<UUID> = []
    public var completed = 0
    public var changed = 0

    public init(path: String, kind: FileKind?) {
        self.path = path
        self.kind = kind
    }

    /// Compares two versions of a store file (nil = absent).
    public static func compare(path: String, kind: FileKind?, old: TaskFile?, new: TaskFile?) -> FileChange {
        var c = FileChange(path: path, kind: kind)
        c.fileAdded = old == nil && new != nil
        c.fileRemoved = old != nil && new == nil
        let oldTasks = old?.tasks ?? []
        let newTasks = new?.tasks ?? []
        var oldByID: [UUID: TaskItem] = [:]
        for t in oldTasks { oldByID[t.id] = t }
        let newIDs = Set(newTasks.map(\.id))
        for t in newTasks {
            guard let before = oldByID[t.id] else { c.addedIDs.insert(t.id); continue }
            if t.sameContent(as: before) { continue }
            if t.state == .done && before.state != .done { c.completed += 1 } else { c.changed += 1 }
        }
        c.removedIDs = Set(oldTasks.map(\.id)).subtracting(newIDs)
        if let old, let new {
            c.metadataChanged = old.name != new.name || old.color != new.color
            let keptOld = oldTasks.map(\.id).filter(newIDs.contains)
            let oldIDs = Set(oldTasks.map(\.id))
            let keptNew = newTasks.map(\.id).filter(oldIDs.contains)
            c.reordered = keptOld != keptNew
        }
        return c
    }

    /// Decodes both versions (bytes nil = absent) and compares them; a version
    /// that cannot be parsed counts as unreadable.
    public static func compare(path: String, old: [UInt8]?, new: [UInt8]?, fallbackDate: Date) -> FileChange {
        guard let kind = FileKind(relativePath: path) else {
            var c = FileChange(path: path, kind: nil)
            c.fileAdded = old == nil && new != nil
            c.fileRemoved = old != nil && new == nil
            return c
        }
        var unreadable = false
        func decode(_ bytes: [UInt8]?) -> TaskFile? {
            guard let bytes else { return nil }
            do {
                return try TaskFileDecoder(bytes: bytes, path: path, kind: kind, fallbackDate: fallbackDate).decode()
            } catch {
                unreadable = true
                return TaskFile(kind: kind, id: UUID(name: "tick-list:\(kind.idSeed)"), createdAt: fallbackDate, modifiedAt: fallbackDate)
            }
        }
        var c = compare(path: path, kind: kind, old: decode(old), new: decode(new))
        c.unreadable = unreadable
        return c
    }
}
