import FoundationEssentials

/// How filters take a field whose value is a number (a duration in whole
/// minutes, `estimate`) (``TaskField/numberFilter``): `KEY:N`,
/// `KEY.over:N`, `KEY.under:N`, `KEY.any:` and `KEY.none:`, as a declared
/// number or duration field is taken.
struct FieldNumberFilter: Sendable {
    /// The filter key (`estimate`); other spellings are ``FieldNames/aliases``.
    let key: String
    /// What a value is, in errors (`duration`, as a declared field's type is named).
    let typeName: String
    /// A value to show in an error that asks for one (`45m`).
    let example: String
    /// Reads a filter's value, named in the error as `key` was typed.
    let parse: @Sendable (_ text: String, _ key: String, _ parser: FieldParser) throws(InputError) -> Double
    /// The task's value, nil when unset.
    let value: @Sendable (TaskItem) -> Double?

    /// Whole minutes, typed as a duration (`estimate.over:1h`).
    static func minutes(_ key: String, _ path: WritableKeyPath<TaskItem, Int?> & Sendable) -> FieldNumberFilter {
        let stored = TaskProperty(path)
        return FieldNumberFilter(
            key: key, typeName: "duration", example: Int.inputExample,
            parse: { text, key, parser throws(InputError) in Double(try Int.parse(text, key: key, parser)) },
            value: { stored.get($0).map(Double.init) })
    }
}

extension FilterTerm {
    /// A field of a number a filter term tests (`estimate.over:30m`), from
    /// the field table: each field with a ``TaskField/numberFilter`` is one.
    public struct NumberField: Sendable, Hashable, RawRepresentable, CustomStringConvertible {
        /// The filter key.
        public let rawValue: String
        let filter: FieldNumberFilter
        /// The index column holding the number.
        let column: String

        public init?(rawValue: String) {
            guard let field = Self.byKey[rawValue] else { return nil }
            self = field
        }

        init?(_ field: TaskField) {
            guard let filter = field.numberFilter, let column = field.indexColumns.first else { return nil }
            rawValue = filter.key
            self.filter = filter
            self.column = column
        }

        /// Every number field of the table, by filter key.
        static let byKey: [String: NumberField] = Dictionary(
            TaskField.all.compactMap { NumberField($0) }.map { ($0.rawValue, $0) }, uniquingKeysWith: { first, _ in first })
        /// The filter keys of the number fields, in the table's order.
        static let keys: [String] = TaskField.all.compactMap { $0.numberFilter?.key }

        public var description: String { rawValue }
        public static func == (a: NumberField, b: NumberField) -> Bool { a.rawValue == b.rawValue }
        public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
    }
}
