import Foundation
import GRDB

/// The short-id table's own small database in the state directory
/// (`$XDG_STATE_HOME/tick/<store-key>/short-ids.sqlite`), attached to every
/// index connection as `ids`.
///
/// The numbers a user has seen are state, not cache: they must survive a
/// deleted cache directory or a rebuilt index, or `tick done 3` typed after
/// `tick list` could complete another task. The index keeps a copy of each
/// pending task's number in `tasks.short` (listings need no join) and the
/// table's stamp in `meta`; a copy that is not the table's stamp is brought
/// back in step before it is used (``TaskIndex/adoptShortIDs(_:)``).
enum ShortIDStore {
    /// Where the table lives for `store`.
    static func path(for store: Store) -> String {
        path(in: store.location)
    }

    /// Where the table lives for the store at `location`.
    static func path(in location: StoreLocation) -> String {
        (location.stateDirectory as NSString).appendingPathComponent("short-ids.sqlite")
    }

    /// The tables of the `ids` database. `held_until`: NULL while the task is
    /// pending; once it is done or gone, the instant (seconds since the
    /// reference date) until which the number stays its own
    /// (``TaskIndex/shortIDGrace``). `ids_meta` holds `token` (random, made
    /// with the file) and `gen` (bumped by every change of `short_ids`).
    static let schema = [
        "CREATE TABLE IF NOT EXISTS ids.short_ids (id TEXT PRIMARY KEY, n INTEGER NOT NULL UNIQUE, held_until REAL)",
        "CREATE TABLE IF NOT EXISTS ids.ids_meta (k TEXT PRIMARY KEY, v TEXT NOT NULL)",
    ]

    /// Attaches the table's database (`path`, or a private in-memory one when
    /// nil) as `ids` and creates its tables when they are missing.
    static func attach(_ db: Database, path: String?) throws {
        if let path {
            try PrivateFiles.createDirectory((path as NSString).deletingLastPathComponent)
            if access(path, F_OK) != 0 {
                // Created 0600 before SQLite opens it (its journal takes its mode).
                let fd = Glibc.open(path, O_RDWR | O_CREAT | O_CLOEXEC, PrivateFiles.fileMode)
                if fd >= 0 { Glibc.close(fd) }
            }
        }
        try db.execute(sql: "ATTACH DATABASE ? AS ids", arguments: [path ?? ":memory:"])
        let ready = try Int.fetchOne(db, sql: "SELECT count(*) FROM ids.sqlite_master WHERE type = 'table' AND name IN ('short_ids', 'ids_meta')") == 2
        guard !ready else { return }
        try db.inTransaction(.immediate) {
            for sql in schema { try db.execute(sql: sql) }
            try db.execute(sql: "INSERT OR IGNORE INTO ids.ids_meta (k, v) VALUES ('token', ?), ('gen', '0')",
                           arguments: [UUID().uuidString.lowercased()])
            return .commit
        }
    }

    /// The table's stamp: its token and generation.
    static func stamp(_ db: Database) throws -> String {
        let rows = try Row.fetchAll(db, sql: "SELECT k, v FROM ids.ids_meta WHERE k IN ('token', 'gen') ORDER BY k")
        return rows.map { $0[1] as String? ?? "" }.joined(separator: "/")
    }

    /// The stamp the index's copy was made from (nil when it has none).
    static func mirroredStamp(_ db: Database) throws -> String? {
        try String.fetchOne(db, sql: "SELECT v FROM meta WHERE k = 'short_ids'")
    }

    /// Records a change of the table: a new generation, which the index's
    /// copy (brought in step by the caller, in the same transaction) takes.
    static func bump(_ db: Database) throws {
        try db.execute(sql: "UPDATE ids.ids_meta SET v = CAST(CAST(v AS INTEGER) + 1 AS TEXT) WHERE k = 'gen'")
        try db.execute(sql: "INSERT OR REPLACE INTO meta (k, v) VALUES ('short_ids', ?)", arguments: [stamp(db)])
    }

    /// The rows of the table of an index connection (nil when unreadable).
    static func rows(of queue: DatabaseQueue) -> [Row]? {
        try? queue.read { db in try Row.fetchAll(db, sql: "SELECT id, n, held_until FROM ids.short_ids") }
    }

    /// The rows of the table in its file at `path`, opened read-only (nil
    /// when it cannot be read).
    static func rows(inFile path: String) -> [Row]? {
        guard access(path, R_OK) == 0 else { return nil }
        var config = Configuration()
        config.readonly = true
        guard let queue = try? DatabaseQueue(path: path, configuration: config) else { return nil }
        defer { try? queue.close() }
        return try? queue.read { db in try Row.fetchAll(db, sql: "SELECT id, n, held_until FROM short_ids") }
    }

    /// Puts `rows` in the table of `target` (an in-memory copy of an index
    /// answering for a failing disk keeps the numbers the user has seen).
    static func copy(_ rows: [Row], to target: DatabaseQueue) {
        try? target.write { db in
            try db.execute(sql: "DELETE FROM ids.short_ids")
            let insert = try db.cachedStatement(sql: "INSERT INTO ids.short_ids (id, n, held_until) VALUES (?, ?, ?)")
            for row in rows { try insert.execute(arguments: [row[0], row[1], row[2]]) }
            try bump(db)
        }
    }
}
