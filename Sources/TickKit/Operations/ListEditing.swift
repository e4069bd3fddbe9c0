import FoundationEssentials
import Glibc

/// `tick lists add`, `tick lists rename` and `tick lists rm`: list files
/// created, renamed and removed under the store lock, with the checks that
/// need the other lists (a free slug, no name shared with a file that cannot
/// be read, the inbox left alone).
public struct ListEditing {
    let store: Store
    let session: IndexSession
    let now: Date

    public init(store: Store, session: IndexSession, now: Date) {
        self.store = store
        self.session = session
        self.now = now
    }

    /// Creates the list file for `name` (trimmed), with `color` (already
    /// normalized) or the one picked from the name; returns the name and slug.
    public func add(named name: String, color: String?) throws -> (name: String, slug: String) {
        let trimmed = name.trimmingWhitespaceAndNewlines()
        let now = self.now
        let slug = try store.withLock { writer in
            let loaded = try session.load()
            // A list file that cannot be read may carry this very name.
            if let problem = loaded.broken.values.first { throw StoreError.invalidFile(problem) }
            let slug = try loaded.lists.slugForNewList(named: trimmed)
            try writer.createList(named: trimmed, slug: slug, color: color, now: now)
            return slug
        }
        return (trimmed, slug)
    }

    /// Makes the lists that `names` (`list:` words of a context's filter) name
    /// when no list is named or starts with them, as `list:` in `tick add`
    /// does (``ListResolver/target(_:)``: a near name is refused); returns
    /// the names of the lists made.
    public func makeMissing(_ names: [String]) throws -> [String] {
        let now = self.now
        var created: [String] = []
        try store.withLock { writer in
            var made = Set<String>()
            for name in names where name.lowercased() != "inbox" && !made.contains(name.lowercased()) {
                let loaded = try session.load()
                guard FilterBindings.lists(matching: name, in: loaded.listInfos).isEmpty else { continue }
                guard case .new(let trimmed, let slug) = try loaded.lists.target(name) else { continue }
                try writer.createList(named: trimmed, slug: slug, now: now)
                made.insert(name.lowercased())
                created.append(trimmed)
            }
        }
        return created
    }

    /// Renames the list named `ref` to `name` (trimmed); returns its old and
    /// new name (the same when it already had that name: nothing is written).
    public func rename(_ ref: String, to name: String) throws -> (old: String, new: String) {
        let newName = name.trimmingWhitespaceAndNewlines()
        let now = self.now
        let oldName = try store.withLock { writer in
            let loaded = try session.load()
            // A list file that cannot be read may carry the new name.
            if let problem = loaded.broken.values.first { throw StoreError.invalidFile(problem) }
            let kind = try loaded.lists.resolve(ref)
            let oldName = loaded.name(of: kind)
            guard kind != .inbox else { throw LookupError.invalidListName(ref, reason: "the inbox has no name to change") }
            if newName.lowercased() != oldName.lowercased() {
                _ = try loaded.lists.slugForNewList(named: newName)
            } else if newName.isEmpty {
                throw LookupError.invalidListName(name, reason: "the name is empty")
            }
            try writer.update(kind) { file in
                guard file.name != newName else { return }
                file.name = newName
                file.modifiedAt = now
            }
            return oldName
        }
        return (oldName, newName)
    }

    /// A list about to be removed, as it was when looked up: what to ask about.
    public struct Removal: Sendable {
        public var kind: FileKind
        public var displayName: String
        /// Its tasks, and those not done.
        public var count: Int
        public var pending: Int
        /// The ids of its tasks (the CalDAV bridge deletes their items wherever they are).
        public var taskIDs: [UUID] = []
        /// The tasks deleted in it, with when (its tombstones, which go with the
        /// file): the CalDAV bridge keeps them, so a copy another end sends back
        /// is still deleted.
        public var deleted: [UUID: Date] = [:]
    }

    /// Looks up the list named `ref` for ``remove(_:)``: not the inbox, and
    /// its file readable.
    public func removal(of ref: String) throws -> Removal {
        let loaded = try session.load()
        let kind = try loaded.lists.resolve(ref)
        guard kind != .inbox else { throw LookupError.invalidListName(ref, reason: "the inbox cannot be deleted") }
        if let problem = loaded.broken[kind] { throw StoreError.invalidFile(problem) }
        guard let file = try store.read(kind)?.file else {
            throw LookupError.listNotFound(ref, known: loaded.listInfos.filter { $0.kind != .inbox }.map(\.name))
        }
        return Removal(kind: kind, displayName: file.displayName, count: file.tasks.count,
                       pending: file.tasks.filter { $0.state.isPending }.count, taskIDs: file.tasks.map(\.id),
                       deleted: Dictionary(file.deleted.map { ($0.id, $0.at) }, uniquingKeysWith: max))
    }

    /// Removes the list file looked up by ``removal(of:)``; refuses (writing
    /// nothing) when its number of tasks changed since (tasks added while the
    /// user was asked). A file already gone is left so.
    public func remove(_ removal: Removal) throws {
        try store.withLock { writer in
            guard let current = try store.read(removal.kind)?.file else { return }
            guard current.tasks.count == removal.count else {
                throw ListChangedError(displayName: removal.displayName, count: current.tasks.count)
            }
            try writer.remove(removal.kind)
        }
    }
}

/// A list changed between ``ListEditing/removal(of:)`` and ``ListEditing/remove(_:)``.
public struct ListChangedError: Error, LocalizedError, Sendable, Equatable {
    public var displayName: String
    /// Its tasks now.
    public var count: Int

    public var errorDescription: String? {
        "list \(displayName) changed while asking (now \(count) tasks); nothing was deleted, run the command again"
    }
}

extension ListChangedError: TickError {
    public var kind: FailureKind { .failure }
}
