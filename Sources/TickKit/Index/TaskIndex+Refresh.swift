import Dispatch
import FoundationEssentials
import Glibc

/// Keeping the index in step with the files: refresh, reindexing one file, rebuild.
extension TaskIndex {
    // MARK: Freshness

    /// What a refresh did to one file.
    public struct FileReport: Sendable {
        public var kind: FileKind
        public var taskCount: Int
        public var milliseconds: Double
        /// Set when the file failed to parse; its last good tasks stay, marked stale.
        public var error: FormatError?
        /// True when the file is gone from the store.
        public var removed: Bool
    }

    /// The result of a refresh.
    public struct RefreshReport: Sendable {
        public var files: [FileReport] = []
        /// Files whose stamp matched: nothing to do.
        public var unchanged = 0
        public var changed: Bool { !files.isEmpty }
    }

    struct Known {
        var size: Int64
        var mtime: Int64
        var inode: Int64
        var hash: String
        var racy: Bool
        var hasError: Bool
    }

    /// Brings the index up to date with the files: stat everything, reparse
    /// only what is new, changed or gone. With `only`, looks at that one file.
    @discardableResult
    public func refresh(only: FileKind? = nil, progress: ((Int, Int) -> Void)? = nil) throws -> RefreshReport {
        let kinds: [FileKind]
        if let only {
            kinds = FileStamp.of(path: store.location.path(of: only)) == nil ? [] : [only]
        } else {
            kinds = try store.kinds()
        }
        // A quick look without the write lock: most of the time nothing changed.
        let (known, idsInStep) = try db.read { (try self.knownFiles(db), try self.shortIDsInStep(db)) }
        let present = Set(kinds.map(\.relativePath))
        var todo: [(FileKind, FileStamp?)] = []
        var unchanged = 0
        for kind in kinds {
            let stamp = FileStamp.of(path: store.location.path(of: kind))
            // `chmod 000` changes no stamp: a file this user can no longer read is reread (and reported).
            if let stamp, let k = known[kind.relativePath], !k.racy, k.size == stamp.size,
               k.mtime == stamp.mtimeNanoseconds, k.inode == Int64(bitPattern: stamp.inode),
               Self.mayRead(store.location.path(of: kind)) {
                unchanged += 1
                continue
            }
            todo.append((kind, stamp))
        }
        // A new index: build it in bulk, which is several times faster, when
        // no other process has it open (the file is replaced).
        if only == nil, known.isEmpty, todo.count > 1, let path,
           let report = try exclusively(timeout: 0, { try replaceFile(at: path, progress: progress) }) {
            return report
        }
        let gone: [String]
        if let only {
            gone = present.contains(only.relativePath) || known[only.relativePath] == nil ? [] : [only.relativePath]
        } else {
            gone = known.keys.filter { !present.contains($0) }
        }
        if todo.isEmpty && gone.isEmpty {
            if !idsInStep {
                // The short-id table changed through another index (or one
                // database of a command's change was not committed): copy it.
                try db.transaction(.immediate) {
                    if try !self.shortIDsInStep(db) { try self.adoptShortIDs(db) }
                }
            }
            return RefreshReport(unchanged: unchanged)
        }

        var report = RefreshReport(unchanged: unchanged)
        cachedListRows = nil
        defer { cachedListRows = nil }
        try db.transaction(.immediate) {
            var touched: Set<String>? = Set<String>()
            let current = try self.knownFiles(db)
            for path in gone {
                if touched != nil { touched?.formUnion(try db.texts("SELECT id FROM tasks WHERE path = ?", [path])) }
                try db.execute("DELETE FROM tasks WHERE path = ?", [path])
                try db.execute("DELETE FROM files WHERE path = ?", [path])
                if let kind = Self.kind(forRelativePath: path) {
                    report.files.append(FileReport(kind: kind, taskCount: 0, milliseconds: 0, error: nil, removed: true))
                }
            }
            for (i, (kind, _)) in todo.enumerated() {
                progress?(i, todo.count)
                if let r = try self.reindex(kind, previous: current[kind.relativePath], db: db, touched: &touched) {
                    report.files.append(r)
                } else {
                    report.unchanged += 1
                }
            }
            progress?(todo.count, todo.count)
            if let touched, !touched.isEmpty {
                try self.syncShortIDs(touched: touched, db: db)
            } else if try !self.shortIDsInStep(db) {
                try self.adoptShortIDs(db)
            }
        }
        return report
    }

    /// True when this process may open `path` for reading (`access(2)` with
    /// the effective ids). Root always may.
    static func mayRead(_ path: String) -> Bool {
        faccessat(AT_FDCWD, path, R_OK, AT_EACCESS) == 0
    }

    /// Files the next refresh would reparse (new or changed) or drop (gone),
    /// found by stat alone; nothing is written. Empty when the index is fresh.
    public func staleFiles() throws -> [String] {
        let known = try db.read { try self.knownFiles(db) }
        let kinds = try store.kinds()
        var stale: [String] = []
        for kind in kinds {
            let stamp = FileStamp.of(path: store.location.path(of: kind))
            if let stamp, let k = known[kind.relativePath], k.size == stamp.size,
               k.mtime == stamp.mtimeNanoseconds, k.inode == Int64(bitPattern: stamp.inode) { continue }
            stale.append(kind.relativePath)
        }
        let present = Set(kinds.map(\.relativePath))
        stale += known.keys.filter { !present.contains($0) }.sorted()
        return stale
    }

    /// Makes the next refresh reparse a file even if its stamp did not change.
    public func forgetStamp(of kind: FileKind) throws {
        try db.write {
            try db.execute("UPDATE files SET size = -1, hash = '' WHERE path = ?", [kind.relativePath])
        }
    }

    /// The content hash recorded for a file.
    public func contentHash(of kind: FileKind) throws -> String? {
        try db.read { try db.text("SELECT hash FROM files WHERE path = ?", [kind.relativePath]) }
    }

    /// Indexes the store from scratch (`tick reindex`), unless opening this
    /// index has just done so because it had no usable file: then that
    /// build's report, so a cold reindex builds once. Every later call
    /// rebuilds.
    public func reindexFromScratch(progress: ((Int, Int) -> Void)? = nil) throws -> RefreshReport {
        if let report = builtAtOpen {
            builtAtOpen = nil
            return report
        }
        return try rebuild(progress: progress)
    }

    /// Deletes everything and indexes the store from scratch.
    ///
    /// On disk, the new index is built in a separate file without a journal,
    /// its indexes and full-text table are created after the rows are in, and
    /// it then replaces the old file in one rename, once no other process
    /// has the file open (waiting a few seconds for them); otherwise it is
    /// rebuilt in place, in one transaction.
    @discardableResult
    public func rebuild(progress: ((Int, Int) -> Void)? = nil) throws -> RefreshReport {
        guard let path,
              let report = try exclusively(timeout: Self.exclusiveWait, { try replaceFile(at: path, progress: progress) })
        else { return try rebuildInPlace(progress: progress) }
        return report
    }

    /// Runs `body` with the index lock held exclusively (waiting up to
    /// `timeout` seconds), then shares it again. Nil, without running
    /// `body`, when other processes keep the index open.
    func exclusively<T>(timeout: Double, _ body: () throws -> T) rethrows -> T? {
        guard let lock, lock.mode != .exclusive else { return try body() }
        guard lock.acquire(.exclusive, timeout: timeout) else {
            lock.acquire(.shared, timeout: Self.sharedWait)
            return nil
        }
        defer { lock.acquire(.shared, timeout: Self.sharedWait) }
        return try body()
    }

    /// Builds a new database next to `path` and renames it over `path`.
    /// Only under the exclusive lock: nobody else has the file open.
    private func replaceFile(at path: String, progress: ((Int, Int) -> Void)?) throws -> RefreshReport {
        builds += 1
        cachedListRows = nil
        defer { cachedListRows = nil }
        let tmp = path + ".rebuild-\(getpid())"
        Self.removeFiles(at: tmp)
        var report = RefreshReport()
        do {
            // Created 0600 before SQLite opens it (its WAL files take its mode).
            let fd = Glibc.open(tmp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, PrivateFiles.fileMode)
            guard fd >= 0 else { throw IndexError.cannotOpen(path: tmp, reason: String(cString: strerror(errno))) }
            fchmod(fd, PrivateFiles.fileMode)
            Glibc.close(fd)
            let builder = try SQLiteConnection(path: tmp)
            try ShortIDStore.attach(builder, path: ShortIDStore.path(for: store))
            do {
                let db = builder
                for pragma in ["main.journal_mode = OFF", "main.synchronous = OFF", "cache_size = -65536", "temp_store = MEMORY"] {
                    try db.execute("PRAGMA \(pragma)")
                }
                for sql in IndexSchema.tables { try db.execute(sql) }
                try db.transaction(.immediate) {
                    var touched: Set<String>? = nil
                    let kinds = try store.kinds()
                    for (i, kind) in kinds.enumerated() {
                        progress?(i, kinds.count)
                        if let r = try reindex(kind, previous: nil, db: db, touched: &touched) { report.files.append(r) }
                    }
                    progress?(kinds.count, kinds.count)
                    try db.execute("INSERT INTO fts(fts) VALUES ('rebuild')")
                    for sql in IndexSchema.indexes { try db.execute(sql) }
                    try adoptShortIDs(db)
                    try db.execute("PRAGMA user_version = \(IndexSchema.version)")
                }
                // WAL from the start: whoever opens it next only reads the mode.
                try db.execute("PRAGMA main.journal_mode = WAL")
            }
            builder.close()
        } catch {
            Self.removeFiles(at: tmp)
            throw error
        }
        db.close()
        for suffix in ["-wal", "-shm"] { unlink(path + suffix) }
        guard rename(tmp, path) == 0 else {
            let reason = String(cString: strerror(errno))
            Self.removeFiles(at: tmp)
            db = try Self.connect(path, shortIDs: ShortIDStore.path(for: store))
            throw IndexError.database("cannot replace \(path): \(reason)")
        }
        db = try Self.connect(path, shortIDs: ShortIDStore.path(for: store))
        return report
    }

    func rebuildInPlace(progress: ((Int, Int) -> Void)?) throws -> RefreshReport {
        builds += 1
        try db.transaction(.immediate) {
            try db.execute("DELETE FROM tasks")
            try db.execute("DELETE FROM files")
            try db.execute("INSERT INTO fts(fts) VALUES ('delete-all')")
        }
        return try refresh(progress: progress)
    }

    func knownFiles(_ db: SQLiteConnection) throws -> [String: Known] {
        var out: [String: Known] = [:]
        try db.forEachRow("SELECT path, size, mtime_ns, inode, hash, racy, error_message IS NOT NULL FROM files") { row in
            out[row.text(0)] = Known(size: row.int64(1), mtime: row.int64(2), inode: row.int64(3), hash: row.text(4),
                                     racy: row.int64(5) != 0, hasError: row.int64(6) != 0)
        }
        return out
    }

    /// Reindexes one file inside a transaction. Nil when only its stamp changed.
    func reindex(_ kind: FileKind, previous: Known?, db: SQLiteConnection, touched: inout Set<String>?) throws -> FileReport? {
        let started = DispatchTime.now().uptimeNanoseconds
        let path = kind.relativePath
        let read: (bytes: [UInt8], stamp: FileStamp)?
        var unreadable: FormatError?
        do {
            read = try AtomicFile.read(path: store.location.path(of: kind))
        } catch {
            // A FIFO, a device, a file over the size limit, no permission: a broken
            // file (its error is shown), never read and never blocking.
            read = FileStamp.of(path: store.location.path(of: kind)).map { ([], $0) }
            if case let .readFailed(_, reason) = error {
                unreadable = FormatError.unreadable(path: store.displayPath(kind), reason: reason)
            }
        }
        guard let (bytes, stamp) = read else {
            // Vanished between the stat and the read: treat as gone.
            if touched != nil { touched?.formUnion(try db.texts("SELECT id FROM tasks WHERE path = ?", [path])) }
            try db.execute("DELETE FROM tasks WHERE path = ?", [path])
            try db.execute("DELETE FROM files WHERE path = ?", [path])
            return FileReport(kind: kind, taskCount: 0, milliseconds: 0, error: nil, removed: true)
        }
        let hash = FNV1a.hex64(bytes)
        // An unreadable file is marked racy, so every refresh tries it again:
        // `chmod u+r` brings it back without changing its stamp.
        let racy = unreadable != nil || Int64(now().timeIntervalSince1970 * 1e9) - stamp.mtimeNanoseconds < Self.racyWindow
        let stampValues: SQLArguments = [stamp.size, stamp.mtimeNanoseconds, Int64(bitPattern: stamp.inode), hash, racy]
        if unreadable == nil, let previous, previous.hash == hash, !previous.hasError {
            try db.execute("UPDATE files SET size = ?, mtime_ns = ?, inode = ?, hash = ?, racy = ? WHERE path = ?",
                           stampValues + [path])
            return nil
        }
        let decoder = TaskFileDecoder(bytes: bytes, path: store.displayPath(kind), kind: kind, fallbackDate: stamp.modificationDate)
        let file: TaskFile
        do throws(FormatError) {
            if let unreadable { throw unreadable }
            file = try decoder.decode()
        } catch {
            // Keep the last good tasks; remember the error and the stamp so the
            // file is not reparsed until it changes again.
            let loc = error.location
            let errValues: SQLArguments = [error.message, loc?.line, loc?.column, loc?.lineText]
            if previous == nil {
                try db.execute("""
                    INSERT INTO files (path, slug, list_id, name, color, size, mtime_ns, inode, hash, racy,
                                       error_message, error_line, error_column, error_text)
                    VALUES (?, ?, NULL, NULL, NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, ([path, kind.slug] as SQLArguments) + stampValues + errValues)
            } else {
                try db.execute("""
                    UPDATE files SET size = ?, mtime_ns = ?, inode = ?, hash = ?, racy = ?,
                        error_message = ?, error_line = ?, error_column = ?, error_text = ? WHERE path = ?
                    """, stampValues + errValues + [path])
            }
            let count = try db.int("SELECT count(*) FROM tasks WHERE path = ?", [path]) ?? 0
            return FileReport(kind: kind, taskCount: count, milliseconds: Self.ms(since: started), error: error, removed: false)
        }
        try db.execute("DELETE FROM files WHERE path = ?", [path])
        try db.execute("""
            INSERT INTO files (path, slug, list_id, name, color, size, mtime_ns, inode, hash, racy)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, ([path, kind.slug, file.id.lowercased, file.name, file.color] as SQLArguments) + stampValues)
        try writeTasks(file, path: path, db: db, touched: &touched)
        return FileReport(kind: kind, taskCount: file.tasks.count, milliseconds: Self.ms(since: started), error: nil, removed: false)
    }

    /// Brings a file's rows in line with its tasks, touching only what
    /// changed: completing one task in a 500-task list rewrites one row, not
    /// 500 (and their index and full-text entries).
    func writeTasks(_ file: TaskFile, path: String, db: SQLiteConnection, touched: inout Set<String>?) throws {
        var existing: [String: (rowid: Int64, position: Int, hash: Int64)] = [:]
        if touched != nil {
            try db.forEachRow("SELECT rowid, id, position, chash FROM tasks WHERE path = ?", [path]) { row in
                existing[row.text(1)] = (row.int64(0), row.int(2), row.int64(3))
            }
        }
        let writer = try RowWriter(db)
        let delete = try db.cached("DELETE FROM tasks WHERE rowid = ?")
        let move = try db.cached("UPDATE tasks SET position = ? WHERE rowid = ?")
        for (position, task) in file.tasks.enumerated() {
            let id = task.id.lowercased
            // Derived values of hand-made tasks depend on the file's mtime: always rewrite them.
            var hash = task.needsFill ? Int64.random(in: .min ... .max) : nil
            if let old = existing.removeValue(forKey: id) {
                let new = hash ?? RowWriter.contentHash(task, id: id)
                if old.hash == new {
                    if old.position != position { try move.execute([position, old.rowid]) }
                    continue
                }
                try delete.execute([old.rowid])
                hash = new
            }
            // A new row (every row of a rebuild) is hashed while it is bound.
            try writer.write(task, id: id, hash: hash, path: path, position: position, db: db)
            touched?.insert(id)
        }
        for (id, old) in existing {
            try delete.execute([old.rowid])
            touched?.insert(id)
        }
    }

    static func ms(since start: UInt64) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
    }

    /// The file kind of a store-relative path, or nil when tick ignores it.
    public static func kind(forRelativePath path: String) -> FileKind? {
        if path == "inbox.json" { return .inbox }
        guard path.hasPrefix("lists/") else { return nil }
        let name = String(path.dropFirst(6))
        guard !name.utf8.contains(0x2F), let slug = Store.slug(ofListFileNamed: name) else { return nil }
        return .list(slug: slug)
    }
}
