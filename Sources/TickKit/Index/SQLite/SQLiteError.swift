import CSQLite

/// A failure SQLite reported: its result code (extended, as the connection
/// asks for them) and its own message (`sqlite3_errmsg`), with the SQL that
/// failed when there was one. ``TaskIndex/describe(_:)`` puts it in words.
struct SQLiteError: Error, CustomStringConvertible, Sendable {
    /// The extended result code (`SQLITE_IOERR_WRITE`, `SQLITE_READONLY_DBMOVED`...).
    let extendedCode: Int32
    /// SQLite's message for it.
    let message: String
    /// The statement that failed, if any.
    let sql: String?

    /// The primary result code (`SQLITE_IOERR`, `SQLITE_CORRUPT`...).
    var code: Int32 { extendedCode & 0xff }

    init(code: Int32, message: String, sql: String? = nil) {
        self.extendedCode = code
        self.message = message
        self.sql = sql
    }

    /// The error of `code` on `connection`: its message is the connection's last one.
    init(code: Int32, connection: OpaquePointer?, sql: String? = nil) {
        let message: String
        if let connection, let text = sqlite3_errmsg(connection) {
            message = String(cString: text)
        } else {
            message = String(cString: sqlite3_errstr(code))
        }
        self.init(code: code, message: message, sql: sql)
    }

    /// As GRDB printed its errors, should one ever reach a user untranslated:
    /// `SQLite error 1: no such table: x - while executing `SELECT ...``.
    var description: String {
        var text = "SQLite error \(code): \(message)"
        if let sql { text += " - while executing `\(sql.trimmingSpaces)`" }
        return text
    }
}

private extension String {
    /// Without leading and trailing white space, as GRDB quoted statements.
    var trimmingSpaces: Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" || $0 == ";" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return self[first...last]
    }
}
