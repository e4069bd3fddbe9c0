import FoundationEssentials
import Glibc

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
        PathString.appending(location.stateDirectory, "short-ids.sqlite")
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
    static func attach(_ db: SQLiteConnection, path: String?) throws {
        if let path {
            try PrivateFiles.createDirectory(PathString.deletingLastComponent(path))
            if access(path, F_OK) != 0 {
                // Created 0600 before SQLite opens it (its journal takes its mode).
                let fd = Glibc.open(path, O_RDWR | O_CREAT | O_CLOEXEC, PrivateFiles.fileMode)
                if fd >= 0 { Glibc.close(fd) }
            }
        }
        try db.execute("ATTACH DATABASE ? AS ids", [path ?? ":memory:"])
        let ready = try db.int("SELECT count(*) FROM ids.sqlite_master WHERE type = 'table' AND name IN ('short_ids', 'ids_meta')") == 2
        guard !ready else { return }
        try db.transaction(.immediate) {
            for sql in schema { try db.execute(sql) }
            try db.execute("INSERT OR IGNORE INTO ids.ids_meta (k, v) VALUES ('token', ?), ('gen', '0')",
                           [UUID().uuidString.lowercased()])
        }
    }

    /// The table's stamp: its token and generation.
    static func stamp(_ db: SQLiteConnection) throws -> String {
        var values: [String] = []
        try db.forEachRow("SELECT k, v FROM ids.ids_meta WHERE k IN ('token', 'gen') ORDER BY k") { values.append($0.optionalText(1) ?? "") }
        return values.joined(separator: "/")
    }

    /// The stamp the index's copy was made from (nil when it has none).
    static func mirroredStamp(_ db: SQLiteConnection) throws -> String? {
        try db.text("SELECT v FROM meta WHERE k = 'short_ids'")
    }

    /// Records a change of the table: a new generation, which the index's
    /// copy (brought in step by the caller, in the same transaction) takes.
    static func bump(_ db: SQLiteConnection) throws {
        try db.execute("UPDATE ids.ids_meta SET v = CAST(CAST(v AS INTEGER) + 1 AS TEXT) WHERE k = 'gen'")
        try db.execute("INSERT OR REPLACE INTO meta (k, v) VALUES ('short_ids', ?)", [stamp(db)])
    }

    /// One row of the table.
    struct Row {
        var id: String
        var n: Int64
        var heldUntil: Double?
    }

    /// The rows of `db`'s table named `table`.
    private static func rows(_ db: SQLiteConnection, table: String) throws -> [Row] {
        var rows: [Row] = []
        try db.forEachRow("SELECT id, n, held_until FROM \(table)") { rows.append(Row(id: $0.text(0), n: $0.int64(1), heldUntil: $0.optionalDouble(2))) }
        return rows
    }

    /// The rows of the table of an index connection (nil when unreadable).
    static func rows(of db: SQLiteConnection) -> [Row]? {
        try? db.read { try rows(db, table: "ids.short_ids") }
    }

    /// The rows of the table in its file at `path`, opened read-only (nil
    /// when it cannot be read).
    static func rows(inFile path: String) -> [Row]? {
        guard access(path, R_OK) == 0 else { return nil }
        guard let db = try? SQLiteConnection(path: path, readOnly: true) else { return nil }
        defer { db.close() }
        return try? db.read { try rows(db, table: "short_ids") }
    }

    /// Puts `rows` in the table of `target` (an in-memory copy of an index
    /// answering for a failing disk keeps the numbers the user has seen).
    static func copy(_ rows: [Row], to target: SQLiteConnection) {
        try? target.write {
            try target.execute("DELETE FROM ids.short_ids")
            let insert = try target.cached("INSERT INTO ids.short_ids (id, n, held_until) VALUES (?, ?, ?)")
            for row in rows { try insert.execute([row.id, row.n, row.heldUntil]) }
            try bump(target)
        }
    }
}
