import FoundationEssentials

/// tick's `repeat` rules and iCalendar's `RRULE` (RFC 5545 §3.3.10), both
/// ways: the one mapping the CalDAV bridge and `tick export/import --format
/// ics` use (Docs/RECURRENCE.md, "iCalendar and phones").
///
/// Out: a rule RFC 5545 can express is written as `RRULE` *and* as
/// `X-TICK-REPEAT`, which carries tick's spelling for an exact round trip and,
/// in its `X-TICK-RRULE` parameter, the RRULE it was written with; a rule
/// RFC 5545 cannot express (`+3d`, counted from the completion day) is
/// `X-TICK-REPEAT` only; a rule that is an RRULE already (kept from a phone)
/// is written back as `RRULE`, verbatim.
///
/// In (``rule(rrule:tickRepeat:anchor:)``): `X-TICK-REPEAT` is tick's rule
/// while the item's `RRULE` is still the one it was written with; a phone that
/// changes or removes the RRULE keeps the unknown `X-TICK-REPEAT` line, so then
/// the RRULE (or its absence) wins. An RRULE becomes tick's rule where tick
/// has one (``tickRule(forRRule:anchor:)``), else it is kept verbatim.
public enum RRuleMapping {
    /// The `X-TICK-REPEAT` parameter holding the RRULE it was written beside.
    public static let rruleParameter = "X-TICK-RRULE"

    private static let weekdayCodes = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
    private static let weekdayNames = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]

    /// True when `rule` is written in RRULE syntax (`FREQ=...`): a phone's
    /// rule kept as it is, which tick reads only through this mapping.
    public static func isRRule(_ rule: String) -> Bool {
        rule.trimmingWhitespace().uppercased().hasPrefix("FREQ=")
            || rule.uppercased().contains(";FREQ=")
    }

    /// The RRULE value for a tick rule, or nil when RFC 5545 cannot express it
    /// (after-completion rules) or `rule` is no tick rule.
    public static func rrule(forTickRule rule: String) -> String? {
        guard let parsed = try? RecurrenceRule.parse(rule) else { return nil }
        func every(_ freq: String, _ n: Int) -> String { n == 1 ? "FREQ=" + freq : "FREQ=\(freq);INTERVAL=\(n)" }
        switch parsed.kind {
        case .every(let n, .day): return every("DAILY", n)
        case .every(let n, .week): return every("WEEKLY", n)
        case .every(let n, .month): return every("MONTHLY", n)
        case .every(let n, .year): return every("YEARLY", n)
        case .onWeekdays(let days): return "FREQ=WEEKLY;BYDAY=" + days.sorted().map { weekdayCodes[$0 - 1] }.joined(separator: ",")
        case .afterCompletion: return nil
        }
    }

    /// The parts of an RRULE value by upper-cased name; nil when it is not
    /// `NAME=VALUE;...` with a FREQ, or names a part twice.
    static func parts(_ value: String) -> [String: String]? {
        var out: [String: String] = [:]
        for part in value.trimmingWhitespace().split(separator: ";") {
            let kv = part.split(separator: "=", maxSplits: 1)
            guard kv.count == 2 else { return nil }
            let name = kv[0].trimmingWhitespace().uppercased()
            guard out[name] == nil else { return nil }
            out[name] = kv[1].trimmingWhitespace().uppercased()
        }
        return out["FREQ"] == nil ? nil : out
    }

    /// True when two RRULE values say the same (case, order of parts, and a
    /// default `INTERVAL=1` or `WKST=MO` aside).
    public static func sameRRule(_ a: String, _ b: String) -> Bool {
        guard var x = parts(a), var y = parts(b) else { return a == b }
        for key in ["INTERVAL", "WKST"] {
            let fallback = key == "INTERVAL" ? "1" : "MO"
            if x[key] == fallback { x[key] = nil }
            if y[key] == fallback { y[key] = nil }
        }
        return x == y
    }

    /// tick's rule for an RRULE value, or nil when tick has none.
    ///
    /// Mapped: `FREQ=DAILY|WEEKLY|MONTHLY|YEARLY` with `INTERVAL` (1–999);
    /// `BYDAY` of plain weekdays with `FREQ=WEEKLY` (or `DAILY`) and interval 1
    /// (`mon,wed,fri`, `weekdays`); parts that only repeat what the series'
    /// day (`anchor`: the due day, else the start day) implies (`BYDAY=FR` on a
    /// weekly rule due on a Friday, `BYMONTHDAY=15` on a monthly rule due on
    /// the 15th, `BYMONTH` with it on a yearly one); `WKST`. Not mapped (tick
    /// has no such rule): `COUNT`, `UNTIL`, `BYSETPOS`, ordinal weekdays
    /// (`1MO`, `-1FR`), several month days, hourly and finer frequencies.
    public static func tickRule(forRRule value: String, anchor: LocalDate? = nil) -> String? {
        guard var p = parts(value) else { return nil }
        p["WKST"] = nil
        guard let freq = p.removeValue(forKey: "FREQ") else { return nil }
        var n = 1
        if let i = p.removeValue(forKey: "INTERVAL") {
            guard let v = Int(i), (1...RecurrenceRule.maxCount).contains(v) else { return nil }
            n = v
        }
        var days: Set<Int>?
        if let byday = p.removeValue(forKey: "BYDAY") {
            var set = Set<Int>()
            for code in byday.split(separator: ",") {
                guard let i = weekdayCodes.firstIndex(of: String(code)) else { return nil }
                set.insert(i + 1)
            }
            guard !set.isEmpty else { return nil }
            days = set
        }
        let monthDay = p.removeValue(forKey: "BYMONTHDAY")
        let month = p.removeValue(forKey: "BYMONTH")
        // COUNT, UNTIL, BYSETPOS, BYHOUR, ...: no tick rule.
        guard p.isEmpty else { return nil }
        func every(_ unit: String, _ word: String) -> String { n == 1 ? word : "every \(n)\(unit)" }
        switch freq {
        case "DAILY":
            guard monthDay == nil, month == nil else { return nil }
            if let days {
                guard n == 1 else { return nil }
                return weekdayRule(days)
            }
            return every("d", "daily")
        case "WEEKLY":
            guard monthDay == nil, month == nil else { return nil }
            if let days {
                if n == 1 { return days.count == 1 && anchor.map({ days.contains($0.weekday) }) == true ? "weekly" : weekdayRule(days) }
                guard days.count == 1, let anchor, days.contains(anchor.weekday) else { return nil }
            }
            return every("w", "weekly")
        case "MONTHLY":
            guard days == nil, month == nil else { return nil }
            if let monthDay {
                guard let anchor, Int(monthDay) == anchor.day else { return nil }
            }
            return every("mo", "monthly")
        case "YEARLY":
            guard days == nil else { return nil }
            if monthDay != nil || month != nil {
                guard let anchor else { return nil }
                if let monthDay, Int(monthDay) != anchor.day { return nil }
                if let month, Int(month) != anchor.month { return nil }
            }
            return every("y", "yearly")
        default:
            return nil
        }
    }

    private static func weekdayRule(_ days: Set<Int>) -> String {
        days == [1, 2, 3, 4, 5] ? "weekdays" : days.sorted().map { weekdayNames[$0 - 1] }.joined(separator: ",")
    }

    /// The rule a VTODO describes, from its `RRULE` value, its `X-TICK-REPEAT`
    /// value and that line's `X-TICK-RRULE` parameter (`writtenWith`), and the
    /// series' day (`anchor`: due, else start). See the type's documentation.
    public static func rule(rrule: String?, tickRepeat: String?, writtenWith: String? = nil, anchor: LocalDate? = nil) -> String? {
        let rrule = rrule.flatMap { $0.trimmingWhitespace().isEmpty ? nil : $0.trimmingWhitespace() }
        if let tickRepeat, !tickRepeat.isEmpty {
            if let writtenWith {
                // Written beside an RRULE: tick's while that RRULE is still there.
                if let rrule, sameRRule(rrule, writtenWith) { return tickRepeat }
                if rrule == nil { return nil }
            } else if rrule == nil {
                // tick's alone (`+3d`, or an item written before RRULEs went out).
                return tickRepeat
            }
        }
        guard let rrule else { return nil }
        return tickRule(forRRule: rrule, anchor: anchor) ?? rrule
    }

    /// The recurrence `rule` describes: a tick rule, or an RRULE tick has a
    /// rule for (a phone's rule stored as it came, before this mapping); nil
    /// when tick cannot read it. `anchor`: the series' day (due, else start).
    public static func recurrence(_ rule: String, anchor: LocalDate? = nil) -> RecurrenceRule? {
        if let parsed = try? RecurrenceRule.parse(rule) { return parsed }
        guard isRRule(rule), let mapped = tickRule(forRRule: rule, anchor: anchor) else { return nil }
        return try? RecurrenceRule.parse(mapped)
    }

    /// True when two `repeat` values mean the same: equal text, or rules tick
    /// reads as the same recurrence (`weekly`, `every 1w` and `FREQ=WEEKLY`).
    public static func sameRule(_ a: String?, _ b: String?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        if a == b { return true }
        guard let x = recurrence(a), let y = recurrence(b) else { return false }
        return x == y
    }

    /// The content lines (unfolded, without line ends) that carry `rule`.
    public static func lines(for rule: String) -> [String] {
        if isRRule(rule) { return ["RRULE:" + rule] }
        guard let rrule = rrule(forTickRule: rule) else { return ["X-TICK-REPEAT:" + ICalendarCodec.escape(rule)] }
        return ["RRULE:" + rrule, "X-TICK-REPEAT;\(rruleParameter)=\"\(rrule)\":" + ICalendarCodec.escape(rule)]
    }
}
