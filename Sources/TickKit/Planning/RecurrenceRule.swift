import FoundationEssentials

/// A parsed `repeat:` rule: when the next occurrence of a recurring task falls.
///
/// Grammar (case-insensitive; see Docs/RECURRENCE.md):
/// - `daily`, `weekdays`, `weekly`, `monthly`, `yearly` (also `annually`)
/// - `every N UNIT` / `every UNIT`: `every 2w`, `every 3 days`, `every month`
/// - weekday lists: `mon,wed,fri`, `tue`, `saturday,sunday`, also after `every` (`every friday`)
/// - after completion: `+3d`, `+2w`, `+1m`, `+1y` (also `+3 days`)
///
/// UNIT is `d`/`day(s)`, `w`/`wk`/`week(s)`, `m`/`mo`/`month(s)`, `y`/`yr`/`year(s)`; N is 1...999.
/// Pure: all arithmetic is on ``LocalDate`` (calendar days, no time zone).
public struct RecurrenceRule: Sendable, Equatable {
    /// A calendar unit.
    public enum Unit: String, Sendable, Equatable {
        case day, week, month, year
    }

    /// The shape of a rule.
    public enum Kind: Sendable, Equatable {
        /// Every `count` units from the series' dates (`daily` = every 1 day).
        case every(Int, Unit)
        /// On these ISO weekdays (1 = Monday ... 7 = Sunday); `weekdays` is 1...5.
        case onWeekdays(Set<Int>)
        /// `count` units after the day the previous occurrence was completed.
        case afterCompletion(Int, Unit)
    }

    public let kind: Kind

    /// The largest N accepted in `every N` and `+N`.
    public static let maxCount = 999

    public init(kind: Kind) {
        self.kind = kind
    }

    /// True for `+Nd` forms, which count from the completion day.
    public var isAfterCompletion: Bool {
        if case .afterCompletion = kind { return true }
        return false
    }

    /// True when occurrences step by months or years, so the series' original
    /// day of the month matters (Jan 31 monthly -> Feb 28 -> Mar 31).
    public var stepsByMonths: Bool {
        switch kind {
        case .every(_, .month), .every(_, .year): return true
        default: return false
        }
    }

    private static let weekdayNames: [String: Int] = [
        "monday": 1, "mon": 1, "mo": 1,
        "tuesday": 2, "tue": 2, "tues": 2, "tu": 2,
        "wednesday": 3, "wed": 3, "we": 3,
        "thursday": 4, "thu": 4, "thur": 4, "thurs": 4, "th": 4,
        "friday": 5, "fri": 5, "fr": 5,
        "saturday": 6, "sat": 6, "sa": 6,
        "sunday": 7, "sun": 7, "su": 7,
    ]

    /// Parses a rule; throws an ``InputError`` naming the accepted forms.
    public static func parse(_ text: String, key: String = "repeat") throws(InputError) -> RecurrenceRule {
        let word = text.lowercased().split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        let fail = InputError.invalid(
            "\(key): \"\(text)\" is not a recurrence rule; use daily, weekdays, weekly, monthly, yearly, "
                + "every 2w, every 3 days, mon,wed,fri or +3d (after completion); see Docs/RECURRENCE.md")
        switch word {
        case "daily": return RecurrenceRule(kind: .every(1, .day))
        case "weekdays", "weekday": return RecurrenceRule(kind: .onWeekdays([1, 2, 3, 4, 5]))
        case "weekly": return RecurrenceRule(kind: .every(1, .week))
        case "monthly": return RecurrenceRule(kind: .every(1, .month))
        case "yearly", "annually": return RecurrenceRule(kind: .every(1, .year))
        default: break
        }
        if word.hasPrefix("every") {
            var rest = Substring(word.dropFirst(5))
            if rest.first == " " { rest = rest.dropFirst() }
            if let (count, unit) = amount(rest, countOptional: true) {
                return RecurrenceRule(kind: .every(count, unit))
            }
            // `every friday`, `every mon,thu` (as Taskwarrior and todo.txt imports write them).
            guard let days = weekdayList(rest) else { throw fail }
            return RecurrenceRule(kind: .onWeekdays(days))
        }
        if word.hasPrefix("+") {
            guard let (count, unit) = amount(word.dropFirst(), countOptional: false) else { throw fail }
            return RecurrenceRule(kind: .afterCompletion(count, unit))
        }
        guard let days = weekdayList(Substring(word)) else { throw fail }
        return RecurrenceRule(kind: .onWeekdays(days))
    }

    /// `mon,wed,fri` (names or abbreviations, spaces after commas allowed); nil otherwise.
    private static func weekdayList(_ text: Substring) -> Set<Int>? {
        var days = Set<Int>()
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let d = weekdayNames[part.trimmingWhitespace()] else { return nil }
            days.insert(d)
        }
        return days.isEmpty ? nil : days
    }

    /// `2w`, `2 w`, `3 days`, and (when `countOptional`) a bare unit `week`.
    private static func amount(_ text: Substring, countOptional: Bool) -> (Int, Unit)? {
        let digits = text.prefix(while: { $0.isASCII && $0.isNumber })
        var rest = text.dropFirst(digits.count)
        if rest.first == " " { rest = rest.dropFirst() }
        let count: Int
        if digits.isEmpty {
            guard countOptional else { return nil }
            count = 1
        } else {
            guard digits.count <= 3, let n = Int(digits), n >= 1, n <= maxCount else { return nil }
            count = n
        }
        switch rest {
        case "d", "day", "days": return (count, .day)
        case "w", "wk", "wks", "week", "weeks": return (count, .week)
        case "m", "mo", "mos", "month", "months": return (count, .month)
        case "y", "yr", "yrs", "year", "years": return (count, .year)
        default: return nil
        }
    }

    // MARK: Next occurrence

    /// The day of the next occurrence.
    ///
    /// - `anchor`: the current occurrence's day (due, else scheduled, else the completion day).
    /// - `seriesStart`: for month/year steps, the series' original day (Jan 31), so that a
    ///   clamped Feb 28 is followed by Mar 31; nil means `anchor`.
    /// - `completed`: the local day the occurrence was completed.
    ///
    /// Calendar rules give the first occurrence strictly after `anchor` that is not before
    /// `completed`: occurrences missed while a task was overdue are skipped, never piled up.
    /// `+N` rules give `completed` plus N units.
    public func nextDay(after anchor: LocalDate, seriesStart: LocalDate? = nil, completed: LocalDate) -> LocalDate {
        switch kind {
        case .afterCompletion(let n, let unit):
            return Self.step(completed, n, unit)
        case .every(let n, let unit):
            switch unit {
            case .day, .week:
                let stride = unit == .day ? n : n * 7
                var k = 1
                let behind = anchor.days(until: completed)
                if behind > stride { k = (behind + stride - 1) / stride }
                var next = anchor.adding(days: k * stride)
                while next < completed { next = next.adding(days: stride) }
                return next
            case .month, .year:
                let months = unit == .month ? n : n * 12
                let base = seriesStart ?? anchor
                // Occurrence k is always computed from the base, so clamping never accumulates.
                var k = 1
                var next = base.adding(months: months)
                while next <= anchor || next < completed {
                    k += 1
                    next = base.adding(months: k * months)
                }
                return next
            }
        case .onWeekdays(let days):
            var next = max(anchor.adding(days: 1), completed)
            while !days.contains(next.weekday) { next = next.adding(days: 1) }
            return next
        }
    }

    /// `day` plus `n` units (months clamp to the month's end).
    static func step(_ day: LocalDate, _ n: Int, _ unit: Unit) -> LocalDate {
        switch unit {
        case .day: return day.adding(days: n)
        case .week: return day.adding(days: 7 * n)
        case .month: return day.adding(months: n)
        case .year: return day.adding(months: 12 * n)
        }
    }

    /// The series' original day for a month/year rule, given the day stored with the
    /// task (`repeatAnchor`) and the current occurrence: the stored day is used only
    /// when the current occurrence is exactly its clamped form (a date moved by hand
    /// starts a new anchor).
    public func seriesStart(stored: LocalDate?, current: LocalDate) -> LocalDate? {
        guard stepsByMonths, let stored, stored <= current else { return nil }
        let sameMonthPattern: Bool
        switch kind {
        case .every(_, .year): sameMonthPattern = stored.month == current.month
        default: sameMonthPattern = true
        }
        let clamped = min(stored.day, LocalDate.daysInMonth(year: current.year, month: current.month))
        guard sameMonthPattern, clamped == current.day, stored.day != current.day else { return nil }
        return stored
    }
}
