import FoundationEssentials

/// Errors from parsing a WHEN expression.
public enum DateError: Error, LocalizedError, Equatable, Sendable {
    /// A word that is not part of the WHEN grammar; `input` is the whole expression.
    case unrecognized(word: String, input: String)
    /// A well-formed date that does not exist, e.g. "2026-02-30".
    case invalidDate(String)
    /// A well-formed time that is out of range, e.g. "25:00" or "13pm".
    case invalidTime(String)
    /// A time was given where only a day is allowed (e.g. for scheduled dates).
    case timeNotAllowed(String)
    /// A date outside ``DateRange`` (e.g. "7974y" or "0000-01-01"); `day` is the day it
    /// names when it is an all-day date.
    case outOfRange(input: String, day: LocalDate?)
    /// `30M`: a capital M could be months (ISO 8601) or minutes.
    case ambiguousUnit(input: String, amount: Int)
    /// An amount of minutes or hours (`2h`, `3m`) where only a day is allowed.
    case relativeTimeNotAllowed(input: String, amount: Int, unit: DurationUnit)
    /// A date in the future where only a past one can select anything (`--since`,
    /// `completed.after:`); `resolved` is the date it named, `what` the option or term.
    case inFuture(input: String, resolved: String, what: String)

    /// The examples offered after an unrecognized expression.
    static let hint = "try today, tomorrow, fri, next mon, dec 24, 15th, in 3d, in 2h, 2026-11-24, 17:00, fri@9am (all forms: tick add --help)"

    /// What failed and what to do instead.
    public var errorDescription: String? {
        switch self {
        case .unrecognized(let word, let input):
            if input.trimmingWhitespaceAndNewlines().isEmpty {
                return "empty date; \(DateError.hint)"
            }
            return "unrecognized date word \"\(word)\" in \"\(input)\"; \(DateError.hint)"
        case .invalidDate(let text):
            return "invalid date \"\(text)\": that day does not exist; use a real YYYY-MM-DD date, e.g. 2026-11-24"
        case .invalidTime(let text):
            return "invalid time \"\(text)\"; use 24-hour HH:MM (00:00 to 23:59) or 12-hour like 9am, 5:30pm"
        case .timeNotAllowed(let text):
            return "a time is not allowed here (\"\(text)\"); give a day only, e.g. tomorrow, fri, 2026-11-24"
        case .outOfRange(let input, let day?):
            return "\"\(input)\" is \(day.iso), outside the dates tick can store (\(DateRange.text))"
        case .ambiguousUnit(let input, let amount):
            return "\"\(input)\" is ambiguous: M could mean minutes or months; write \(amount)m or \(amount)min for minutes, \(amount)mo for months"
        case .relativeTimeNotAllowed(let input, let amount, let unit):
            let then = "\"\(input)\" is \(amount) \(unit.spelled(amount)) from now, a time, and only a day is allowed here"
            if unit == .minute {
                return then + "; for months write \(amount)mo, for days \(amount)d"
            }
            return then + "; give a day instead, e.g. today, tomorrow, 1d, fri"
        case .inFuture(let input, let resolved, let what):
            let named = input.lowercased() == resolved.lowercased() ? "" : " is \(resolved),"
            return "\"\(input)\"\(named) not in the past, so \(what) would match nothing; "
                + "give a past date, e.g. 7d ago, -2w, yesterday, last week, last month, nov 19, 2026-11-01"
        case .outOfRange(let input, nil):
            return "\"\(input)\" is outside the dates tick can store (\(DateRange.text), times in UTC)"
        }
    }
}

extension DateError: TickError {
    public var kind: FailureKind { .usage }
}
