/// The `tasks` columns the index writes and reads, by name: the insert's
/// parameters and the select's result columns are numbered from these lists,
/// never by hand. The fields' columns are ``TaskField/indexColumns``; the
/// lists keep the order rows have always been hashed in (``RowWriter/contentHash(_:id:)``
/// numbers values by parameter), and a test checks they hold exactly the
/// registry's columns.
enum TaskColumns {
    /// Columns of a row that are not a field's.
    static let bookkeeping = ["id", "chash", "path", "position"]

    /// The insert's columns, in parameter order.
    static let insert = [
        "id", "chash", "path", "position", "title", "state", "due", "due_day", "due_ts", "scheduled_day", "remind_ts",
        "repeat", "priority", "energy", "tags", "notes", "created_ts", "modified_ts", "completed_ts", "extra",
        "estimate", "slot_day", "slot_start", "slot_minutes", "slot_extra", "wait", "wait_day", "wait_ts", "depends",
    ]

    /// What a task query reads besides the fields' columns.
    static let readBookkeeping = ["id", "path", "short", "position"]

    /// The columns every task query selects, in result order (the blocked
    /// flag follows them).
    static let read = [
        "id", "title", "state", "due", "scheduled_day", "remind_ts", "repeat", "priority", "energy", "tags", "notes",
        "created_ts", "modified_ts", "completed_ts", "extra", "path", "short", "position", "estimate", "slot_day",
        "slot_start", "slot_minutes", "slot_extra", "wait", "depends",
    ]

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
