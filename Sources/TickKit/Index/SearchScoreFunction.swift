import GRDB
import GRDBSQLite

/// `tick_search(title, notes, tags)`, registered on one SQLite connection
/// through the C API: ``SearchQuery``'s score computed on the bytes SQLite
/// already holds, with no Swift `String` made per row when the bytes decide
/// (a common word in a large store has thousands of candidates).
final class SearchScoreFunction {
    let query: SearchQuery

    init(_ query: SearchQuery) {
        self.query = query
    }

    /// The score of one row's columns (``SearchQuery``'s byte scoring).
    func score(title: UnsafeBufferPointer<UInt8>, notes: UnsafeBufferPointer<UInt8>, tags: UnsafeBufferPointer<UInt8>) -> Int {
        query.score(title: title, notes: notes, tags: tags)
    }

    /// Makes `tick_search` score `query` on `db`'s connection (replacing the
    /// previous query's function, which SQLite then releases).
    static func register(_ query: SearchQuery, on db: Database) throws {
        let function = Unmanaged.passRetained(SearchScoreFunction(query)).toOpaque()
        let rc = sqlite3_create_function_v2(
            db.sqliteConnection, "tick_search", 3, SQLITE_UTF8 | SQLITE_DETERMINISTIC, function,
            { context, _, values in
                guard let context, let values, let data = sqlite3_user_data(context) else { return }
                let scorer = Unmanaged<SearchScoreFunction>.fromOpaque(data).takeUnretainedValue()
                func bytes(_ i: Int) -> UnsafeBufferPointer<UInt8> {
                    guard let value = values[i], let text = sqlite3_value_text(value) else {
                        return UnsafeBufferPointer(start: nil, count: 0)
                    }
                    return UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(value)))
                }
                sqlite3_result_int64(context, Int64(scorer.score(title: bytes(0), notes: bytes(1), tags: bytes(2))))
            },
            nil, nil,
            { data in
                if let data { Unmanaged<SearchScoreFunction>.fromOpaque(data).release() }
            })
        guard rc == SQLITE_OK else {
            throw IndexError.database("cannot register the search function: " + String(cString: sqlite3_errstr(rc)))
        }
    }
}
