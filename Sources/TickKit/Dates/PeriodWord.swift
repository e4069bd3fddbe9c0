import FoundationEssentials

/// Taskwarrior's period words (Docs/CLI.md, "Days"): `sow` is the start of
/// this week, `eow` its end; `sopw`/`eopw` the previous week's, `sonw`/`eonw`
/// the next one's; `d`, `w`, `m`, `q` and `y` for day, week, month, quarter
/// and year, and `soww`/`eoww` for this work week (Monday to Friday).
///
/// As a date to set (`due:eow`) a word is its day: the first day of the
/// period for a start, the last for an end (a due day means "by the end of
/// it"). Compared (`due.before:eow`), a word is an instant: a start is the
/// first moment of its first day, an end the last moment of its last day,
/// so `due.before:eow` includes what is due on Sunday.
public struct PeriodWord: Sendable, Equatable {
    /// The length of the period.
    public enum Unit: Sendable, Equatable { case day, week, workWeek, month, quarter, year }

    /// True for an end (`eo…`), false for a start (`so…`).
    public let isEnd: Bool
    /// -1 for the previous period (`p`), 0 for this one, 1 for the next (`n`).
    public let offset: Int
    public let unit: Unit

    /// Reads a word (`sow`, `eonm`, `soww`…); nil when `text` is none.
    public init?(_ text: String) {
        var rest = Substring(text.lowercased())
        if rest.hasPrefix("so") { isEnd = false } else if rest.hasPrefix("eo") { isEnd = true } else { return nil }
        rest = rest.dropFirst(2)
        var offset = 0
        if rest.count > 1, let first = rest.first, first == "p" || first == "n" {
            offset = first == "p" ? -1 : 1
            rest = rest.dropFirst()
        }
        switch rest {
        case "d": unit = .day
        case "w": unit = .week
        case "ww" where offset == 0: unit = .workWeek
        case "m": unit = .month
        case "q": unit = .quarter
        case "y": unit = .year
        default: return nil
        }
        self.offset = offset
    }

    /// The first and last day of the period, seen from `today` (weeks start on Monday).
    public func days(from today: LocalDate) -> (first: LocalDate, last: LocalDate) {
        switch unit {
        case .day:
            let day = today.adding(days: offset)
            return (day, day)
        case .week, .workWeek:
            let monday = today.adding(days: 1 - today.weekday + 7 * offset)
            return (monday, monday.adding(days: unit == .week ? 6 : 4))
        case .month:
            let first = today.firstDayOfMonth.adding(months: offset)
            return (first, first.lastDayOfMonth)
        case .quarter:
            let first = today.firstDayOfMonth.adding(months: -((today.month - 1) % 3) + 3 * offset)
            return (first, first.adding(months: 2).lastDayOfMonth)
        case .year:
            let first = today.firstDayOfMonth.adding(months: 1 - today.month + 12 * offset)
            return (first, first.adding(months: 11).lastDayOfMonth)
        }
    }

    /// The word's day: the period's first day for a start, its last for an end.
    public func day(from today: LocalDate) -> LocalDate {
        let period = days(from: today)
        return isEnd ? period.last : period.first
    }
}
