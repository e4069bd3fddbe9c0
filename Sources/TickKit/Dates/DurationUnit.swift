/// The units of tick's one duration grammar, shared by WHEN (`in 2h`, `3d`), estimates
/// (`45m`) and slot lengths (`for:1h30m`):
/// `min`/`m` minutes, `h` hours, `d` days, `w` weeks, `mo` months, `y` years
/// (also spelled out: `mins`, `hours`, `days`, ...).
public enum DurationUnit: Sendable, Equatable, CaseIterable {
    case minute, hour, day, week, month, year

    /// The unit named by `text` (lowercase, e.g. `m`, `min`, `mo`, `weeks`); nil when none.
    public static func named(_ text: some StringProtocol) -> DurationUnit? {
        switch text {
        case "m", "min", "mins", "minute", "minutes": return .minute
        case "h", "hr", "hrs", "hour", "hours": return .hour
        case "d", "day", "days": return .day
        case "w", "wk", "wks", "week", "weeks": return .week
        case "mo", "mos", "month", "months": return .month
        case "y", "yr", "yrs", "year", "years": return .year
        default: return nil
        }
    }

    /// True for minutes and hours: an amount of these is a time, not a day.
    public var isTimeOfDay: Bool { self == .minute || self == .hour }

    /// "minute", "hour", ... with an `s` when `amount` is not 1.
    public func spelled(_ amount: Int) -> String {
        let word: String
        switch self {
        case .minute: word = "minute"
        case .hour: word = "hour"
        case .day: word = "day"
        case .week: word = "week"
        case .month: word = "month"
        case .year: word = "year"
        }
        return amount == 1 ? word : word + "s"
    }

    /// The short form used in messages: `min`, `h`, `d`, `w`, `mo`, `y`.
    public var short: String {
        switch self {
        case .minute: return "min"
        case .hour: return "h"
        case .day: return "d"
        case .week: return "w"
        case .month: return "mo"
        case .year: return "y"
        }
    }
}
