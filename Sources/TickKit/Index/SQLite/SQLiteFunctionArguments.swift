import CSQLite

/// The arguments of one call of an SQL function, read as SQLite holds them.
struct SQLiteFunctionArguments {
    let values: UnsafeMutablePointer<OpaquePointer?>?
    let count: Int32

    /// Argument `i`'s text bytes, valid during the call (empty for NULL or a missing argument).
    func bytes(_ i: Int) -> UnsafeBufferPointer<UInt8> {
        guard i < count, let value = values?[i], let text = sqlite3_value_text(value) else {
            return UnsafeBufferPointer(start: nil, count: 0)
        }
        return UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(value)))
    }

    /// Argument `i` as a `String`; nil when it is NULL (or missing).
    func text(_ i: Int) -> String? {
        guard i < count, let value = values?[i], sqlite3_value_type(value) != SQLITE_NULL else { return nil }
        return String(decoding: bytes(i), as: UTF8.self)
    }
}
