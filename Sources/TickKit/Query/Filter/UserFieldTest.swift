import FoundationEssentials

/// What a filter term asks of a declared field (``UserField``), by its type:
/// `NAME:value` (equality), `NAME.any:` / `NAME.none:`, `NAME.before:WHEN` /
/// `NAME.after:WHEN` for a date, `NAME.over:N` / `NAME.under:N` for a number
/// or a duration. A stored value of another type than declared (a hand
/// edit) matches only `.any:`.
public enum UserFieldTest: Sendable, Equatable {
    /// The task has the key.
    case any
    /// The task does not have the key.
    case none
    /// A string equal to this one (for a closed set, ignoring case).
    case text(String, ignoringCase: Bool)
    /// A number (a duration in minutes) equal to this one.
    case number(Double)
    /// A number (a duration in minutes) above this one.
    case over(Double)
    /// A number (a duration in minutes) below this one.
    case under(Double)
    /// A date compared as `due` is (``DateTestEvaluator``).
    case date(FilterTerm.DateTest)

    /// True when a task whose number is `value` (nil: unset) passes.
    public func holds(number value: Double?) -> Bool {
        switch self {
        case .any: return value != nil
        case .none: return value == nil
        case .number(let n): return value == n
        case .over(let n): return value.map { $0 > n } ?? false
        case .under(let n): return value.map { $0 < n } ?? false
        case .text, .date: return false
        }
    }

    /// True when a task whose value is `value` (nil: no key) passes.
    public func holds(for value: JSONNode?, timeZone: Zone) -> Bool {
        switch self {
        case .any: return value != nil
        case .none: return value == nil
        default: break
        }
        guard let value else { return false }
        if case .number(let literal) = value.kind, let n = Double(literal) { return holds(number: n) }
        switch (self, value.kind) {
        case let (.text(wanted, ignoringCase), .string(s)):
            return ignoringCase ? s.lowercased() == wanted.lowercased() : s == wanted
        case let (.date(test), .string(s)):
            guard let date = TaskDate(fileString: s) else { return false }
            let evaluated: DateTestEvaluator.Value
            switch date {
            case .day(let d): evaluated = .day(d)
            case .time(let t): evaluated = .instant(t)
            }
            return DateTestEvaluator(timeZone: timeZone).holds(test, for: evaluated)
        default: return false
        }
    }
}
