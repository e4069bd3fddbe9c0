import FoundationEssentials

/// A field the user declared in config.toml (`[fields.NAME]`, Docs/CLI.md
/// "User-defined fields"): its name, the type of its values, a label and a
/// default. Its value is stored in the task file under the key ``name``,
/// among the task's unknown keys (``TaskItem/extra``), so declaring or
/// removing a field never rewrites a file, and the value merges per key
/// with its change stamp like any unknown key (``TaskField/MergeRule/unknownKeys``).
///
/// What the codecs need (the phone's `X-` property, Taskwarrior UDAs,
/// todo.txt, CSV) is here: ``name``, ``kind``, ``text(of:)`` (a stored value
/// as text) and ``parse(_:with:)`` / ``stored(fromText:)`` (text back into a
/// stored value).
public struct UserField: Sendable, Equatable {
    /// The type of a declared field's values, and how each is stored.
    public enum Kind: Sendable, Equatable {
        /// Free text, stored as a JSON string.
        case string
        /// A number, stored as a JSON number (its text kept as typed: `3`, `2.5`).
        case number
        /// A day or a day and time, stored as `due` is: `"2026-11-28"` or a timestamp.
        case date
        /// A length of time, stored as `estimate` is: whole minutes, a JSON number.
        case duration
        /// One of a closed set, stored as a JSON string spelled as declared.
        case values([String])

        /// The name of the type as config.toml spells it (`type = "…"`).
        public var typeName: String {
            switch self {
            case .string: return "string"
            case .number: return "number"
            case .date: return "date"
            case .duration: return "duration"
            case .values: return "values"
            }
        }

        /// The type names config.toml takes.
        public static let typeNames = ["string", "number", "date", "duration", "values"]
    }

    /// The key in config.toml, in the task file and on the command line (`NAME:value`).
    public let name: String
    public let kind: Kind
    /// How `tick show` names it; nil: ``name``.
    public let label: String?
    /// The default as written in config.toml, applied (parsed then, with the
    /// command's clock) on `tick add` when the words do not set the field.
    public let defaultText: String?

    public init(name: String, kind: Kind, label: String? = nil, defaultText: String? = nil) {
        self.name = name
        self.kind = kind
        self.label = label
        self.defaultText = defaultText
    }

    /// The label, else the name.
    public var displayName: String { label ?? name }

    /// The stored value of this field in `task`, or nil when it has none.
    public func value(in task: TaskItem) -> JSONNode? {
        task.extra.first { $0.key == name }?.value
    }

    /// Parses a value as typed on the command line into what the task file
    /// stores: a date with WHEN words (`fri`, `2026-12-01`, `tomorrow 9am`),
    /// a duration with tick's duration grammar (`45m`, `1h30m`, `90`), a
    /// number as decimal text, one of the declared values case-insensitively
    /// (a near miss is named: "did you mean …?").
    public func parse(_ text: String, with fields: FieldParser) throws(InputError) -> JSONNode {
        switch kind {
        case .string:
            guard !text.isEmpty else { throw .invalid("\(name): needs a value, e.g. \(name):text") }
            if let problem = TextRules.fieldTextProblem(text) { throw .invalid("\(name): \(problem)") }
            return .string(text)
        case .number:
            guard let number = Self.numberText(text) else {
                throw .invalid("\(name): \"\(text)\" is not a number; use digits like 3, -2 or 2.5")
            }
            return JSONNode(.number(number))
        case .date:
            return .string(try fields.due(text, key: name).fileString)
        case .duration:
            return JSONNode(.number(String(try fields.estimate(text, key: name))))
        case .values(let allowed):
            let lower = text.lowercased()
            if let match = allowed.first(where: { $0.lowercased() == lower }) { return .string(match) }
            var message = "\(name): \"\(text)\" is not one of \(allowed.joined(separator: ", "))"
            if let guess = Spelling.closest(to: lower, among: allowed.map { $0.lowercased() }),
               let spelled = allowed.first(where: { $0.lowercased() == guess }) {
                message += " (did you mean \(spelled)?)"
            }
            throw .invalid(message)
        }
    }

    /// A stored value as text, for display and for the text formats (CSV,
    /// todo.txt, an `X-` property): a string as it is, a number's literal,
    /// a duration as tick writes one (`1h30m`), a date as stored. A value of
    /// another JSON type than the field's (a hand edit) is its JSON text.
    public func text(of value: JSONNode) -> String {
        switch (kind, value.kind) {
        case (.duration, .number(let literal)):
            if let minutes = Int(literal), minutes > 0 { return DurationText.format(minutes) }
            return literal
        case (_, .string(let s)): return s
        case (_, .number(let literal)): return literal
        default:
            var bytes: [UInt8] = []
            JSONWriter.write(value, indent: 0, into: &bytes)
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// True when `value` has the JSON form this field stores (a hand edit may
    /// leave another; it is kept and shown as it is, never rewritten).
    public func isWellTyped(_ value: JSONNode) -> Bool {
        switch (kind, value.kind) {
        case (.string, .string): return true
        case (.number, .number): return true
        case (.duration, .number(let literal)): return Int(literal).map { $0 > 0 } ?? false
        case (.date, .string(let s)): return TaskDate(fileString: s) != nil
        case (.values(let allowed), .string(let s)): return allowed.contains(s)
        default: return false
        }
    }

    /// Text from another tool (an import, the phone) into a stored value:
    /// as ``parse(_:with:)`` but without a clock, so a date must be a day
    /// (`2026-11-28`) or a timestamp; nil when it does not parse.
    public func stored(fromText text: String) -> JSONNode? {
        switch kind {
        case .date:
            return TaskDate(fileString: text).map { .string($0.fileString) }
        default:
            return try? parse(text, with: FieldParser(now: Self.referenceInstant, timeZone: .utc))
        }
    }

    /// The text of a JSON number typed on the command line (`3`, `-2`, `2.5`,
    /// `.5` read as `0.5`), or nil.
    static func numberText(_ text: String) -> String? {
        var body = Substring(text.trimmingWhitespace())
        var sign = ""
        if body.first == "-" {
            sign = "-"
            body = body.dropFirst()
        } else if body.first == "+" {
            body = body.dropFirst()
        }
        let parts = body.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let isDigits: (Substring) -> Bool = { !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }
        guard let whole = parts.first, parts.count == 1 || isDigits(parts[1]), isDigits(whole) || (whole.isEmpty && parts.count == 2) else {
            return nil
        }
        var integer = whole.drop { $0 == "0" }
        if integer.isEmpty { integer = "0" }
        let fraction = parts.count == 2 ? "." + parts[1] : ""
        return sign + integer + fraction
    }

    /// The instant a default is checked against when config.toml is read
    /// (it is parsed again, with the command's clock, when applied): any
    /// fixed day does, since only the words' syntax is checked then.
    static let referenceInstant = Date(timeIntervalSince1970: 1_767_225_600)   // 2026-01-01T00:00:00Z
}
