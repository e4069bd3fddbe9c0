/// The Swift body of an SQL function, retained by SQLite while the function
/// is registered (``SQLiteConnection/createFunction(_:argumentCount:_:)``).
final class SQLiteFunctionBox {
    let body: (SQLiteFunctionArguments) -> Int64

    init(_ body: @escaping (SQLiteFunctionArguments) -> Int64) {
        self.body = body
    }
}
