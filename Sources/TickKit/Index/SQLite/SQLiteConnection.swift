import CSQLite

/// One connection to an SQLite database through SQLite's C API: opening,
/// scripts, prepared and cached statements, transactions, C functions.
///
/// Not thread-safe, on purpose: each thread that uses the index opens a
/// connection of its own (``TaskIndex`` is never shared across threads; the
/// UI's watcher thread opens its own). It is therefore not `Sendable`, and
/// opened without SQLite's per-connection mutex.
final class SQLiteConnection {
    /// The C handle (nil once closed).
    private(set) var handle: OpaquePointer?
    /// Statements kept prepared for reuse, by SQL (``cached(_:)``).
    private var cache: [String: SQLiteStatement] = [:]

    /// How a transaction starts (`BEGIN DEFERRED` or `BEGIN IMMEDIATE`).
    enum TransactionKind: String {
        case deferred = "DEFERRED"
        case immediate = "IMMEDIATE"
    }

    /// Opens the database at `path` (`nil`: a private in-memory database),
    /// read-write and created when missing, or read-only. SQLite waits up to
    /// `busyTimeout` seconds for another process's lock before failing with
    /// `SQLITE_BUSY`. Extended result codes are on; double-quoted strings
    /// are identifiers only. A file that is not a database fails here
    /// (`SQLITE_NOTADB`), not at its first use.
    init(path: String?, readOnly: Bool = false, busyTimeout: Double = 0) throws {
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        flags |= readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(path ?? ":memory:", &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let error = SQLiteError(code: rc, connection: db)
            sqlite3_close_v2(db)
            throw error
        }
        handle = db
        sqlite3_extended_result_codes(db, 1)
        tick_sqlite3_disable_dqs(db)
        if busyTimeout > 0 { sqlite3_busy_timeout(db, Int32(busyTimeout * 1000)) }
        do {
            // Reads the header: a damaged or foreign file fails now.
            let probe = try SQLiteStatement(db: db, sql: "SELECT * FROM sqlite_master LIMIT 1")
            _ = try probe.step()
        } catch {
            close()
            throw error
        }
    }

    deinit {
        close()
    }

    /// Closes the connection (statements still held elsewhere keep it
    /// alive until they go: `sqlite3_close_v2`). Idempotent.
    func close() {
        cache.removeAll()
        guard let db = handle else { return }
        handle = nil
        sqlite3_close_v2(db)
    }

    /// The open handle, or `SQLITE_MISUSE` once closed.
    private func open() throws -> OpaquePointer {
        guard let handle else { throw SQLiteError(code: SQLITE_MISUSE, message: "the database connection is closed") }
        return handle
    }

    // MARK: Statements

    /// Prepares one statement.
    func prepare(_ sql: String) throws -> SQLiteStatement {
        try SQLiteStatement(db: open(), sql: sql)
    }

    /// A prepared statement kept for reuse (hot statements run once per row
    /// or per command), reset and ready to bind.
    func cached(_ sql: String) throws -> SQLiteStatement {
        if let statement = cache[sql] {
            statement.reset()
            return statement
        }
        let statement = try prepare(sql)
        cache[sql] = statement
        return statement
    }

    /// Runs an SQL script (one or more statements, no parameters).
    /// Keeps the main database's `-wal` and `-shm` files when the last
    /// connection closes (`SQLITE_FCNTL_PERSIST_WAL`): a command that opens
    /// the index then finds them, instead of creating two files (and their
    /// inodes) and deleting them again on every run.
    func persistWAL() {
        guard let handle else { return }
        var on: Int32 = 1
        _ = sqlite3_file_control(handle, "main", SQLITE_FCNTL_PERSIST_WAL, &on)
    }

    func execute(_ sql: String) throws {
        let db = try open()
        let rc = sqlite3_exec(db, sql, nil, nil, nil)
        guard rc == SQLITE_OK else { throw SQLiteError(code: rc, connection: db, sql: sql) }
    }

    /// Runs one statement with parameters, to its end.
    func execute(_ sql: String, _ arguments: SQLArguments) throws {
        try prepare(sql).execute(arguments)
    }

    /// Steps through the rows of `sql`, handing the statement, on each row, to `body`.
    func forEachRow(_ sql: String, _ arguments: SQLArguments = [], _ body: (SQLiteStatement) throws -> Void) throws {
        let statement = try prepare(sql)
        try statement.bind(arguments)
        while try statement.step() { try body(statement) }
    }

    /// The first row of `sql` made into a value by `read`; nil without a row.
    func first<T>(_ sql: String, _ arguments: SQLArguments = [], _ read: (SQLiteStatement) throws -> T?) throws -> T? {
        let statement = try prepare(sql)
        try statement.bind(arguments)
        guard try statement.step() else { return nil }
        return try read(statement)
    }

    /// The first column of the first row as an integer; nil without a row or for NULL.
    func int(_ sql: String, _ arguments: SQLArguments = []) throws -> Int? {
        try first(sql, arguments) { $0.optionalInt(0) }
    }

    /// The first column of the first row as a real; nil without a row or for NULL.
    func double(_ sql: String, _ arguments: SQLArguments = []) throws -> Double? {
        try first(sql, arguments) { $0.optionalDouble(0) }
    }

    /// The first column of the first row as text; nil without a row or for NULL.
    func text(_ sql: String, _ arguments: SQLArguments = []) throws -> String? {
        try first(sql, arguments) { $0.optionalText(0) }
    }

    /// The first column of every row as text (NULLs left out).
    func texts(_ sql: String, _ arguments: SQLArguments = []) throws -> [String] {
        var out: [String] = []
        try forEachRow(sql, arguments) { if let s = $0.optionalText(0) { out.append(s) } }
        return out
    }

    /// The first column of every row as integers (NULLs left out).
    func ints(_ sql: String, _ arguments: SQLArguments = []) throws -> [Int] {
        var out: [Int] = []
        try forEachRow(sql, arguments) { if let n = $0.optionalInt(0) { out.append(n) } }
        return out
    }

    // MARK: Transactions

    /// True outside any transaction.
    var isAutocommit: Bool { handle.map { sqlite3_get_autocommit($0) != 0 } ?? true }

    /// Runs `body` in a transaction: committed when it returns, rolled back
    /// when it throws (the error is rethrown). Inside a transaction already,
    /// `body` simply runs in it.
    func transaction<T>(_ kind: TransactionKind, _ body: () throws -> T) throws -> T {
        guard isAutocommit else { return try body() }
        try execute("BEGIN \(kind.rawValue) TRANSACTION")
        let result: T
        do {
            result = try body()
        } catch {
            rollback()
            throw error
        }
        do {
            try execute("COMMIT TRANSACTION")
        } catch {
            rollback()
            throw error
        }
        return result
    }

    /// A read: in a deferred transaction, so that every statement in it sees one snapshot.
    func read<T>(_ body: () throws -> T) throws -> T {
        try transaction(.deferred, body)
    }

    /// A write: in an immediate transaction (the write lock is taken at once).
    func write<T>(_ body: () throws -> T) throws -> T {
        try transaction(.immediate, body)
    }

    private func rollback() {
        // A failed statement may have rolled back already; nothing to report then.
        if let handle, sqlite3_get_autocommit(handle) == 0 { _ = sqlite3_exec(handle, "ROLLBACK TRANSACTION", nil, nil, nil) }
    }

    // MARK: Functions, copies

    /// Registers (or replaces) the SQL function `name` of `argumentCount`
    /// text arguments, returning an integer, computed by `body`
    /// (deterministic: SQLite may reuse a result for equal arguments).
    func createFunction(_ name: String, argumentCount: Int32, _ body: @escaping (SQLiteFunctionArguments) -> Int64) throws {
        let db = try open()
        let box = Unmanaged.passRetained(SQLiteFunctionBox(body)).toOpaque()
        let rc = sqlite3_create_function_v2(
            db, name, argumentCount, SQLITE_UTF8 | SQLITE_DETERMINISTIC, box,
            { context, count, values in
                guard let context, let data = sqlite3_user_data(context) else { return }
                let function = Unmanaged<SQLiteFunctionBox>.fromOpaque(data).takeUnretainedValue()
                sqlite3_result_int64(context, function.body(SQLiteFunctionArguments(values: values, count: count)))
            },
            nil, nil,
            { data in
                if let data { Unmanaged<SQLiteFunctionBox>.fromOpaque(data).release() }
            })
        // On failure SQLite has already called the destructor (released the box).
        guard rc == SQLITE_OK else { throw SQLiteError(code: rc, connection: db) }
    }

    /// Copies this whole database (`main`) into `target`'s (SQLite's online backup).
    func backup(to target: SQLiteConnection) throws {
        let source = try open()
        let destination = try target.open()
        guard let backup = sqlite3_backup_init(destination, "main", source, "main") else {
            throw SQLiteError(code: sqlite3_errcode(destination), connection: destination)
        }
        let rc = sqlite3_backup_step(backup, -1)
        let finish = sqlite3_backup_finish(backup)
        guard rc == SQLITE_DONE else { throw SQLiteError(code: rc, connection: destination) }
        guard finish == SQLITE_OK else { throw SQLiteError(code: finish, connection: destination) }
    }

    /// Replaces the `main` database with an image of a database file's
    /// bytes (SQLite takes over the copy and frees it with the connection).
    /// False when SQLite refuses it.
    func deserialize(_ bytes: [UInt8]) -> Bool {
        guard let db = handle, let buffer = sqlite3_malloc64(sqlite3_uint64(bytes.count)) else { return false }
        bytes.withUnsafeBytes { raw in
            if let base = raw.baseAddress { buffer.copyMemory(from: base, byteCount: raw.count) }
        }
        let flags = UInt32(SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_RESIZEABLE)
        let size = sqlite3_int64(bytes.count)
        return sqlite3_deserialize(db, "main", buffer.assumingMemoryBound(to: UInt8.self), size, size, flags) == SQLITE_OK
    }
}
