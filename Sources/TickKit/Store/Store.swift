import FoundationEssentials
import Glibc

/// A directory of task files: the only source of truth.
///
/// Reads never write. Writes go through ``withLock(timeout:_:)``, which
/// serializes tick processes with a lock kept outside the store.
public struct Store: Sendable {
    public let location: StoreLocation
    /// When set, paths in messages are shown relative to this directory if they are below it.
    public let currentDirectory: String?
    /// When set, every write made through ``withLock(timeout:_:)`` is recorded for `tick undo`.
    public let journal: JournalSession?
    /// When set, every task a write adds, changes or deletes goes through the
    /// user's hook scripts first (``TaskHooks``).
    public let hooks: TaskHooks?
    /// The time writes record as the change time of what they change
    /// (a command passes its start time; `tick watch` a running clock).
    public let clock: @Sendable () -> Date
    /// Tests only: runs just before each swap of a store file (``SwappingWrite``:
    /// the swap, and the swap back when a save landed before it),
    /// so a test can save the file in that instant, as an editor might.
    var beforeSwap: (@Sendable (String) -> Void)?

    public init(location: StoreLocation, currentDirectory: String? = nil, journal: JournalSession? = nil,
                hooks: TaskHooks? = nil, clock: @escaping @Sendable () -> Date = Date.init) {
        self.location = location
        self.currentDirectory = currentDirectory
        self.journal = journal
        self.hooks = hooks
        self.clock = clock
    }

    /// The same store with another clock for its writes.
    public func with(clock: @escaping @Sendable () -> Date) -> Store {
        var store = Store(location: location, currentDirectory: currentDirectory, journal: journal, hooks: hooks, clock: clock)
        store.beforeSwap = beforeSwap
        return store
    }

    /// The same store, recording its writes in `journal` (nil: in no journal).
    public func with(journal: JournalSession?) -> Store {
        var store = Store(location: location, currentDirectory: currentDirectory, journal: journal, hooks: hooks, clock: clock)
        store.beforeSwap = beforeSwap
        return store
    }

    /// The same store, writing without hooks (joining copies of a task is a merge, not a change).
    public func withoutHooks() -> Store {
        var store = Store(location: location, currentDirectory: currentDirectory, journal: journal, hooks: nil, clock: clock)
        store.beforeSwap = beforeSwap
        return store
    }

    /// The last bytes tick wrote to each file (for stamping hand edits).
    public var written: WrittenCopies { WrittenCopies(location: location, clock: clock) }

    /// A file that was read, with what is needed to notice a later change.
    public struct Loaded: Sendable {
        public var file: TaskFile
        public var bytes: [UInt8]
        public var stamp: FileStamp
    }

    /// The kinds of files present: the inbox when it exists, and every
    /// `lists/*.json` that is not hidden and not a sync-conflict copy. A
    /// `lists/` directory that cannot be read is an error (``StoreError/readFailed(path:reason:)``).
    public func kinds() throws(StoreError) -> [FileKind] {
        if PathStat.isDirectory(location.root) == false {
            throw .notADirectory(path: location.root)
        }
        var result: [FileKind] = []
        if FileStamp.of(path: location.path(of: .inbox)) != nil { result.append(.inbox) }
        let listsDir = location.path("lists")
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: listsDir) else {
            // No lists/ yet: no lists. One that exists but cannot be listed (no
            // permission) is an error, never a store that silently has no lists.
            var st = stat()
            guard stat(listsDir, &st) == 0, st.st_mode & S_IFMT == S_IFDIR else { return result }
            var reason = "cannot list the directory"
            if let dir = opendir(listsDir) { closedir(dir) } else { reason = String(cString: strerror(errno)) }
            throw .readFailed(path: listsDir, reason: reason)
        }
        for name in names.sorted() {
            guard let slug = Self.slug(ofListFileNamed: name) else { continue }
            result.append(.list(slug: slug))
        }
        return result
    }

    /// The slug for a file name in `lists/`, or nil when tick should ignore the file.
    public static func slug(ofListFileNamed name: String) -> String? {
        guard name.hasSuffix(".json"), !name.hasPrefix("."), name.literalRange(of: ".sync-conflict-") == nil else { return nil }
        let slug = String(name.dropLast(5))
        return Slug.isSafe(slug) ? slug : nil
    }

    /// Reads and decodes one file; nil when it does not exist.
    public func read(_ kind: FileKind) throws(StoreError) -> Loaded? {
        let path = location.path(of: kind)
        guard let (bytes, stamp) = try AtomicFile.read(path: path) else { return nil }
        let decoder = TaskFileDecoder(bytes: bytes, path: displayPath(kind), kind: kind, fallbackDate: stamp.modificationDate)
        do {
            return Loaded(file: try decoder.decode(), bytes: bytes, stamp: stamp)
        } catch {
            throw .invalidFile(error)
        }
    }

    /// The path shown in messages: relative to the current directory when the
    /// store is below it, else absolute, so editors can jump to `path:line:col`.
    public func displayPath(_ kind: FileKind) -> String {
        let path = location.path(of: kind)
        guard let cwd = currentDirectory, !cwd.isEmpty, cwd != "/" else { return path }
        let prefix = cwd.hasSuffix("/") ? cwd : cwd + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }

    /// Reads every file. Broken and unreadable files (not regular files, over
    /// the size limit) are reported in `problems`, not thrown, so that one bad
    /// file never hides the others.
    public func snapshot() throws(StoreError) -> StoreSnapshot {
        var files: [TaskFile] = []
        var broken: [FileKind: FormatError] = [:]
        for kind in try kinds() {
            do {
                if let loaded = try read(kind) { files.append(loaded.file) }
            } catch {
                switch error {
                case .invalidFile(let e):
                    broken[kind] = e
                case .readFailed(_, let reason):
                    // A FIFO, a device, a file over the limit: unreadable, like a broken file.
                    broken[kind] = FormatError.unreadable(path: displayPath(kind), reason: reason)
                default:
                    throw error
                }
            }
        }
        if !files.contains(where: { $0.kind == .inbox }) && broken[.inbox] == nil {
            files.insert(TaskFile(kind: .inbox, id: UUID(name: "tick-list:inbox"), createdAt: Date(timeIntervalSince1970: 0), modifiedAt: Date(timeIntervalSince1970: 0)), at: 0)
        }
        let order = ListInfo.displayOrder(files.map { ListInfo(kind: $0.kind, id: $0.id, name: $0.displayName, color: $0.color) })
        var rank: [FileKind: Int] = [:]
        for (i, info) in order.enumerated() { rank[info.kind] = i }
        files.sort { (rank[$0.kind] ?? 0) < (rank[$1.kind] ?? 0) }
        return StoreSnapshot(files: files, broken: broken)
    }

    /// Runs `body` holding the store's write lock (outside the store). The
    /// journal, if any, is written before the lock is released, even when `body` throws.
    public func withLock<R>(timeout: Double = 15, _ body: (StoreWriter) throws -> R) throws -> R {
        let lock = try FileLock(path: PathString.appending(location.stateDirectory, "store.lock"), timeout: timeout)
        defer { lock.unlock() }
        defer { journal?.flush() }
        // Every writer of the store holds this lock, so a temp file of a dead process is litter.
        StaleTemps.sweep([location.root, location.path("lists"), location.path(Self.archiveDirectory)])
        return try body(StoreWriter(store: self))
    }
}
