import GRDB
import GRDBSQLite

/// `tick_search(title, notes, tags)`, registered on one SQLite connection
/// through the C API: ``SearchQuery/score(title:notes:tags:)`` computed on
/// the bytes SQLite already holds, with no Swift `String` made per row when
/// the text is ASCII (a common word in a large store has thousands of
/// candidates). Other text is scored by the same Swift definition.
final class SearchScoreFunction {
    let query: SearchQuery
    /// Each term's bytes, and whether it must start a word.
    private let needles: [(bytes: [UInt8], atWordStart: Bool)]

    init(_ query: SearchQuery) {
        self.query = query
        needles = query.terms.map { term in
            switch term {
            case .text(let t): (Array(t.utf8), false)
            case .prefix(let p): (Array(p.utf8), true)
            }
        }
    }

    /// The score of one row's columns: matched on their bytes where that
    /// decides (``ASCIIMatch``); else the column is made a String and
    /// lowercased, once for all terms.
    func score(title: UnsafeBufferPointer<UInt8>, notes: UnsafeBufferPointer<UInt8>, tags: UnsafeBufferPointer<UInt8>) -> Int {
        var fields = (Field(title), Field(tags), Field(notes))
        var total = 0
        for (i, needle) in needles.enumerated() {
            let term = query.terms[i]
            let found = fields.0.contains(needle, term) * 10 + fields.1.contains(needle, term) * 5 + fields.2.contains(needle, term)
            if found == 0 { return 0 }
            total += found
        }
        return total
    }

    /// One column's bytes, and its text lowercased once the bytes could not decide.
    private struct Field {
        let bytes: UnsafeBufferPointer<UInt8>
        var folded: String?

        init(_ bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
        }

        /// 1 when `term` (given also as bytes) occurs, else 0.
        mutating func contains(_ needle: (bytes: [UInt8], atWordStart: Bool), _ term: SearchQuery.Term) -> Int {
            let bytes = self.bytes
            if let hit = needle.bytes.withUnsafeBufferPointer({ ASCIIMatch.find($0, in: bytes, atWordStart: needle.atWordStart) }) {
                return hit ? 1 : 0
            }
            if folded == nil { folded = String(decoding: bytes, as: UTF8.self).lowercased() }
            return SearchQuery.matches(term, in: folded ?? "") ? 1 : 0
        }
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
