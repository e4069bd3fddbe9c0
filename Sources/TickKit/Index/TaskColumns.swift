/// The `tasks` columns the index writes and reads, by name: the insert's
/// parameters and the select's result columns are numbered from these
/// lists, never by hand. A row's own columns come first; then each field's
/// (``TaskField/index``), in the table's order.
enum TaskColumns {
    /// Columns of a row that are not a field's.
    static let bookkeeping = ["id", "chash", "path", "position"]

    /// What a task query reads besides the fields' columns.
    static let readBookkeeping = ["id", "path", "short", "position"]

    /// The fields the index stores, each with the insert parameter of its
    /// first column and the result column of its first read column.
    static let fields: [(field: TaskField, coding: FieldIndexCoding, parameter: Int32, result: Int32)] = {
        var out: [(TaskField, FieldIndexCoding, Int32, Int32)] = []
        var parameter = Int32(bookkeeping.count + 1), result = Int32(readBookkeeping.count)
        for field in TaskField.all {
            guard let coding = field.index else { continue }
            out.append((field, coding, parameter, result))
            parameter += Int32(coding.columns.count)
            result += Int32(coding.readColumns.count)
        }
        return out
    }()

    /// Reads every field of a row onto a task; false when the row cannot
    /// hold one (``RowReader/task()``).
    static let readRow = chain(fields.map { ($0.coding, $0.result) })

    /// Binds (and hashes) every field of a task (``RowWriter/visitColumns(of:id:into:)``).
    static let visitRow: @Sendable (TaskItem, inout ColumnBinder) -> Void = {
        var chain: @Sendable (TaskItem, inout ColumnBinder) -> Void = { _, _ in }
        for field in fields.reversed() {
            let visit = field.coding.visit, parameter = field.parameter, next = chain
            chain = { task, binder in
                visit(task, parameter, &binder)
                next(task, &binder)
            }
        }
        return chain
    }()

    /// The field readers, each at its result column, as one function: each
    /// calls the next from its own context. A loop over an array of them
    /// retained and released every field's closure on every row (a twentieth
    /// of a listing of 50,000 tasks).
    /// (A closure is taken from its coding, not kept in a tuple or an
    /// array of its own: that would call it through a reabstraction thunk.)
    static func chain(_ readers: [(coding: FieldIndexCoding, result: Int32)]) -> @Sendable (inout TaskItem, RowReader) -> Bool {
        var chain: @Sendable (inout TaskItem, RowReader) -> Bool = { _, _ in true }
        for reader in readers.reversed() {
            let read = reader.coding.read, result = reader.result, next = chain
            chain = { task, row in read(&task, row, result) && next(&task, row) }
        }
        return chain
    }

    /// The insert's columns, in parameter order.
    static let insert = bookkeeping + fields.flatMap { $0.coding.columns.map(\.name) }

    /// The columns every task query selects, in result order (the blocked
    /// flag follows them).
    static let read = readBookkeeping + fields.flatMap { $0.coding.readColumns.map(\.name) }

    /// The 1-based insert parameter of `name`.
    static func parameter(_ name: String) -> Int32 {
        guard let i = insert.firstIndex(of: name) else { preconditionFailure("no index column \(name)") }
        return Int32(i + 1)
    }

    /// The 0-based result column of `name` in ``read``.
    static func result(_ name: String) -> Int32 {
        guard let i = read.firstIndex(of: name) else { preconditionFailure("no index column \(name)") }
        return Int32(i)
    }
}
