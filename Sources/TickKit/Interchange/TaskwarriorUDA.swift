import FoundationEssentials
import Glibc

/// A declared field (``UserField``) as a Taskwarrior UDA attribute, both ways
/// (Docs/FIELDS.md "Formats"): a date as Taskwarrior's `20301201T000000Z` (a
/// day as its local midnight, as `due`), a duration as Taskwarrior's ISO 8601
/// period (`PT1H30M`, `P1DT1H`), a number as a JSON number (read back
/// without the zeros Taskwarrior's `%f` adds: `3.000000` is `3`), a string or
/// one of a set of values as a JSON string.
///
/// A value comes in typed only when it goes back out byte for byte the same;
/// any other (a duration of seconds, `PT90M`, a value not in the set, a date
/// of another spelling) is kept as it came, verbatim, like a hand-edited
/// value of the wrong type, and written back as it is.
enum TaskwarriorUDA {
    /// Taskwarrior's own attributes (and tick's `tick…` ones): a declared
    /// field may not take these names (``UserFields/reservedNames``).
    static let attributes: Set<String> = Set([
        "uuid", "id", "description", "status", "project", "tags", "entry", "modified", "end", "start",
        "due", "scheduled", "wait", "until", "recur", "mask", "imask", "parent", "rtype", "depends",
        "priority", "annotations", "urgency", "template", "last",
        "tickremind", "tickrepeat",
    ] + TaskwarriorCodec.ownTextAttributes.map(\.key))

    /// The stored value for a UDA attribute's `node` (``UserField/value(in:)``'s form).
    static func stored(_ node: JSONNode, for field: UserField, timeZone: Zone) -> JSONNode {
        let typed: JSONNode? = switch (field.kind, node.kind) {
        case (.string, .string): node
        case (.values(let allowed), .string(let s)): allowed.contains(s) ? node : nil
        case (.number, .number(let literal)): JSONNode(.number(taskwarriorNumber(literal)))
        case (.date, .string(let s)): TaskwarriorCodec.parseDate(s).map { instant in
            let day = LocalDate(date: instant, timeZone: timeZone)
            return .string(day.startOfDay(in: timeZone) == instant ? day.iso : Timestamp.format(instant))
        }
        case (.duration, .string(let s)): minutes(fromPeriod: s).map { JSONNode(.number(String($0))) }
        default: nil
        }
        let plain = JSONNode(node.kind)
        if case .number = field.kind, let typed { return typed }   // Taskwarrior writes every number as `%f`
        guard let typed, attribute(typed, for: field, timeZone: timeZone) == plain else { return plain }
        return JSONNode(typed.kind)
    }

    /// A number as Taskwarrior's `task export` writes a numeric UDA (`printf`'s
    /// `%f`: `3` → `3.000000`, `2.5` → `2.500000`) without the zeros it added:
    /// `3`, `2.5`, as tick stores a number typed so. Other literals are as they came.
    /// How Taskwarrior 2.6 writes the number `literal` back (`%f`), in
    /// tick's spelling (``taskwarriorNumber(_:)``); nil for no number.
    static func printedByTaskwarrior(_ literal: String) -> String? {
        guard let number = Double(literal), number.isFinite else { return nil }
        var buffer = [CChar](repeating: 0, count: 400)
        let count = withVaList([number]) { vsnprintf(&buffer, buffer.count, "%f", $0) }
        guard count > 0, count < buffer.count else { return nil }
        return taskwarriorNumber(String(decoding: buffer.prefix(Int(count)).map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    static func taskwarriorNumber(_ literal: String) -> String {
        guard literal.contains("."), literal.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") || (0x30...0x39).contains($0) })
        else { return literal }
        var text = Substring(literal)
        while text.last == "0" { text = text.dropLast() }
        if text.last == "." { text = text.dropLast() }
        return text == "-0" ? "0" : String(text)
    }

    /// True when Taskwarrior keeps `value` as ``attribute(_:for:timeZone:)``
    /// writes it: a value of the field's type, or text Taskwarrior holds as
    /// it is (a string for a string, a set or a duration; its own date
    /// spelling for a date). Taskwarrior 2.6 turns any other into something
    /// else (`7` in a string UDA into `"7.000000"`), writes a JSON file it
    /// cannot read back (`"many"` in a numeric one) or dies on import (a
    /// date UDA that holds no date): such a value is not exported, and a
    /// re-import keeps the store's (``TaskwarriorCodec/reconcile``).
    /// A number is held when Taskwarrior's `%f` prints it back the same:
    /// at most six decimals, and no more digits than a double keeps
    /// (`0.1234567` comes back `0.123457`).
    static func holds(_ value: JSONNode, for field: UserField) -> Bool {
        if case .number = field.kind, case .number(let literal) = value.kind {
            return printedByTaskwarrior(literal) == literal
        }
        if field.isWellTyped(value) { return true }
        switch (field.kind, value.kind) {
        case (.string, .string), (.values, .string), (.duration, .string): return true
        case (.date, .string(let s)): return TaskwarriorCodec.parseDate(s) != nil
        default: return false
        }
    }

    /// The UDA attribute for a stored `value`; a value not of the field's
    /// type (``UserField/isWellTyped(_:)``) goes out as it is.
    static func attribute(_ value: JSONNode, for field: UserField, timeZone: Zone) -> JSONNode {
        let plain = JSONNode(value.kind)
        guard field.isWellTyped(value) else { return plain }
        switch (field.kind, value.kind) {
        case (.date, .string(let s)):
            switch TaskDate(fileString: s) {
            case .day(let d)?: return .string(TaskwarriorCodec.formatDate(d.startOfDay(in: timeZone)))
            case .time(let t)?: return .string(TaskwarriorCodec.formatDate(t))
            case nil: return plain
            }
        case (.duration, .number(let literal)):
            guard let minutes = Int(literal) else { return plain }
            return .string(period(minutes: minutes))
        default:
            return plain
        }
    }

    /// Taskwarrior's spelling of a duration (its `Duration::formatISO`): days,
    /// then `T` and hours and minutes: `PT1H30M`, `P1DT1H`, `P2D`.
    static func period(minutes: Int) -> String {
        let days = minutes / 1_440, hours = minutes % 1_440 / 60, rest = minutes % 60
        var text = "P"
        if days > 0 { text += "\(days)D" }
        if hours > 0 || rest > 0 {
            text += "T"
            if hours > 0 { text += "\(hours)H" }
            if rest > 0 { text += "\(rest)M" }
        }
        return minutes > 0 ? text : "PT0S"
    }

    /// Whole minutes of an ISO 8601 period of days, hours, minutes and
    /// seconds (`P1DT1H`, `PT90M`, `PT120S`), or nil (weeks, months, years,
    /// fractions, seconds that are not whole minutes, nothing).
    static func minutes(fromPeriod text: String) -> Int? {
        var rest = Substring(text)
        guard rest.first == "P" else { return nil }
        rest = rest.dropFirst()
        var seconds = 0
        var inTime = false
        var number = ""
        var any = false
        for c in rest {
            if c == "T" {
                guard !inTime, number.isEmpty else { return nil }
                inTime = true
            } else if c.isASCII, c.isNumber {
                number.append(c)
                guard number.count <= 9 else { return nil }
            } else {
                guard let n = Int(number) else { return nil }
                number = ""
                any = true
                switch (c, inTime) {
                case ("D", false): seconds += n * 86_400
                case ("H", true): seconds += n * 3_600
                case ("M", true): seconds += n * 60
                case ("S", true): seconds += n
                default: return nil
                }
            }
        }
        guard any, number.isEmpty, seconds > 0, seconds % 60 == 0, seconds / 60 <= TaskEstimate.maxMinutes else { return nil }
        return seconds / 60
    }
}
