import FoundationEssentials

/// A declared field's value (``UserField``) as todo.txt and CSV write it, and
/// back (Docs/FIELDS.md "Formats"; Taskwarrior's is ``TaskwarriorUDA``).
///
/// - todo.txt, `NAME:WORD`, as tick's own extension keys: a day `2026-12-01`,
///   a time `20261201T093000Z` (todo.txt values hold no `:`), a duration in
///   minutes `90m` (as `estimate:`), a number as stored, a string or a value
///   as it is. A string that is not one todo.txt word (a space, a `:`, a
///   leading `/`) has no todo.txt form: it is not written, and a re-import
///   keeps the store's value, as for every field a line does not say.
/// - CSV, a column `NAME`: the value as the task file stores it: a day or a
///   timestamp (`2026-12-01`, `2026-12-01T09:30:00Z`), a duration in minutes
///   (as `estimate`), a number, the text.
///
/// Only a value of the field's type (``UserField/isWellTyped(_:)``) is
/// written; another (a hand edit) stays in the store, which a re-import keeps.
enum UserFieldCells {
    // MARK: todo.txt

    /// The todo.txt word for `value`, or nil when it has none.
    static func word(_ value: JSONNode, for field: UserField) -> String? {
        guard field.isWellTyped(value) else { return nil }
        switch (field.kind, value.kind) {
        case (.date, .string(let s)):
            switch TaskDate(fileString: s) {
            case .day(let d)?: return d.iso
            case .time(let t)?: return TodoTxtCodec.basicTimestamp(t)
            case nil: return nil
            }
        case (.duration, .number(let literal)): return literal + "m"
        case (.number, .number(let literal)): return literal
        case (_, .string(let s)):
            return TodoTxtCodec.word(s, key: field.name)
        default: return nil
        }
    }

    /// The stored value for a todo.txt `word`: only one that ``word(_:for:)``
    /// writes back the same; nil for any other (kept as an unknown key).
    static func stored(word: String, for field: UserField) -> JSONNode? {
        let value: JSONNode?
        switch field.kind {
        case .date:
            if let d = LocalDate(iso: word) {
                value = .string(d.iso)
            } else {
                value = TodoTxtCodec.basicTimestamp(word).map { .string(Timestamp.format($0)) }
            }
        case .duration:
            value = word.hasSuffix("m") ? Int(word.dropLast()).map { JSONNode(.number(String($0))) } : nil
        case .number:
            value = UserField.numberText(word).map { JSONNode(.number($0)) }
        case .string, .values:
            value = .string(word)
        }
        guard let value, self.word(value, for: field) == word else { return nil }
        return value
    }

    // MARK: CSV

    /// The CSV cell for `value`: empty when it is not of the field's type.
    static func cell(_ value: JSONNode, for field: UserField) -> String {
        guard field.isWellTyped(value) else { return "" }
        switch value.kind {
        case .string(let s): return s
        case .number(let literal): return literal
        default: return ""
        }
    }

    /// The stored value for a CSV cell (not empty), or a message saying what
    /// the column takes: a date or timestamp, minutes or a duration (`45m`,
    /// `1h30m`), a number, one line of text, one of the values (any case).
    static func stored(cell: String, for field: UserField) -> Result<JSONNode, ImportError.Message> {
        let text = cell.trimmingWhitespace()
        switch field.kind {
        case .date:
            guard let date = TaskDate(fileString: text) else {
                return .failure(.init("\(field.name) is not a date (YYYY-MM-DD) or timestamp: \"\(cell)\""))
            }
            return .success(.string(date.fileString))
        case .duration:
            guard let minutes = Int(text) ?? DurationText.parse(text), minutes > 0 else {
                return .failure(.init("\(field.name) must be minutes (45) or a duration (45m, 1h30m), found \"\(cell)\""))
            }
            return .success(JSONNode(.number(String(minutes))))
        case .number:
            guard let number = UserField.numberText(text) else { return .failure(.init("\(field.name) is not a number: \"\(cell)\"")) }
            return .success(JSONNode(.number(number)))
        case .string:
            if let problem = TextRules.fieldTextProblem(cell) { return .failure(.init("\(field.name): \(problem)")) }
            return .success(.string(cell))
        case .values(let allowed):
            guard let match = allowed.first(where: { $0.lowercased() == text.lowercased() }) else {
                return .failure(.init("\(field.name) must be one of \(allowed.joined(separator: ", ")), found \"\(cell)\""))
            }
            return .success(.string(match))
        }
    }
}

extension ImportError {
    /// The message of an import error whose place the caller knows.
    struct Message: Error {
        let text: String
        init(_ text: String) { self.text = text }
    }
}
