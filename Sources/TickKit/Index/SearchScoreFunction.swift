/// `tick_search(title, notes, tags)`, registered on one SQLite connection
/// as a C function (``SQLiteConnection/createFunction(_:argumentCount:_:)``):
/// ``SearchQuery``'s score computed on the bytes SQLite already holds, with
/// no Swift `String` made per row when the bytes decide (a common word in a
/// large store has thousands of candidates).
final class SearchScoreFunction {
    let query: SearchQuery

    init(_ query: SearchQuery) {
        self.query = query
    }

    /// The score of one row's columns (``SearchQuery``'s byte scoring).
    func score(title: UnsafeBufferPointer<UInt8>, notes: UnsafeBufferPointer<UInt8>, tags: UnsafeBufferPointer<UInt8>) -> Int {
        query.score(title: title, notes: notes, tags: tags)
    }

    /// Makes `tick_search` score `query` on `db` (replacing the previous
    /// query's function, which SQLite then releases).
    static func register(_ query: SearchQuery, on db: SQLiteConnection) throws {
        let scorer = SearchScoreFunction(query)
        do {
            try db.createFunction("tick_search", argumentCount: 3) { values in
                Int64(scorer.score(title: values.bytes(0), notes: values.bytes(1), tags: values.bytes(2)))
            }
        } catch let error as SQLiteError {
            throw IndexError.database("cannot register the search function: " + error.message)
        }
    }
}
