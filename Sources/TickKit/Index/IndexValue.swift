import FoundationEssentials

/// One column of the index's `tasks` table that a field's value is stored in.
struct IndexColumn: Sendable, Equatable {
    let name: String
    /// Its SQL type: `TEXT`, `INTEGER` or `REAL`.
    let type: String
    /// Set on every row (a value that is never unset).
    var notNull = false
    /// Selected by task queries: false for a column kept only for queries
    /// to compare (a date's day number beside its file form).
    var read = true
    /// What the column holds, for the schema's readers.
    var comment: String?

    /// Its line in `CREATE TABLE tasks`; `separator` (a comma, or nothing
    /// for the last line) goes before the comment.
    func declaration(_ separator: String) -> String {
        let head = name + " " + type + (notNull ? " NOT NULL" : "") + separator
        guard let comment else { return head }
        return head + String(repeating: " ", count: max(1, 28 - head.count)) + "-- " + comment
    }
}

/// A value the index stores in a `tasks` row under a field's columns and
/// reads back (``TaskField/index``): a field whose type conforms needs
/// nothing in ``RowWriter``, ``RowReader`` or ``IndexSchema``.
protocol IndexValue: Sendable {
    /// The columns a field of this type stores under the base name `base`.
    static func indexColumns(_ base: String) -> [IndexColumn]
    /// Hands the value's column values to `v`, numbered from `first` (the
    /// insert parameter of the first of ``indexColumns(_:)``).
    func visitIndex(_ first: Int32, into v: inout ColumnBinder)
    /// The value from a row whose first read column (the first of
    /// ``indexColumns(_:)`` with `read`) is `first`; nil when the row cannot
    /// hold it (the task is then not read).
    static func readIndex(_ row: RowReader, _ first: Int32) -> Self?
}

/// Unset is NULL in every column.
extension Optional: IndexValue where Wrapped: IndexValue {
    static func indexColumns(_ base: String) -> [IndexColumn] {
        Wrapped.indexColumns(base).map { var c = $0; c.notNull = false; return c }
    }

    func visitIndex(_ first: Int32, into v: inout ColumnBinder) {
        self?.visitIndex(first, into: &v)
    }

    /// NULL, or a value the type does not read (a hand-made row), is unset.
    static func readIndex(_ row: RowReader, _ first: Int32) -> Wrapped?? {
        .some(Wrapped.readIndex(row, first))
    }
}

extension String: IndexValue {
    static func indexColumns(_ base: String) -> [IndexColumn] { [IndexColumn(name: base, type: "TEXT", notNull: true)] }
    func visitIndex(_ first: Int32, into v: inout ColumnBinder) { v.text(first, self) }
    static func readIndex(_ row: RowReader, _ first: Int32) -> String? { row.text(first) }
}

/// Whole minutes.
extension Int: IndexValue {
    static func indexColumns(_ base: String) -> [IndexColumn] {
        [IndexColumn(name: base, type: "INTEGER", notNull: true, comment: "minutes")]
    }

    func visitIndex(_ first: Int32, into v: inout ColumnBinder) { v.int(first, Int64(self)) }
    static func readIndex(_ row: RowReader, _ first: Int32) -> Int? { row.int(first) }
}

/// An instant: seconds since the reference date, in `BASE_ts`.
extension Date: IndexValue {
    static func indexColumns(_ base: String) -> [IndexColumn] {
        [IndexColumn(name: base + "_ts", type: "REAL", notNull: true, comment: "seconds since the reference date")]
    }

    func visitIndex(_ first: Int32, into v: inout ColumnBinder) { v.double(first, timeIntervalSinceReferenceDate) }

    static func readIndex(_ row: RowReader, _ first: Int32) -> Date? {
        row.double(first).map(Date.init(timeIntervalSinceReferenceDate:))
    }
}

/// A day: days since 1970-01-01, in `BASE_day`.
extension LocalDate: IndexValue {
    static func indexColumns(_ base: String) -> [IndexColumn] {
        [IndexColumn(name: base + "_day", type: "INTEGER", notNull: true, comment: "days since 1970-01-01")]
    }

    func visitIndex(_ first: Int32, into v: inout ColumnBinder) { v.int(first, Int64(daysSinceEpoch)) }
    static func readIndex(_ row: RowReader, _ first: Int32) -> LocalDate? { row.int(first).map(LocalDate.init(daysSinceEpoch:)) }
}

/// A day or an instant: its file form (what is read back), and beside it
/// the day number or the instant for queries to compare (`due_day > ?`).
extension TaskDate: IndexValue {
    static func indexColumns(_ base: String) -> [IndexColumn] {
        [
            IndexColumn(name: base, type: "TEXT", notNull: true, comment: "file form"),
            IndexColumn(name: base + "_day", type: "INTEGER", read: false, comment: "all-day: days since 1970-01-01"),
            IndexColumn(name: base + "_ts", type: "REAL", read: false, comment: "timed: seconds since the reference date"),
        ]
    }

    func visitIndex(_ first: Int32, into v: inout ColumnBinder) {
        v.text(first, fileString)
        switch self {
        case .day(let d): v.int(first + 1, Int64(d.daysSinceEpoch))
        case .time(let t): v.double(first + 2, t.timeIntervalSinceReferenceDate)
        }
    }

    static func readIndex(_ row: RowReader, _ first: Int32) -> TaskDate? { row.text(first).flatMap(TaskDate.init(fileString:)) }
}

/// A word of a closed set, by its raw value.
extension IndexValue where Self: RawRepresentable & CaseIterable, RawValue == String {
    static func indexColumns(_ base: String) -> [IndexColumn] { [IndexColumn(name: base, type: "TEXT", notNull: true)] }
    func visitIndex(_ first: Int32, into v: inout ColumnBinder) { v.text(first, rawValue) }
    static func readIndex(_ row: RowReader, _ first: Int32) -> Self? { row.text(first).flatMap(Self.init(rawValue:)) }
}

/// Read on its bytes: every listed row has one, and no String is made for it.
extension TaskState: IndexValue {
    static func readIndex(_ row: RowReader, _ first: Int32) -> TaskState? { row.state(first) }
}

extension Priority: IndexValue {}
extension Energy: IndexValue {}

/// Its day, start and length; its unknown keys as a JSON object (or NULL).
extension TaskSlot: IndexValue {
    static func indexColumns(_ base: String) -> [IndexColumn] {
        [
            IndexColumn(name: base + "_day", type: "INTEGER", notNull: true, comment: "days since 1970-01-01"),
            IndexColumn(name: base + "_start", type: "INTEGER", notNull: true, comment: "wall-clock minutes since midnight"),
            IndexColumn(name: base + "_minutes", type: "INTEGER", notNull: true),
            IndexColumn(name: base + "_extra", type: "TEXT", comment: "unknown keys of the object as JSON, or NULL"),
        ]
    }

    func visitIndex(_ first: Int32, into v: inout ColumnBinder) {
        v.int(first, Int64(day.daysSinceEpoch))
        v.int(first + 1, Int64(start.minutes))
        v.int(first + 2, Int64(minutes))
        if let json = RowWriter.json(extra) { v.text(first + 3, json) }
    }

    static func readIndex(_ row: RowReader, _ first: Int32) -> TaskSlot? {
        guard let day = row.int(first), let startMinutes = row.int(first + 1), let start = ClockTime(minutes: startMinutes),
              let length = row.int(first + 2) else { return nil }
        return TaskSlot(day: LocalDate(daysSinceEpoch: day), start: start, minutes: length, extra: row.members(first + 3))
    }
}
