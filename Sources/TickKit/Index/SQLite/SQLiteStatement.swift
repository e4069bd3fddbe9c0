import CSQLite

/// One prepared statement of a ``SQLiteConnection``: bind parameters by
/// index (1-based), step, read columns (0-based), reset, step again.
///
/// Columns can be read as bytes (``bytes(_:)``) that point into SQLite's own
/// row buffer, valid until the next step or reset: listings read thousands
/// of rows without making a `String` per value. Not thread-safe: used by the
/// thread that owns its connection.
final class SQLiteStatement {
    /// The C handle (for the hot paths that step it themselves).
    let handle: OpaquePointer
    /// The SQL it was prepared from (for error messages).
    let sql: String

    /// Prepares `sql` (one statement) on the connection `db`.
    init(db: OpaquePointer, sql: String) throws {
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v3(db, sql, -1, 0, &statement, nil)
        guard rc == SQLITE_OK else { throw SQLiteError(code: rc, connection: db, sql: sql) }
        guard let statement else {
            // Only comments or white space.
            throw SQLiteError(code: SQLITE_MISUSE, message: "not an SQL statement", sql: sql)
        }
        self.handle = statement
        self.sql = sql
    }

    deinit {
        sqlite3_finalize(handle)
    }

    // MARK: Binding

    /// Binds an integer.
    func bind(_ value: Int64, at index: Int32) {
        sqlite3_bind_int64(handle, index, value)
    }

    /// Binds a real.
    func bind(_ value: Double, at index: Int32) {
        sqlite3_bind_double(handle, index, value)
    }

    /// Binds a text (its UTF-8 bytes, copied by SQLite).
    func bind(_ value: String, at index: Int32) {
        var value = value
        value.withUTF8 { bindText($0, at: index) }
    }

    /// Binds UTF-8 bytes as text (copied by SQLite).
    func bindText(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int32) {
        _ = bytes.withMemoryRebound(to: CChar.self) { chars in
            if let base = chars.baseAddress {
                sqlite3_bind_text(handle, index, base, Int32(chars.count), tick_sqlite3_transient())
            } else {
                // An empty text, not NULL (a nil pointer binds NULL).
                sqlite3_bind_text(handle, index, "", 0, tick_sqlite3_transient())
            }
        }
    }

    /// Binds bytes as a blob (copied by SQLite; an empty one is a zero-length blob, not NULL).
    func bindBlob(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int32) {
        if let base = bytes.baseAddress, !bytes.isEmpty {
            sqlite3_bind_blob(handle, index, base, Int32(bytes.count), tick_sqlite3_transient())
        } else {
            sqlite3_bind_zeroblob(handle, index, 0)
        }
    }

    /// Binds NULL.
    func bindNull(at index: Int32) {
        sqlite3_bind_null(handle, index)
    }

    /// Resets the statement and binds `arguments` to parameters 1...n.
    func bind(_ arguments: SQLArguments) throws {
        reset()
        sqlite3_clear_bindings(handle)
        let expected = Int(sqlite3_bind_parameter_count(handle))
        guard arguments.count == expected else {
            throw SQLiteError(code: SQLITE_RANGE, message: "\(arguments.count) arguments for \(expected) parameters", sql: sql)
        }
        for (i, argument) in arguments.enumerated() {
            if let argument { argument.bind(to: self, at: Int32(i + 1)) } else { bindNull(at: Int32(i + 1)) }
        }
    }

    // MARK: Stepping

    /// Steps once: true when a row is ready, false when the statement is done.
    func step() throws -> Bool {
        let rc = sqlite3_step(handle)
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE { return false }
        throw SQLiteError(code: rc, connection: sqlite3_db_handle(handle), sql: sql)
    }

    /// Resets the statement so it can be stepped again (bindings are kept).
    func reset() {
        sqlite3_reset(handle)
    }

    /// Binds `arguments` and steps to the end (for statements that return no rows).
    func execute(_ arguments: SQLArguments = []) throws {
        try bind(arguments)
        defer { reset() }
        while try step() {}
    }

    /// Binds `arguments`, steps once and hands the row to `read`; nil when
    /// there is no row. The statement is reset after.
    func row<T>(_ arguments: SQLArguments, _ read: (SQLiteStatement) throws -> T) throws -> T? {
        try bind(arguments)
        defer { reset() }
        guard try step() else { return nil }
        return try read(self)
    }

    // MARK: Columns of the current row

    /// Number of columns in a row.
    var columnCount: Int32 { sqlite3_column_count(handle) }

    /// True when column `i` is NULL.
    func isNull(_ i: Int32) -> Bool {
        sqlite3_column_type(handle, i) == SQLITE_NULL
    }

    /// Column `i` as an integer (0 for NULL).
    func int64(_ i: Int32) -> Int64 {
        sqlite3_column_int64(handle, i)
    }

    /// Column `i` as an integer (0 for NULL).
    func int(_ i: Int32) -> Int {
        Int(sqlite3_column_int64(handle, i))
    }

    /// Column `i` as a real (0 for NULL).
    func double(_ i: Int32) -> Double {
        sqlite3_column_double(handle, i)
    }

    /// Column `i` as text bytes, without a terminator, valid until the next
    /// step or reset (empty for NULL).
    func bytes(_ i: Int32) -> UnsafeBufferPointer<UInt8> {
        guard let p = sqlite3_column_text(handle, i) else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(start: p, count: Int(sqlite3_column_bytes(handle, i)))
    }

    /// Column `i` as a blob's bytes, valid until the next step or reset
    /// (empty for NULL and for a zero-length blob).
    func blob(_ i: Int32) -> UnsafeBufferPointer<UInt8> {
        guard let p = sqlite3_column_blob(handle, i) else { return UnsafeBufferPointer(start: nil, count: 0) }
        let n = Int(sqlite3_column_bytes(handle, i))
        return UnsafeBufferPointer(start: p.assumingMemoryBound(to: UInt8.self), count: n)
    }

    /// Column `i` as a `String` (when one is truly wanted; "" for NULL).
    func text(_ i: Int32) -> String {
        String(decoding: bytes(i), as: UTF8.self)
    }

    /// Column `i` as an integer, nil for NULL.
    func optionalInt(_ i: Int32) -> Int? { isNull(i) ? nil : int(i) }

    /// Column `i` as a real, nil for NULL.
    func optionalDouble(_ i: Int32) -> Double? { isNull(i) ? nil : double(i) }

    /// Column `i` as a `String`, nil for NULL.
    func optionalText(_ i: Int32) -> String? { isNull(i) ? nil : text(i) }
}
