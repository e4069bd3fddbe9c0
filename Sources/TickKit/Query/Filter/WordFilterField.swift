import FoundationEssentials

/// A word of a closed set that a filter term names (`pri:must`, `energy:low`).
protocol FilterWord: RawRepresentable<String>, CaseIterable, Sendable, Equatable {
    /// The value a filter's word names (lowercased), nil for none.
    static func filterWord(_ text: String) -> Self?
    /// What a value is called in an error: "a priority".
    static var filterNoun: String { get }
    /// What the error adds after the words it lists.
    static var filterHint: String { get }
}

extension FilterWord {
    static func filterWord(_ text: String) -> Self? { Self(rawValue: text) }
    static var filterHint: String { "" }
}

extension Priority: FilterWord {
    static func filterWord(_ text: String) -> Priority? { Priority(rawValue: text) ?? Priority.taskwarrior(text) }
    static var filterNoun: String { "a priority" }
    static var filterHint: String { " (or Taskwarrior's H, M, L)" }
}

extension Energy: FilterWord {
    static var filterNoun: String { "an energy" }
}

/// How filters take a field whose value is one word of a closed set
/// (``TaskField/wordFilter``): `KEY:WORD` and `KEY:none`.
struct FieldWordFilter: Sendable {
    /// The filter key (`pri`); other spellings are ``FieldNames/aliases``.
    let key: String
    /// The word a filter's value names (lowercased), nil for none of the set.
    let parse: @Sendable (String) -> String?
    /// The task's word, nil when unset.
    let value: @Sendable (TaskItem) -> String?
    /// The change that sets the field to a word (a write context's term).
    let set: @Sendable (String) -> FieldEdit?
    /// The error for a value that is none of the set.
    let refusal: @Sendable (_ typed: String) -> String
    /// A word to show in an error that asks for one.
    let example: String

    static func word<V: FilterWord & InputValue>(_ key: String, _ path: WritableKeyPath<TaskItem, V?> & Sendable) -> FieldWordFilter {
        let stored = TaskProperty(path)
        let words = V.allCases.map(\.rawValue).joined(separator: ", ")
        return FieldWordFilter(
            key: key, parse: { V.filterWord($0)?.rawValue }, value: { stored.get($0)?.rawValue },
            set: { word in V(rawValue: word).map { FieldEdit(.set($0), at: path) } },
            refusal: { "\(key):\($0) is not \(V.filterNoun); give \(words) or none\(V.filterHint)" }, example: V.inputExample)
    }
}

extension FilterTerm {
    /// A field of one word a filter term tests (`pri:`, `energy:`), from the
    /// field table: each field with a ``TaskField/wordFilter`` is one.
    public struct WordField: Sendable, Hashable, RawRepresentable, CustomStringConvertible {
        /// The filter key.
        public let rawValue: String
        let filter: FieldWordFilter
        /// The index column holding the word.
        let column: String

        public init?(rawValue: String) {
            guard let field = Self.byKey[rawValue] else { return nil }
            self = field
        }

        init?(_ field: TaskField) {
            guard let filter = field.wordFilter, let column = field.indexColumns.first else { return nil }
            rawValue = filter.key
            self.filter = filter
            self.column = column
        }

        /// Every word field of the table, by filter key.
        static let byKey: [String: WordField] = Dictionary(
            TaskField.all.compactMap { WordField($0) }.map { ($0.rawValue, $0) }, uniquingKeysWith: { first, _ in first })
        /// The filter keys of the word fields, in the table's order.
        static let keys: [String] = TaskField.all.compactMap { $0.wordFilter?.key }

        public var description: String { rawValue }
        public static func == (a: WordField, b: WordField) -> Bool { a.rawValue == b.rawValue }
        public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
    }
}
