import Foundation
import GRDB

/// Opening the index: where it lives, creating it, checking and migrating it.
extension TaskIndex {
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
    var isHealthy: Bool {
        let names = IndexSchema.tableNames
        let found = try? db.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN (\(names.map { "'\($0)'" }.joined(separator: ", ")))")
        }
        return found == names.count
    }

    /// Opens a connection: WAL (readers never wait for the watcher), a busy
    /// timeout, and memory-mapped reads.
    static func connect(_ path: String?) throws -> DatabaseQueue {
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
    func migrate() throws {
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
}
