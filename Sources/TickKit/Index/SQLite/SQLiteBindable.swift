import CSQLite

/// A Swift value that binds to a statement parameter: Int, Int64, Double,
/// Bool, String or bytes (`[UInt8]`, a blob). A nil in ``SQLArguments`` binds NULL.
protocol SQLiteBindable: Sendable {
    /// Binds the value to parameter `index` (1-based) of `statement`.
    func bind(to statement: SQLiteStatement, at index: Int32)
}

/// A statement's parameters, in order (nil: NULL).
typealias SQLArguments = [(any SQLiteBindable)?]

extension Int: SQLiteBindable {
    func bind(to statement: SQLiteStatement, at index: Int32) { statement.bind(Int64(self), at: index) }
}

extension Int64: SQLiteBindable {
    func bind(to statement: SQLiteStatement, at index: Int32) { statement.bind(self, at: index) }
}

extension Double: SQLiteBindable {
    func bind(to statement: SQLiteStatement, at index: Int32) { statement.bind(self, at: index) }
}

extension Bool: SQLiteBindable {
    func bind(to statement: SQLiteStatement, at index: Int32) { statement.bind(Int64(self ? 1 : 0), at: index) }
}

extension String: SQLiteBindable {
    func bind(to statement: SQLiteStatement, at index: Int32) { statement.bind(self, at: index) }
}

extension Array: SQLiteBindable where Element == UInt8 {
    func bind(to statement: SQLiteStatement, at index: Int32) {
        withUnsafeBufferPointer { statement.bindBlob($0, at: index) }
    }
}

extension Array where Element == (any SQLiteBindable)? {
    /// Arguments from a sequence of values of one type (`ids.map(\.lowercased)`).
    init<S: Sequence>(values: S) where S.Element: SQLiteBindable {
        self = values.map { (value: S.Element) -> (any SQLiteBindable)? in value }
    }
}
