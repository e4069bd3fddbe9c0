import FoundationEssentials

/// Recurrence between tick's `repeat` rules and todo.txt's `rec:` extension
/// (as SimpleTask, topydo and the todo.txt-cli recurrence add-ons write it):
/// `rec:[+]N<unit>`, unit `d`, `w`, `m` (months), `y` or `b` (business days).
/// Without `+` the next task is N units after the day it was completed (tick's
/// `+Nd`); with `+` N units after its due date (tick's `every Nd`). Business
/// days map only as `1b` (tick's `weekdays`). Rules `rec:` cannot say (`mon,thu`,
/// `every friday`) travel as `tickrepeat:` with spaces written as `_`.
enum TodoTxtRecurrence {
    /// The tick rule a `rec:` value means, or nil when tick has none.
    static func tickRule(forRec value: String) -> String? {
        var word = Substring(value.lowercased())
        let strict = word.hasPrefix("+")
        if strict { word = word.dropFirst() }
        guard let unit = word.last else { return nil }
        let digits = word.dropLast()
        guard digits.allSatisfy({ $0.isASCII && $0.isNumber }), digits.count <= 3 else { return nil }
        let count = digits.isEmpty ? 1 : Int(digits) ?? 0
        guard count >= 1, count <= RecurrenceRule.maxCount else { return nil }
        let tickUnit: String
        switch unit {
        case "d": tickUnit = "d"
        case "w": tickUnit = "w"
        case "m": tickUnit = "mo"
        case "y": tickUnit = "y"
        case "b": return count == 1 ? "weekdays" : nil
        default: return nil
        }
        guard strict else { return "+\(count)\(tickUnit)" }
        if count == 1 {
            switch tickUnit {
            case "d": return "daily"
            case "w": return "weekly"
            case "mo": return "monthly"
            default: return "yearly"
            }
        }
        return "every \(count)\(tickUnit)"
    }

    /// The `rec:` value for a tick rule, or nil when `rec:` cannot say it.
    static func rec(forRule rule: String) -> String? {
        guard let parsed = try? RecurrenceRule.parse(rule) else { return nil }
        func letter(_ unit: RecurrenceRule.Unit) -> String {
            switch unit {
            case .day: return "d"
            case .week: return "w"
            case .month: return "m"
            case .year: return "y"
            }
        }
        switch parsed.kind {
        case .every(let n, let unit): return "+\(n)\(letter(unit))"
        case .afterCompletion(let n, let unit): return "\(n)\(letter(unit))"
        case .onWeekdays(let days) where days == [1, 2, 3, 4, 5]: return "+1b"
        case .onWeekdays: return nil
        }
    }

    /// True when two rules mean the same (`every 2 weeks` and `every 2w`).
    static func same(_ a: String?, _ b: String?) -> Bool {
        guard let a, let b else { return a == b }
        if a == b { return true }
        guard let x = try? RecurrenceRule.parse(a), let y = try? RecurrenceRule.parse(b) else { return false }
        return x == y
    }
}
