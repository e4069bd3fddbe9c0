import Foundation
import GRDB

/// A disposable SQLite cache of the store, kept outside it
/// (`$XDG_CACHE_HOME/tick/<store-key>/index.sqlite`).
///
/// Every read first calls ``refresh()``: it stats the store's files and
/// reparses only those that are new, changed or gone, so answers are always
/// those of the files, with or without a watcher. A file that fails to parse
/// keeps its last good tasks, marked stale. The index is never a source of
/// truth: a damaged or outdated index is deleted and rebuilt.
public final class TaskIndex {
    public let store: Store
    /// The database file, or nil for an in-memory index.
    public let path: String?
    private(set) var db: DatabaseQueue
    let now: () -> Date

    /// How recent an mtime must be to be distrusted: a file rewritten within
    /// the same timestamp tick could otherwise keep an identical stamp.
    static let racyWindow: Int64 = 2_000_000_000

    /// Opens the store's index, rebuilding it when it is missing, outdated or
    /// damaged, and falling back to an in-memory index when the cache
    /// directory cannot be used. Throws only if SQLite cannot work at all.
    public static func open(store: Store, now: @escaping () -> Date = Date.init) throws -> TaskIndex {
        for path in candidatePaths(for: store) {
            if let index = try? TaskIndex(store: store, path: path, now: now), index.isHealthy { return index }
            // Damaged or outdated beyond repair: delete and start again.
            removeFiles(at: path)
            if let index = try? TaskIndex(store: store, path: path, now: now), index.isHealthy { return index }
        }
        // No usable directory at all: work in memory (slower, still correct,
        // but short ids are then numbered afresh by every command).
        return try TaskIndex(store: store, path: nil, now: now)
    }

    /// `<cache>/index.sqlite`.
    public static func defaultPath(for store: Store) -> String {
        (store.location.cacheDirectory as NSString).appendingPathComponent("index.sqlite")
    }

    /// Where the index may live, best first: the cache directory, then the
    /// state directory (when the cache is unusable), then a per-user temp dir.
    static func candidatePaths(for store: Store) -> [String] {
        let key = (store.location.cacheDirectory as NSString).lastPathComponent
        return [
            defaultPath(for: store),
            (store.location.stateDirectory as NSString).appendingPathComponent("index.sqlite"),
            "/tmp/tick-\(getuid())/\(key)/index.sqlite",
        ]
    }

    /// Recovers from a damaged index found in use: deletes it and opens a fresh one.
    public static func reopenAfterFailure(_ index: TaskIndex) throws -> TaskIndex {
        if let path = index.path {
            try? index.db.close()
            removeFiles(at: path)
        }
        return try open(store: index.store, now: index.now)
    }

    /// Deletes an index database and its WAL files.
    public static func removeFiles(at path: String) {
        for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
    }

    /// A cheap check that the database answers and has every table.
    private var isHealthy: Bool {
        let names = IndexSchema.tableNames
        let found = try? db.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN (\(names.map { "'\($0)'" }.joined(separator: ", ")))")
        }
        return found == names.count
    }

    /// Opens (or creates) the index at `path`, or in memory when nil.
    public init(store: Store, path: String?, now: @escaping () -> Date = Date.init) throws {
        self.store = store
        self.path = path
        self.now = now
        do {
            if let path {
                try AtomicFile.createDirectory((path as NSString).deletingLastPathComponent)
            }
            db = try Self.connect(path)
            try migrate()
        } catch let error as StoreError {
            throw IndexError.cannotOpen(path: path ?? ":memory:", reason: error.localizedDescription)
        } catch {
            throw IndexError.cannotOpen(path: path ?? ":memory:", reason: "\(error)")
        }
    }

    /// Opens a connection: WAL (readers never wait for the watcher), a busy
    /// timeout, and memory-mapped reads.
    private static func connect(_ path: String?) throws -> DatabaseQueue {
        var config = Configuration()
        config.busyMode = .timeout(10)
        config.label = "tick-index"
        config.prepareDatabase { db in
            try db.execute(sql: "PRAGMA mmap_size = 33554432")
            try db.execute(sql: "PRAGMA cache_size = -16000")
            try db.execute(sql: "PRAGMA temp_store = MEMORY")
        }
        guard let path else { return try DatabaseQueue(configuration: config) }
        let queue = try DatabaseQueue(path: path, configuration: config)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        return queue
    }

    /// Creates the tables, or drops everything when the schema version differs.
    private func migrate() throws {
        try db.writeWithoutTransaction { db in
            let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
            if version == IndexSchema.version { return }
            if version != 0 {
                let objects = try Row.fetchAll(db, sql: "SELECT type, name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'fts_%'")
                for row in objects {
                    let type: String = row[0]
                    let name: String = row[1]
                    try db.execute(sql: "DROP \(type) IF EXISTS \(name.quotedDatabaseIdentifier)")
                }
            }
            try db.inTransaction(.immediate) {
                for sql in IndexSchema.statements { try db.execute(sql: sql) }
                try db.execute(sql: "PRAGMA user_version = \(IndexSchema.version)")
                return .commit
            }
        }
    }

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

    private struct Known {
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
        let known = try db.read { db in try self.knownFiles(db) }
        let present = Set(kinds.map(\.relativePath))
        var todo: [(FileKind, FileStamp?)] = []
        var unchanged = 0
        for kind in kinds {
            let stamp = FileStamp.of(path: store.location.path(of: kind))
            if let stamp, let k = known[kind.relativePath], !k.racy, k.size == stamp.size,
               k.mtime == stamp.mtimeNanoseconds, k.inode == Int64(bitPattern: stamp.inode) {
                unchanged += 1
                continue
            }
            todo.append((kind, stamp))
        }
        // A new index: build it in bulk, which is several times faster.
        if only == nil, known.isEmpty, todo.count > 1, path != nil {
            return try rebuild(progress: progress)
        }
        let gone: [String]
        if let only {
            gone = present.contains(only.relativePath) || known[only.relativePath] == nil ? [] : [only.relativePath]
        } else {
            gone = known.keys.filter { !present.contains($0) }
        }
        if todo.isEmpty && gone.isEmpty { return RefreshReport(unchanged: unchanged) }

        var report = RefreshReport(unchanged: unchanged)
        cachedListRows = nil
        defer { cachedListRows = nil }
        try db.inTransaction(.immediate) { db in
            var touched: Set<String>? = Set<String>()
            let current = try self.knownFiles(db)
            for path in gone {
                if touched != nil { touched?.formUnion(try String.fetchAll(db, sql: "SELECT id FROM tasks WHERE path = ?", arguments: [path])) }
                try db.execute(sql: "DELETE FROM tasks WHERE path = ?", arguments: [path])
                try db.execute(sql: "DELETE FROM files WHERE path = ?", arguments: [path])
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
            if let touched, !touched.isEmpty { try self.syncShortIDs(touched: touched, db: db) }
            return .commit
        }
        return report
    }

    /// Files the next refresh would reparse (new or changed) or drop (gone),
    /// found by stat alone; nothing is written. Empty when the index is fresh.
    public func staleFiles() throws -> [String] {
        let known = try db.read { db in try self.knownFiles(db) }
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
        try db.write { db in
            try db.execute(sql: "UPDATE files SET size = -1, hash = '' WHERE path = ?", arguments: [kind.relativePath])
        }
    }

    /// The content hash recorded for a file.
    public func contentHash(of kind: FileKind) throws -> String? {
        try db.read { db in try String.fetchOne(db, sql: "SELECT hash FROM files WHERE path = ?", arguments: [kind.relativePath]) }
    }

    /// Deletes everything and indexes the store from scratch.
    ///
    /// On disk, the new index is built in a separate file without a journal,
    /// its indexes and full-text table are created after the rows are in, and
    /// it then replaces the old file in one rename.
    @discardableResult
    public func rebuild(progress: ((Int, Int) -> Void)? = nil) throws -> RefreshReport {
        cachedListRows = nil
        defer { cachedListRows = nil }
        guard let path else { return try rebuildInPlace(progress: progress) }
        let tmp = path + ".rebuild-\(getpid())"
        Self.removeFiles(at: tmp)
        var report = RefreshReport()
        do {
            let builder = try DatabaseQueue(path: tmp)
            try builder.writeWithoutTransaction { db in
                for pragma in ["journal_mode = OFF", "synchronous = OFF", "cache_size = -65536", "temp_store = MEMORY"] {
                    try db.execute(sql: "PRAGMA \(pragma)")
                }
                for sql in IndexSchema.tables { try db.execute(sql: sql) }
                try db.inTransaction {
                    var touched: Set<String>? = nil
                    let kinds = try store.kinds()
                    for (i, kind) in kinds.enumerated() {
                        progress?(i, kinds.count)
                        if let r = try reindex(kind, previous: nil, db: db, touched: &touched) { report.files.append(r) }
                    }
                    progress?(kinds.count, kinds.count)
                    try db.execute(sql: "INSERT INTO fts(fts) VALUES ('rebuild')")
                    for sql in IndexSchema.indexes { try db.execute(sql: sql) }
                    try assignAllShortIDs(db)
                    try db.execute(sql: "PRAGMA user_version = \(IndexSchema.version)")
                    return .commit
                }
            }
            try builder.close()
        } catch {
            Self.removeFiles(at: tmp)
            throw error
        }
        try db.close()
        for suffix in ["-wal", "-shm"] { unlink(path + suffix) }
        guard rename(tmp, path) == 0 else {
            let reason = String(cString: strerror(errno))
            Self.removeFiles(at: tmp)
            db = try Self.connect(path)
            throw IndexError.database("cannot replace \(path): \(reason)")
        }
        db = try Self.connect(path)
        return report
    }

    /// Numbers every pending task 1...n in display order (a fresh index).
    private func assignAllShortIDs(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM short_ids")
        try db.execute(sql: "CREATE TEMP TABLE file_rank (path TEXT PRIMARY KEY, rank INTEGER)")
        defer { try? db.execute(sql: "DROP TABLE temp.file_rank") }
        for (rank, info) in try listRows(db).enumerated() {
            try db.execute(sql: "INSERT INTO file_rank VALUES (?, ?)", arguments: [info.kind.relativePath, rank])
        }
        try db.execute(sql: """
            INSERT OR IGNORE INTO short_ids (id, n)
            SELECT t.id, row_number() OVER (ORDER BY r.rank, t.position)
            FROM tasks t JOIN file_rank r ON r.path = t.path
            WHERE t.state != 'done'
            """)
        try db.execute(sql: "UPDATE tasks SET short = (SELECT n FROM short_ids s WHERE s.id = tasks.id) WHERE state != 'done'")
    }

    private func rebuildInPlace(progress: ((Int, Int) -> Void)?) throws -> RefreshReport {
        try db.inTransaction(.immediate) { db in
            try db.execute(sql: "DELETE FROM tasks")
            try db.execute(sql: "DELETE FROM files")
            try db.execute(sql: "DELETE FROM short_ids")
            try db.execute(sql: "INSERT INTO fts(fts) VALUES ('delete-all')")
            return .commit
        }
        return try refresh(progress: progress)
    }

    private func knownFiles(_ db: Database) throws -> [String: Known] {
        var out: [String: Known] = [:]
        let rows = try Row.fetchCursor(db, sql: "SELECT path, size, mtime_ns, inode, hash, racy, error_message IS NOT NULL FROM files")
        while let row = try rows.next() {
            out[row[0]] = Known(size: row[1], mtime: row[2], inode: row[3], hash: row[4], racy: row[5], hasError: row[6])
        }
        return out
    }

    /// Reindexes one file inside a transaction. Nil when only its stamp changed.
    private func reindex(_ kind: FileKind, previous: Known?, db: Database, touched: inout Set<String>?) throws -> FileReport? {
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
                unreadable = FormatError(path: store.displayPath(kind), location: nil, message: "cannot read it: \(reason)")
            }
        }
        guard let (bytes, stamp) = read else {
            // Vanished between the stat and the read: treat as gone.
            if touched != nil { touched?.formUnion(try String.fetchAll(db, sql: "SELECT id FROM tasks WHERE path = ?", arguments: [path])) }
            try db.execute(sql: "DELETE FROM tasks WHERE path = ?", arguments: [path])
            try db.execute(sql: "DELETE FROM files WHERE path = ?", arguments: [path])
            return FileReport(kind: kind, taskCount: 0, milliseconds: 0, error: nil, removed: true)
        }
        let hash = FNV1a.hex64(bytes)
        let racy = Int64(now().timeIntervalSince1970 * 1e9) - stamp.mtimeNanoseconds < Self.racyWindow
        let stampValues: [(any DatabaseValueConvertible)?] = [stamp.size, stamp.mtimeNanoseconds, Int64(bitPattern: stamp.inode), hash, racy]
        if unreadable == nil, let previous, previous.hash == hash, !previous.hasError {
            try db.execute(sql: "UPDATE files SET size = ?, mtime_ns = ?, inode = ?, hash = ?, racy = ? WHERE path = ?",
                           arguments: StatementArguments(stampValues + [path]))
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
            let errValues: [(any DatabaseValueConvertible)?] = [error.message, loc?.line, loc?.column, loc?.lineText]
            if previous == nil {
                try db.execute(sql: """
                    INSERT INTO files (path, slug, list_id, name, color, size, mtime_ns, inode, hash, racy,
                                       error_message, error_line, error_column, error_text)
                    VALUES (?, ?, NULL, NULL, NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, arguments: StatementArguments([path, kind.slug] + stampValues + errValues))
            } else {
                try db.execute(sql: """
                    UPDATE files SET size = ?, mtime_ns = ?, inode = ?, hash = ?, racy = ?,
                        error_message = ?, error_line = ?, error_column = ?, error_text = ? WHERE path = ?
                    """, arguments: StatementArguments(stampValues + errValues + [path]))
            }
            let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM tasks WHERE path = ?", arguments: [path]) ?? 0
            return FileReport(kind: kind, taskCount: count, milliseconds: Self.ms(since: started), error: error, removed: false)
        }
        try db.execute(sql: "DELETE FROM files WHERE path = ?", arguments: [path])
        try db.execute(sql: """
            INSERT INTO files (path, slug, list_id, name, color, size, mtime_ns, inode, hash, racy)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: StatementArguments([path, kind.slug, file.id.lowercased, file.name, file.color] + stampValues))
        try writeTasks(file, path: path, db: db, touched: &touched)
        return FileReport(kind: kind, taskCount: file.tasks.count, milliseconds: Self.ms(since: started), error: nil, removed: false)
    }

    /// Brings a file's rows in line with its tasks, touching only what
    /// changed: completing one task in a 500-task list rewrites one row, not
    /// 500 (and their index and full-text entries).
    private func writeTasks(_ file: TaskFile, path: String, db: Database, touched: inout Set<String>?) throws {
        var existing: [String: (rowid: Int64, position: Int, hash: Int64)] = [:]
        if touched != nil {
            let rows = try Row.fetchCursor(db, sql: "SELECT rowid, id, position, chash FROM tasks WHERE path = ?", arguments: [path])
            while let row = try rows.next() { existing[row[1]] = (row[0], row[2], row[3]) }
        }
        let writer = try RowWriter(db)
        let delete = try db.cachedStatement(sql: "DELETE FROM tasks WHERE rowid = ?")
        let move = try db.cachedStatement(sql: "UPDATE tasks SET position = ? WHERE rowid = ?")
        for (position, task) in file.tasks.enumerated() {
            let id = task.id.lowercased
            // Derived values of hand-made tasks depend on the file's mtime: always rewrite them.
            let hash = task.needsFill ? Int64.random(in: .min ... .max) : RowWriter.contentHash(task)
            if let old = existing.removeValue(forKey: id) {
                if old.hash == hash {
                    if old.position != position { try move.execute(arguments: [position, old.rowid]) }
                    continue
                }
                try delete.execute(arguments: [old.rowid])
            }
            try writer.write(task, hash: hash, path: path, position: position, db: db)
            touched?.insert(id)
        }
        for (id, old) in existing {
            try delete.execute(arguments: [old.rowid])
            touched?.insert(id)
        }
    }

    private static func ms(since start: UInt64) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
    }

    /// The file kind of a store-relative path, or nil when tick ignores it.
    public static func kind(forRelativePath path: String) -> FileKind? {
        if path == "inbox.json" { return .inbox }
        guard path.hasPrefix("lists/") else { return nil }
        let name = String(path.dropFirst(6))
        guard !name.contains("/"), let slug = Store.slug(ofListFileNamed: name) else { return nil }
        return .list(slug: slug)
    }

    // MARK: Short ids

    /// Frees the short ids of touched tasks that are no longer pending and
    /// gives touched pending tasks without one the smallest free numbers, in
    /// display order.
    private func syncShortIDs(touched: Set<String>, db: Database) throws {
        var pending: [String: (rank: Int, position: Int)] = [:]
        let ranks = try fileRanks(db)
        let check = try db.cachedStatement(sql: "SELECT path, position FROM tasks WHERE id = ? AND state != 'done' LIMIT 1")
        let mirror = try db.cachedStatement(sql: "UPDATE tasks SET short = (SELECT n FROM short_ids WHERE id = ?1) WHERE id = ?1")
        defer {
            // Keep the copy in `tasks` in step for every touched task.
            for id in touched { try? mirror.execute(arguments: [id]) }
        }
        let delete = try db.cachedStatement(sql: "DELETE FROM short_ids WHERE id = ?")
        let has = try db.cachedStatement(sql: "SELECT 1 FROM short_ids WHERE id = ?")
        for id in touched {
            if let row = try Row.fetchOne(check, arguments: [id]) {
                if try Int.fetchOne(has, arguments: [id]) == nil {
                    let path: String = row[0]
                    pending[id] = (ranks[path] ?? Int.max, row[1])
                }
            } else {
                try delete.execute(arguments: [id])
            }
        }
        guard !pending.isEmpty else { return }
        let used = try Int.fetchAll(db, sql: "SELECT n FROM short_ids ORDER BY n")
        var usedIterator = used.makeIterator()
        var nextUsed = usedIterator.next()
        var candidate = 1
        let insert = try db.cachedStatement(sql: "INSERT INTO short_ids (id, n) VALUES (?, ?)")
        for (id, _) in pending.sorted(by: { ($0.value.rank, $0.value.position, $0.key) < ($1.value.rank, $1.value.position, $1.key) }) {
            while let u = nextUsed, u <= candidate {
                if u == candidate { candidate += 1 }
                nextUsed = usedIterator.next()
            }
            try insert.execute(arguments: [id, candidate])
            candidate += 1
        }
    }

    // MARK: Lists

    /// Display rank of each file: the inbox first, then lists by name.
    func fileRanks(_ db: Database) throws -> [String: Int] {
        let infos = try listRows(db)
        var ranks: [String: Int] = [:]
        for (i, info) in infos.enumerated() { ranks[info.kind.relativePath] = i }
        return ranks
    }

    /// The lists in display order, cached until the next change to `files`.
    private var cachedListRows: [ListInfo]?

    private func listRows(_ db: Database) throws -> [ListInfo] {
        if let cachedListRows { return cachedListRows }
        let sorted = try readListRows(db)
        cachedListRows = sorted
        return sorted
    }

    private func readListRows(_ db: Database) throws -> [ListInfo] {
        var infos: [ListInfo] = []
        let rows = try Row.fetchAll(db, sql: "SELECT path, list_id, name, color FROM files")
        for row in rows {
            guard let kind = Self.kind(forRelativePath: row[0]) else { continue }
            let id = (row[1] as String?).flatMap(UUID.init(uuidString:)) ?? UUID(name: "tick-list:\(kind.slug ?? "inbox")")
            let name: String = row[2] ?? (kind == .inbox ? "Inbox" : (kind.slug ?? "list"))
            infos.append(ListInfo(kind: kind, id: id, name: name, color: row[3]))
        }
        return ListInfo.displayOrder(infos)
    }

    /// Every list and the inbox (when it exists), in display order. A file
    /// that never parsed is not among them (see ``problems``).
    public func lists() throws -> [ListInfo] {
        var infos = try db.read { db in try listRows(db) }
        // Like the files, the index treats a missing inbox.json as an empty inbox.
        if infos.first?.kind != .inbox {
            infos.insert(ListInfo(kind: .inbox, id: UUID(name: "tick-list:inbox"), name: "Inbox", color: nil), at: 0)
        }
        return infos
    }

    /// Files that fail to parse right now, with their errors.
    public func currentProblems() throws -> [FileKind: FormatError] {
        try db.read { db in
            var out: [FileKind: FormatError] = [:]
            let rows = try Row.fetchAll(db, sql: "SELECT path, error_message, error_line, error_column, error_text FROM files WHERE error_message IS NOT NULL")
            for row in rows {
                guard let kind = Self.kind(forRelativePath: row[0]) else { continue }
                var location: SourceLocation?
                if let line: Int = row[2], let column: Int = row[3] {
                    location = SourceLocation(line: line, column: column, lineText: row[4] ?? "")
                }
                out[kind] = FormatError(path: store.displayPath(kind), location: location, message: row[1])
            }
            return out
        }
    }

    // MARK: Tasks

    /// Tasks matching a WHERE clause (over `t` = tasks, `s` = short_ids), in
    /// display order: the inbox, then lists by name, each in manual order.
    func listed(_ db: Database, where clause: String, arguments: StatementArguments = []) throws -> [ListedTask] {
        let infos = try listRows(db)
        var slot: [String: Int] = [:]
        for (i, info) in infos.enumerated() { slot[info.kind.relativePath] = i }
        // Bucket rows by file in display order, then sort each file's rows by position.
        var buckets = [[(position: Int, item: ListedTask)]](repeating: [], count: infos.count + 1)
        var lastPath = ""
        var lastKind: FileKind?
        let statement = try db.makeStatement(sql: "SELECT \(RowReader.columns) FROM tasks t WHERE \(clause)")
        try statement.setArguments(arguments)
        try RowReader.forEach(statement) { task, path, shortID, position in
            if path != lastPath {
                lastPath = path
                lastKind = Self.kind(forRelativePath: path)
            }
            guard let kind = lastKind else { return }
            let i = slot[path] ?? infos.count
            let name = i < infos.count ? infos[i].name : (kind.slug ?? "Inbox")
            buckets[i].append((position, ListedTask(task: task, kind: kind, listName: name, shortID: shortID)))
        }
        var out: [ListedTask] = []
        out.reserveCapacity(buckets.reduce(0) { $0 + $1.count })
        for bucket in buckets {
            // Rows usually arrive in position order already (rowid order); sort only when not.
            if zip(bucket, bucket.dropFirst()).allSatisfy({ $0.position < $1.position }) {
                out.append(contentsOf: bucket.lazy.map(\.item))
            } else {
                out.append(contentsOf: bucket.sorted { $0.position < $1.position }.map(\.item))
            }
        }
        return out
    }

    /// Runs a view: SQL narrows the tasks down, then ``TaskQuery/select(_:filter:from:)``
    /// applies the one exact definition of the view.
    public func run(_ view: TaskView, filter: TaskFilter, query: TaskQuery) throws -> [ListedTask] {
        let states = filter.states.map { "'\($0.rawValue)'" }.sorted().joined(separator: ", ")
        var clause = "t.state IN (\(states))"
        var args: StatementArguments = []
        let today = query.today.daysSinceEpoch
        let nowTS = query.now.timeIntervalSinceReferenceDate
        // One day of slack on instants covers any time zone; select() is exact.
        // Without done tasks, the subqueries use the pending-only indexes.
        let p = filter.states.contains(.done) ? "" : " AND state != 'done'"
        switch view {
        case .list(let kind?):
            clause += " AND t.path = ?"
            args += [kind.relativePath]
        case .list(nil):
            break
        // Date views read the partial date indexes (a union of ranges) rather
        // than scanning every row.
        case .today:
            clause += " AND t.rowid IN (SELECT rowid FROM tasks WHERE due_day <= ?\(p) UNION ALL SELECT rowid FROM tasks WHERE due_ts < ?\(p)"
                + " UNION ALL SELECT rowid FROM tasks WHERE scheduled_day <= ?\(p)"
                + (p.isEmpty ? " UNION ALL SELECT rowid FROM tasks WHERE completed_ts >= \(nowTS - 2 * 86_400))" : ")")
            args += [today, nowTS + 2 * 86_400, today]
        case .upcoming(let days):
            clause += " AND t.rowid IN (SELECT rowid FROM tasks WHERE due_day > ? AND due_day <= ?\(p)"
                + " UNION ALL SELECT rowid FROM tasks WHERE due_ts >= ? AND due_ts < ?\(p)"
                + " UNION ALL SELECT rowid FROM tasks WHERE scheduled_day > ? AND scheduled_day <= ?\(p))"
            args += [today, today + days, nowTS - 86_400, nowTS + Double(days + 2) * 86_400, today, today + days]
        case .overdue:
            clause += " AND t.rowid IN (SELECT rowid FROM tasks WHERE due_day < ?\(p) UNION ALL SELECT rowid FROM tasks WHERE due_ts < ?\(p))"
            args += [today, nowTS]
        }
        let candidates = try db.read { db in try listed(db, where: clause, arguments: args) }
        return query.select(view, filter: filter, from: candidates)
    }

    /// Full-text search, ranked. See ``SearchQuery`` for the syntax.
    public func search(_ search: SearchQuery, filter: TaskFilter, list: FileKind?, limit: Int? = nil) throws -> [ListedTask] {
        let states = filter.states.map { "'\($0.rawValue)'" }.sorted().joined(separator: ", ")
        var clause = "t.state IN (\(states))"
        var args: StatementArguments = []
        if let list {
            clause += " AND t.path = ?"
            args += [list.relativePath]
        }
        for tag in filter.tags {
            clause += " AND t.rowid IN (SELECT task_rowid FROM tags WHERE tag = ?)"
            args += [tag]
        }
        let candidates: [ListedTask] = try db.read { db in
            var clause = clause
            var args = args
            if let match = search.ftsExpression {
                clause += " AND t.rowid IN (SELECT rowid FROM fts WHERE fts MATCH ?)"
                args += [match]
            }
            return try listed(db, where: clause, arguments: args)
        }
        // Exact matching and ranking: title matches first, then tags, then
        // notes; ties keep display order.
        let ranked = candidates.filter { search.matches($0.task) && filter.matches($0.task) }
            .enumerated().map { (score: search.score($0.element.task), offset: $0.offset, item: $0.element) }
            .sorted { ($1.score, $0.offset) < ($0.score, $1.offset) }
            .map(\.item)
        if let limit { return Array(ranked.prefix(limit)) }
        return ranked
    }

    /// Counts per list: open, active, overdue (given a query's now) and done.
    public func counts(query: TaskQuery) throws -> [(list: ListInfo, open: Int, active: Int, overdue: Int, done: Int)] {
        try db.read { db in
            let infos = try listRows(db)
            var byPath: [String: (Int, Int, Int, Int)] = [:]
            let rows = try Row.fetchAll(db, sql: """
                SELECT path,
                       sum(state = 'open'), sum(state = 'active'),
                       sum(state != 'done' AND (due_day < ? OR due_ts < ?)),
                       sum(state = 'done')
                FROM tasks GROUP BY path
                """, arguments: [query.today.daysSinceEpoch, query.now.timeIntervalSinceReferenceDate])
            for row in rows { byPath[row[0]] = (row[1] ?? 0, row[2] ?? 0, row[3] ?? 0, row[4] ?? 0) }
            return infos.map { info in
                let c = byPath[info.kind.relativePath] ?? (0, 0, 0, 0)
                return (info, c.0, c.1, c.2, c.3)
            }
        }
    }

    /// Number of tasks and of list files in the index.
    public func totals() throws -> (tasks: Int, lists: Int) {
        try db.read { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM tasks") ?? 0,
             try Int.fetchOne(db, sql: "SELECT count(*) FROM files WHERE slug IS NOT NULL") ?? 0)
        }
    }
}

extension TaskIndex: TaskCatalog {
    public func task(shortID: Int) throws -> ListedTask? {
        try db.read { db in
            try listed(db, where: "t.short = ? AND t.state != 'done'", arguments: [shortID]).first
        }
    }

    public func tasks(uuidHexPrefix hex: String) throws -> [ListedTask] {
        // Put the dashes back (8-4-4-4-12) and range-scan the id index.
        var dashed = ""
        for (i, c) in hex.prefix(32).enumerated() {
            if [8, 12, 16, 20].contains(i) { dashed.append("-") }
            dashed.append(c)
        }
        return try db.read { db in
            try listed(db, where: "t.id >= ? AND t.id < ?", arguments: [dashed, dashed + "~"])
        }
    }

    public var problems: [FormatError] {
        ((try? currentProblems()) ?? [:]).sorted { $0.key < $1.key }.map(\.value)
    }
}

extension TaskIndex: ShortIDLookup {
    /// The short id of a pending task, if it has one.
    public func shortID(of task: UUID) -> Int? {
        try? db.read { db in try Int.fetchOne(db, sql: "SELECT n FROM short_ids WHERE id = ?", arguments: [task.lowercased]) }
    }
}

extension TaskIndex {
    /// What a status line needs: how many pending tasks are due today (and
    /// not overdue yet), how many are overdue, and the first `limit` tasks of
    /// today's view, without decoding the whole view.
    ///
    /// The counts are SQL counts over the pending-date indexes. For the first
    /// tasks, each date index gives its earliest entries, every task tied
    /// with the `limit`-th included, so their union holds the view's first
    /// `limit` tasks; ``TaskQuery/select(_:filter:from:)`` then orders them
    /// exactly as `tick today` would.
    public func todaySummary(query: TaskQuery, limit: Int) throws -> (dueToday: Int, overdue: Int, first: [ListedTask]) {
        let today = query.today.daysSinceEpoch
        let now = query.now.timeIntervalSinceReferenceDate
        let endOfToday = query.today.adding(days: 1).startOfDay(in: query.timeZone).timeIntervalSinceReferenceDate
        let n = max(limit, 1)
        return try db.read { db in
            let pending = "state != 'done'"
            func count(_ condition: String, _ args: StatementArguments) throws -> Int {
                try Int.fetchOne(db, sql: "SELECT count(*) FROM tasks WHERE \(pending) AND \(condition)", arguments: args) ?? 0
            }
            let overdue = try count("due_day < ?", [today]) + count("due_ts < ?", [now])
            let dueToday = try count("due_day = ?", [today]) + count("due_ts >= ? AND due_ts < ?", [now, endOfToday])
            // Earliest entries of each date, ties at the cut included.
            func earliest(_ column: String, upTo bound: any DatabaseValueConvertible) -> String {
                "SELECT rowid FROM tasks WHERE \(pending) AND \(column) <= min(\(bound.databaseValue.description), "
                    + "coalesce((SELECT \(column) FROM tasks WHERE \(pending) AND \(column) IS NOT NULL ORDER BY \(column) LIMIT 1 OFFSET \(n - 1)), \(bound.databaseValue.description)))"
            }
            let clause = "t.rowid IN (" + [
                earliest("due_day", upTo: today),
                earliest("due_ts", upTo: now + 2 * 86_400),
                earliest("scheduled_day", upTo: today),
            ].joined(separator: " UNION ") + ")"
            let candidates = try listed(db, where: clause)
            let first = query.select(.today, filter: TaskFilter(), from: candidates)
            return (dueToday, overdue, Array(first.prefix(limit)))
        }
    }
}
