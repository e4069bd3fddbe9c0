import Foundation

/// Parses human WHEN expressions relative to a pinned clock and time zone.
///
/// Grammar (case-insensitive, surrounding whitespace ignored):
/// - days: `today`, `tomorrow`/`tom`, `yesterday`, weekday names (`monday`, `mon`, `tue`/`tues`,
///   `thu`/`thur`/`thurs`, ...) meaning the next such day strictly after today, `next week`
///   (Monday of next ISO week), `eow`/`eom`/`eoy`, relative offsets (`in 3d`, `in3d`, `3d`,
///   `+3d`, `2w`, `1m`, `1y`; units may also be spelled out: `in 3 days`), and ISO `2026-11-24`.
/// - times alone: `17:00`, `9:05`, `5pm`, `5:30pm`, `12am`, `12pm` -> today at that local time.
/// - ISO date-times: `2026-11-24T17:00`, `2026-11-24T17:00:00`, `2026-11-24 17:00` (local wall
///   time) or with `Z` / an offset (that exact instant).
/// - a day and a time joined by `@`: `tomorrow@17:00`, `fri@9am`, `in 3d@9am`.
public struct WhenParser: Sendable {
    /// The instant treated as "now".
    public let now: Date
    /// The zone in which days and wall times are interpreted.
    public let timeZone: TimeZone
    /// The local day containing `now`.
    public let today: LocalDate

    private static let weekdays: [String: Int] = [
        "monday": 1, "mon": 1,
        "tuesday": 2, "tue": 2, "tues": 2,
        "wednesday": 3, "wed": 3,
        "thursday": 4, "thu": 4, "thur": 4, "thurs": 4,
        "friday": 5, "fri": 5,
        "saturday": 6, "sat": 6,
        "sunday": 7, "sun": 7,
    ]

    /// Largest accepted relative amount (`in 99999d`), keeping date arithmetic far from overflow.
    private static let maxAmount = 99_999

    /// Creates a parser for the clock `now` in `timeZone`.
    public init(now: Date, timeZone: TimeZone) {
        self.now = now
        self.timeZone = timeZone
        self.today = LocalDate(date: now, timeZone: timeZone)
    }

    /// Parses a WHEN expression into an all-day date or an exact instant.
    /// Throws `.outOfRange` for a date outside ``DateRange`` (e.g. `in 99999y`), so no
    /// caller can store a date the file reader would refuse.
    public func parse(_ text: String) throws(DateError) -> TaskDate {
        let date = try parseAnyDate(text)
        guard DateRange.contains(date) else {
            let day: LocalDate? = if case .day(let d) = date { d } else { nil }
            throw .outOfRange(input: text.trimmingCharacters(in: .whitespacesAndNewlines), day: day)
        }
        return date
    }

    /// `parse(_:)` without the range check.
    private func parseAnyDate(_ text: String) throws(DateError) -> TaskDate {
        let input = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !input.isEmpty else { throw .unrecognized(word: "", input: text) }

        if let at = input.firstIndex(of: "@") {
            let dayText = input[..<at].trimmingCharacters(in: .whitespaces)
            let timeText = input[input.index(after: at)...].trimmingCharacters(in: .whitespaces)
            guard !dayText.isEmpty else { throw .unrecognized(word: "@" + timeText, input: input) }
            guard let day = try matchDay(dayText) else {
                throw .unrecognized(word: dayText, input: input)
            }
            guard !timeText.isEmpty else { throw .unrecognized(word: dayText + "@", input: input) }
            guard let time = try matchTime(timeText) else {
                throw .unrecognized(word: timeText, input: input)
            }
            return .time(instant(on: day, time))
        }

        if let day = try matchDay(input) {
            return .day(day)
        }
        if let instant = try matchDateTime(input) {
            return .time(instant)
        }
        if let time = try matchTime(input) {
            // A bare time always means today at that wall time, even when it has already
            // passed (callers can then report it as overdue); it never rolls to tomorrow.
            return .time(instant(on: today, time))
        }
        throw .unrecognized(word: input, input: input)
    }

    /// Parses a WHEN expression that must name a whole day (e.g. a scheduled date).
    /// Throws `.timeNotAllowed` when the expression has a time of day.
    public func parseDay(_ text: String) throws(DateError) -> LocalDate {
        switch try parse(text) {
        case .day(let day): return day
        case .time: throw .timeNotAllowed(text.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    // MARK: - Days

    /// Parses a day expression; nil when it is not one. Throws `.invalidDate` for an
    /// ISO-shaped date that does not exist.
    private func matchDay(_ text: String) throws(DateError) -> LocalDate? {
        let word = WhenParser.normalize(text)
        switch word {
        case "today": return today
        case "tomorrow", "tom": return today.adding(days: 1)
        case "yesterday": return today.adding(days: -1)
        case "next week", "nextweek", "next-week": return today.adding(days: 8 - today.weekday)
        case "eow": return today.adding(days: 7 - today.weekday)
        case "eom": return today.lastDayOfMonth
        case "eoy": return today.adding(months: 12 - today.month).lastDayOfMonth   // Dec 31
        default: break
        }
        if let weekday = WhenParser.weekdays[word] {
            let ahead = (weekday - today.weekday + 7) % 7
            return today.adding(days: ahead == 0 ? 7 : ahead)
        }
        if let date = relativeDay(word) {
            return date
        }
        if let (year, month, day) = LocalDate.parseISO(Array(word.utf8)) {
            guard let date = LocalDate(year: year, month: month, day: day) else {
                throw .invalidDate(text)
            }
            return date
        }
        return nil
    }

    /// `in 3d`, `in3d`, `3d`, `+3d`, `2w`, `1m`, `1y`, `in 3 days`; nil when not of that form.
    private func relativeDay(_ word: String) -> LocalDate? {
        var rest = Substring(word)
        if rest.hasPrefix("in") {
            rest = rest.dropFirst(2)
            if rest.first == " " { rest = rest.dropFirst() }
        } else if rest.hasPrefix("+") {
            rest = rest.dropFirst()
        }
        let digits = rest.prefix(while: { $0.isASCII && $0.isNumber })
        guard !digits.isEmpty, digits.count <= 5, let amount = Int(digits), amount <= WhenParser.maxAmount else {
            return nil
        }
        rest = rest.dropFirst(digits.count)
        if rest.first == " " { rest = rest.dropFirst() }
        switch rest {
        case "d", "day", "days": return today.adding(days: amount)
        case "w", "wk", "wks", "week", "weeks": return today.adding(days: amount * 7)
        case "m", "mo", "mos", "month", "months": return today.adding(months: amount)
        case "y", "yr", "yrs", "year", "years": return today.adding(months: amount * 12)
        default: return nil
        }
    }

    // MARK: - Times

    /// A validated wall-clock time.
    private struct WallTime {
        var hour: Int
        var minute: Int
        var second: Int
    }

    /// Parses `17:00`, `9:05`, `17:00:30`, `5pm`, `5:30pm`, `12am`; nil when the text is not
    /// shaped like a time, `.invalidTime` when it is but the values are out of range.
    private func matchTime(_ text: String) throws(DateError) -> WallTime? {
        let bytes = Array(WhenParser.normalize(text).utf8)
        var index = 0
        func digitRun() -> (value: Int, count: Int) {
            var value = 0
            var count = 0
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                if count < 4 { value = value * 10 + Int(bytes[index] - UInt8(ascii: "0")) }
                count += 1
                index += 1
            }
            return (value, count)
        }

        let hour = digitRun()
        guard hour.count > 0 else { return nil }
        var minute = (value: 0, count: 2)
        var second = (value: 0, count: 2)
        var hasColon = false
        if index < bytes.count, bytes[index] == UInt8(ascii: ":") {
            hasColon = true
            index += 1
            minute = digitRun()
            guard minute.count > 0 else { return nil }
            if index < bytes.count, bytes[index] == UInt8(ascii: ":") {
                index += 1
                second = digitRun()
                guard second.count > 0 else { return nil }
            }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: " ") { index += 1 }
        let suffix = String(decoding: bytes[index...], as: UTF8.self)
        let meridiem: Bool?   // true = pm, false = am, nil = 24-hour clock
        switch suffix {
        case "": meridiem = nil
        case "am", "a.m.": meridiem = false
        case "pm", "p.m.": meridiem = true
        default: return nil
        }
        guard hasColon || meridiem != nil else { return nil }   // a bare number is not a time

        let invalid = DateError.invalidTime(text)
        guard hour.count <= 2, minute.count == 2, second.count == 2,
              minute.value <= 59, second.value <= 59
        else { throw invalid }
        if let pm = meridiem {
            guard (1...12).contains(hour.value) else { throw invalid }
            return WallTime(hour: hour.value % 12 + (pm ? 12 : 0), minute: minute.value, second: second.value)
        }
        guard hour.value <= 23 else { throw invalid }
        return WallTime(hour: hour.value, minute: minute.value, second: second.value)
    }

    /// ISO date-times: `2026-11-24T17:00[:00]` or `2026-11-24 17:00` as local wall time, or with
    /// `Z` / `+HH:MM` / `-HHMM` as that instant. Nil when the text does not start with an ISO date
    /// followed by `T` or a space.
    private func matchDateTime(_ text: String) throws(DateError) -> Date? {
        let word = WhenParser.normalize(text)
        let bytes = Array(word.utf8)
        guard bytes.count > 11, bytes[10] == UInt8(ascii: "t") || bytes[10] == UInt8(ascii: " "),
              let (year, month, dayOfMonth) = LocalDate.parseISO(bytes[0..<10])
        else { return nil }
        guard let day = LocalDate(year: year, month: month, day: dayOfMonth) else {
            throw .invalidDate(String(text.prefix(10)))
        }
        let rest = String(decoding: bytes[11...], as: UTF8.self)
        let originalRest = String(text.dropFirst(11)).trimmingCharacters(in: .whitespaces)

        if let zoneStart = rest.firstIndex(where: { $0 == "z" || $0 == "+" || $0 == "-" }) {
            // An explicit zone: that exact instant.
            // Unbounded: an instant past year 9999 in UTC is reported by `parse` as out of range.
            if let instant = Timestamp.parse(bytes: Array((day.iso + "T" + rest.uppercased()).utf8), bounded: false) {
                return instant
            }
            // Report an out-of-range time as such; anything else is unrecognized.
            _ = try matchTime(String(rest[..<zoneStart]))
            throw .unrecognized(word: text, input: text)
        }
        guard let time = try matchTime(originalRest) else { return nil }
        return instant(on: day, time)
    }

    // MARK: - Helpers

    /// The instant at which the local wall clock shows `time` on `day` (DST-correct).
    private func instant(on day: LocalDate, _ time: WallTime) -> Date {
        day.at(hour: time.hour, minute: time.minute, timeZone: timeZone)
            .addingTimeInterval(TimeInterval(time.second))
    }

    /// Lowercases and collapses whitespace runs to single spaces.
    private static func normalize(_ text: String) -> String {
        text.lowercased().split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}
