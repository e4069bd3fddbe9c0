import FoundationEssentials

/// A task's date as a filter compares it (``DateTestEvaluator``): each of the
/// table's date fields can be read as one.
protocol FilterDate: Sendable {
    var filterValue: DateTestEvaluator.Value? { get }
}

extension TaskDate: FilterDate {
    var filterValue: DateTestEvaluator.Value? {
        switch self {
        case .day(let d): return .day(d)
        case .time(let t): return .instant(t)
        }
    }
}

extension LocalDate: FilterDate {
    var filterValue: DateTestEvaluator.Value? { .day(self) }
}

extension Date: FilterDate {
    var filterValue: DateTestEvaluator.Value? { .instant(self) }
}

extension Optional: FilterDate where Wrapped: FilterDate {
    var filterValue: DateTestEvaluator.Value? { self?.filterValue }
}

/// How filters take a date field of the table (``TaskField/dateFilter``):
/// `KEY:WHEN`, `KEY.before:`, `.after:`, `.by:`, `.any`, `.none`.
struct FieldDateFilter: Sendable {
    /// The filter key (`due`, `sched`, `completed`); other spellings are ``FieldNames/aliases``.
    let key: String
    /// The field's date in a task.
    let value: @Sendable (TaskItem) -> DateTestEvaluator.Value?

    static func date<V: FilterDate>(_ key: String, _ path: WritableKeyPath<TaskItem, V> & Sendable) -> FieldDateFilter {
        let stored = TaskProperty(path)
        return FieldDateFilter(key: key, value: { stored.get($0).filterValue })
    }
}

extension FilterTerm {
    /// A date field a filter term tests, from the field table: each field
    /// with a ``TaskField/dateFilter`` is one, compared in Swift by its
    /// value and in the index by its columns.
    public struct DateField: Sendable, Hashable, RawRepresentable, CustomStringConvertible {
        /// The filter key.
        public let rawValue: String
        /// The field's date in a task.
        let value: @Sendable (TaskItem) -> DateTestEvaluator.Value?
        /// The index columns that hold it as days since 1970 (`due_day`) and
        /// as seconds (`due_ts`), and the one column that is NULL when it is unset.
        let dayColumn: String?, instantColumn: String?, setColumn: String
        /// True for a date that lies behind (completion, creation, change):
        /// its WHEN words read back in time.
        let isPast: Bool

        public init?(rawValue: String) {
            guard let field = Self.byKey[rawValue] else { return nil }
            self = field
        }

        init?(_ field: TaskField) {
            guard let filter = field.dateFilter, let first = field.indexColumns.first else { return nil }
            rawValue = filter.key
            value = filter.value
            dayColumn = field.indexColumns.first { $0.hasSuffix("_day") }
            instantColumn = field.indexColumns.first { $0.hasSuffix("_ts") }
            setColumn = first
            isPast = field.mergeRule == .bookkeeping
        }

        /// Every date field of the table, by filter key.
        static let byKey: [String: DateField] = Dictionary(
            TaskField.all.compactMap { DateField($0) }.map { ($0.rawValue, $0) }, uniquingKeysWith: { first, _ in first })
        /// The filter keys of the date fields, in the table's order.
        static let keys: [String] = TaskField.all.compactMap { $0.dateFilter?.key }

        /// The date fields the filters' own rules name (a `completed:` term
        /// looks at done tasks, a `wait:` term at waiting ones).
        public static let due = named("due"), sched = named("sched"), remind = named("remind")
        public static let wait = named("wait"), completed = named("completed")

        /// The table's date field `key`; for a key the table lacks (which
        /// `TaskFieldTests` refuses), a field no task has.
        private static func named(_ key: String) -> DateField {
            byKey[key] ?? DateField(rawValue: key, value: { _ in nil }, dayColumn: nil, instantColumn: nil, setColumn: "NULL", isPast: false)
        }

        private init(rawValue: String, value: @escaping @Sendable (TaskItem) -> DateTestEvaluator.Value?,
                     dayColumn: String?, instantColumn: String?, setColumn: String, isPast: Bool) {
            self.rawValue = rawValue
            self.value = value
            self.dayColumn = dayColumn
            self.instantColumn = instantColumn
            self.setColumn = setColumn
            self.isPast = isPast
        }

        public var description: String { rawValue }

        public static func == (a: DateField, b: DateField) -> Bool { a.rawValue == b.rawValue }
        public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
    }
}
