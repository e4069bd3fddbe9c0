import FoundationEssentials
import Glibc

/// Opening the index: where it lives, creating it, checking and migrating it.
extension TaskIndex {
    /// How long a command waits for another one that is creating or
    /// rebuilding the index (seconds) before working in memory.
    static let sharedWait = 60.0
    /// How long a command waits for the others to close the index before it
    /// migrates or deletes a damaged one (seconds).
    static let exclusiveWait = 10.0

    /// Opens the store's index, rebuilding it when it is missing, outdated or
    /// damaged, and falling back to an in-memory index when the cache
    /// directory cannot be used. Throws only if SQLite cannot work at all.
    /// `progress` hears about a build from scratch, when opening does one.
    public static func open(store: Store, now: @escaping () -> Date = Date.init,
                            progress: ((Int, Int) -> Void)? = nil) throws -> TaskIndex {
        var reason: String?
        for path in candidatePaths(for: store) {
            do {
                return try TaskIndex(store: store, path: path, now: now, progress: progress)
            } catch IndexError.busy(let why) {
                // Another process holds it too long: do not start a second index elsewhere.
                reason = why
                break
            } catch let error as UnwritableIndex {
                // It exists but cannot be written (a full disk): answer from a
                // copy in memory, which keeps its short ids.
                return try inMemoryCopy(ofFile: error.path, store: store, now: now, warning: error.warning)
            } catch {
                reason = reason ?? describe(error)
            }
        }
        // No usable directory at all: work in memory (slower, still correct,
        // but short ids are then numbered afresh by every command).
        let memory = try TaskIndex(store: store, path: nil, db: connect(nil), lock: nil, now: now,
                                   fallbackWarning: "cannot use the index in \(store.location.cacheDirectory) (\(reason ?? "no writable directory")); "
                                       + "working in memory, so short ids may change between commands (UUID prefixes always work)")
        try memory.migrate()
        return memory
    }

    /// `<cache>/index.sqlite`.
    public static func defaultPath(for store: Store) -> String {
        defaultPath(in: store.location)
    }

    /// `<cache>/index.sqlite` of the store at `location`.
    public static func defaultPath(in location: StoreLocation) -> String {
        PathString.appending(location.cacheDirectory, "index.sqlite")
    }

    /// Where the index may live, best first: the cache directory, then the
    /// state directory (when the cache is unusable), then a per-user temp dir.
    static func candidatePaths(for store: Store) -> [String] {
        let key = PathString.lastComponent(store.location.cacheDirectory)
        return [
            defaultPath(for: store),
            PathString.appending(store.location.stateDirectory, "index.sqlite"),
            "/tmp/tick-\(getuid())/\(key)/index.sqlite",
        ]
    }

    /// Recovers from an index that failed in use: closes it and opens the
    /// store's index again. When `error` says the file is damaged, the file
    /// is deleted first, but only once no other process has it open.
    public static func reopenAfterFailure(_ index: TaskIndex, error: Error? = nil) throws -> TaskIndex {
        if let path = index.path {
            index.db.close()
            if let error, isDamage(error), let lock = index.lock, lock.acquire(.exclusive, timeout: exclusiveWait) {
                removeFiles(at: path)
            }
            index.lock?.release()
        }
        return try open(store: index.store, now: index.now)
    }

    /// Deletes an index database and its WAL files (only under the exclusive lock).
    public static func removeFiles(at path: String) {
        for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
    }

    /// True when the database answers, has the current schema version and every table.
    var isCurrent: Bool { Self.isCurrent(db) }

    /// Opens the database file at `path` under its lock: shared when it is
    /// current; otherwise exclusive, to migrate it or delete it and create
    /// a new one (then `fresh` is true and the lock is still exclusive).
    static func openFile(at path: String, shortIDs: String) throws -> (db: SQLiteConnection, lock: IndexLock, fresh: Bool) {
        try PrivateFiles.createDirectory(PathString.deletingLastComponent(path))
        let lock = try IndexLock(path: path + ".lock")
        guard lock.acquire(.shared, timeout: sharedWait) else {
            throw IndexError.busy("another tick process has been building the index \(path) for over \(Int(sharedWait)) s")
        }
        do {
            if let db = try openExisting(path, shortIDs: shortIDs) {
                if isCurrent(db) { return (db, lock, false) }
                db.close()
            }
        } catch {
            // It is there but cannot be opened for writing (full disk, I/O
            // error, read-only): deleting it would not help, and would lose
            // its short ids. A damaged file is deleted below.
            if !isDamage(error) {
                lock.release()
                throw UnwritableIndex(path: path, warning: copyWarning(path, describe(error)))
            }
        }
        guard lock.acquire(.exclusive, timeout: exclusiveWait) else {
            lock.release()
            throw IndexError.busy("the index \(path) needs rebuilding, but another tick process (tick watch?) keeps it open")
        }
        // Nobody else has the file open now. Another process may have made it
        // current while this one waited.
        if let db = try? openExisting(path, shortIDs: shortIDs) {
            if isCurrent(db) {
                lock.acquire(.shared, timeout: sharedWait)
                return (db, lock, false)
            }
            // Outdated: drop and recreate the tables in place, or damaged: delete it.
            let migrated = (try? migrate(db)) != nil && isCurrent(db)
            if migrated { return (db, lock, true) }
            db.close()
        }
        removeFiles(at: path)
        let fd = Glibc.open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, PrivateFiles.fileMode)
        guard fd >= 0 else {
            let reason = String(cString: strerror(errno))
            lock.release()
            throw IndexError.cannotOpen(path: path, reason: reason)
        }
        fchmod(fd, PrivateFiles.fileMode)
        Glibc.close(fd)
        do {
            let db = try connect(path, shortIDs: shortIDs)
            try migrate(db)
            return (db, lock, true)
        } catch {
            lock.release()
            throw error
        }
    }

    /// Connects to an existing database file; nil when there is none.
    private static func openExisting(_ path: String, shortIDs: String) throws -> SQLiteConnection? {
        guard access(path, F_OK) == 0 else { return nil }
        for suffix in ["", "-wal", "-shm"] { PrivateFiles.tighten(path: path + suffix) }
        return try connect(path, shortIDs: shortIDs)
    }

    private static func isCurrent(_ db: SQLiteConnection) -> Bool {
        let names = IndexSchema.tableNames
        let found = try? db.read { () -> Bool in
            guard try db.int("PRAGMA user_version") == IndexSchema.version else { return false }
            return try db.int("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN (\(names.map { "'\($0)'" }.joined(separator: ", ")))") == names.count
        }
        return found == true
    }

    /// Opens a connection: WAL (readers never wait for the watcher), a busy
    /// timeout, and memory-mapped reads, with the short-id table attached as
    /// `ids` (``ShortIDStore``; in memory when `shortIDs` is nil).
    static func connect(_ path: String?, shortIDs: String? = nil) throws -> SQLiteConnection {
        let db = try SQLiteConnection(path: path, busyTimeout: 10)
        try db.execute("PRAGMA mmap_size = 0")
        try db.execute("PRAGMA cache_size = -2048")
        try db.execute("PRAGMA temp_store = MEMORY")
        try ShortIDStore.attach(db, path: shortIDs)
        guard path != nil else { return db }
        db.persistWAL()
        try db.execute("PRAGMA main.journal_mode = WAL")
        try db.execute("PRAGMA main.synchronous = NORMAL")
        return db
    }

    /// Creates the tables, or drops everything when the schema version differs.
    func migrate() throws {
        try Self.migrate(db)
    }

    /// Creates the tables of `db`, or drops everything when the schema
    /// version differs (the index's only "migration": a rebuild).
    static func migrate(_ db: SQLiteConnection) throws {
        let version = try db.int("PRAGMA user_version") ?? 0
        if version == IndexSchema.version { return }
        if version != 0 {
            var objects: [(type: String, name: String)] = []
            try db.forEachRow("SELECT type, name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'fts_%'") {
                objects.append(($0.text(0), $0.text(1)))
            }
            for object in objects {
                try db.execute("DROP \(object.type) IF EXISTS \(quotedIdentifier(object.name))")
            }
        }
        try db.transaction(.immediate) {
            for sql in IndexSchema.statements { try db.execute(sql) }
            try db.execute("PRAGMA user_version = \(IndexSchema.version)")
        }
    }

    /// `name` as an SQL identifier: in double quotes, inner quotes doubled.
    static func quotedIdentifier(_ name: String) -> String {
        "\"" + name.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
    }
}