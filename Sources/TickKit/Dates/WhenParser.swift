import FoundationEssentials

/// Parses human WHEN expressions relative to a pinned clock and time zone.
///
/// Grammar (case-insensitive, surrounding whitespace ignored; Docs/CLI.md "Dates" is the
/// user-facing version):
/// - instants: `now`; `noon`; times alone (`17:00`, `9:05`, `5pm`, `5:30pm`, `12am`) mean
///   today at that local time.
/// - relative amounts in the one duration grammar (``DurationUnit``): `in 2h`, `+2h`, `2h`,
///   `in 90min`, `in 1h30m`, `in 3 days`. Minutes and hours are a time that far from now
///   (elapsed time, so DST-correct); days, weeks (`w`), months (`mo`) and years (`y`) are a
///   whole day that many calendar steps from today. `M` in capitals is refused as ambiguous.
/// - days: `today`, `tomorrow`/`tom`, `yesterday`, `eod` (today), weekday names (`monday`,
///   `mon`, ..., also `next monday`) meaning the next such day strictly after today,
///   `next week`/`sow` (Monday of next week), `next month`/`som` (1st of next month),
///   `next year`/`soy` (Jan 1 of next year), `eow` (Sunday), `eom`, `eoy`, month names
///   (`dec 24`, `24 dec`, `december 24th`, `dec 24 2027`) and ordinals (`15th`) meaning the
///   next such day on or after today, and ISO `2026-11-24`.
/// - ISO date-times: `2026-11-24T17:00`, `2026-11-24T17:00:00`, `2026-11-24 17:00` (local wall
///   time) or with `Z` / an offset (that exact instant).
/// - a day and a time joined by `@`: `tomorrow@17:00`, `fri@9am`, `fri@17` (an hour alone),
///   `dec 24@noon`, `in 3d@9am`.
/// - the past, in any direction: `3d ago`, `-3d`, `2h ago`, `last week` (Monday of last week),
///   `last month` (1st of last month), `last year` (Jan 1 of last year), `last fri`,
///   `this week`/`this month`/`this year` (their first day).
///
/// With ``WhenDirection/past`` (dates that lie behind: `--since`, `completed.after:`), the
/// unsigned forms lean back instead: `3d` is three days ago, a weekday name is the last such
/// day strictly before today, `nov 19` and `15th` the latest such day on or before today, and
/// `sow`/`som`/`soy` the start of this week, month or year.
public struct WhenParser: Sendable {
    /// The instant treated as "now".
    public let now: Date
    /// The zone in which days and wall times are interpreted.
    public let timeZone: Zone
    /// The local day containing `now`.
    public let today: LocalDate
    /// Which way unsigned expressions lean.
    public let direction: WhenDirection

    static let weekdays: [String: Int] = [
        "monday": 1, "mon": 1,
        "tuesday": 2, "tue": 2, "tues": 2,
        "wednesday": 3, "wed": 3,
        "thursday": 4, "thu": 4, "thur": 4, "thurs": 4,
        "friday": 5, "fri": 5,
        "saturday": 6, "sat": 6,
        "sunday": 7, "sun": 7,
    ]

    static let months: [String: Int] = [
        "january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3,
        "april": 4, "apr": 4, "may": 5, "june": 6, "jun": 6, "july": 7, "jul": 7,
        "august": 8, "aug": 8, "september": 9, "sep": 9, "sept": 9, "october": 10, "oct": 10,
        "november": 11, "nov": 11, "december": 12, "dec": 12,
    ]

    /// Largest accepted relative amount (`in 99999d`), keeping date arithmetic far from overflow.
    static let maxAmount = 99_999

    /// Creates a parser for the clock `now` in `timeZone`; `direction` says which way
    /// unsigned expressions lean (``WhenDirection``).
    public init(now: Date, timeZone: Zone, direction: WhenDirection = .future) {
        self.now = now
        self.timeZone = timeZone
        self.today = LocalDate(date: now, timeZone: timeZone)
        self.direction = direction
    }

    /// Parses a WHEN expression into an all-day date or an exact instant.
    /// Throws `.outOfRange` for a date outside ``DateRange`` (e.g. `in 99999y`), so no
    /// caller can store a date the file reader would refuse.
    public func parse(_ text: String) throws(DateError) -> TaskDate {
        let date = try parseAnyDate(text)
        guard DateRange.contains(date) else {
            let day: LocalDate? = if case .day(let d) = date { d } else { nil }
            throw .outOfRange(input: text.trimmingWhitespaceAndNewlines(), day: day)
        }
        return date
    }

    /// `parse(_:)` without the range check.
    private func parseAnyDate(_ text: String) throws(DateError) -> TaskDate {
        let input = text.trimmingWhitespaceAndNewlines()
        guard !input.isEmpty else { throw .unrecognized(word: "", input: text) }

        if let at = input.firstIndex(of: "@") {
            let dayText = input[..<at].trimmingWhitespace()
            let timeText = input[input.index(after: at)...].trimmingWhitespace()
            guard !dayText.isEmpty else { throw .unrecognized(word: "@" + timeText, input: input) }
            guard let day = try matchDay(dayText) else {
                throw .unrecognized(word: dayText, input: input)
            }
            guard !timeText.isEmpty else { throw .unrecognized(word: dayText + "@", input: input) }
            guard let time = try matchTime(timeText, bareHour: true) else {
                throw .unrecognized(word: timeText, input: input)
            }
            return .time(instant(on: day, time))
        }

        if WhenParser.normalize(input) == "now" {
            return .time(now)
        }
        if let relative = try WhenParser.relative(input), relative.unit.isTimeOfDay {
            return .time(now.addingTimeInterval(TimeInterval(signed(relative) * relative.minutes * 60)))
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
    /// Throws `.timeNotAllowed` when the expression has a time of day, and
    /// `.relativeTimeNotAllowed` for an amount of minutes or hours (`2h`, `3m`).
    public func parseDay(_ text: String) throws(DateError) -> LocalDate {
        switch try parse(text) {
        case .day(let day): return day
        case .time: throw WhenParser.dayOnlyError(text)
        }
    }

    /// Throws `.inFuture` when `date` (parsed from `input`) leaves nothing to select among
    /// things that happened: with `strictlyAfter` (`completed.after:`), a day from today on or
    /// an instant from now on; otherwise (`--since`, `completed:`) a day after today or an
    /// instant after now. `what` names the option or filter term in the message.
    public func requirePast(_ date: TaskDate, input: String, what: String, strictlyAfter: Bool) throws(DateError) {
        let future: Bool
        switch date {
        case .day(let day): future = strictlyAfter ? day >= today : day > today
        case .time(let instant): future = strictlyAfter ? instant >= now : instant > now
        }
        guard future else { return }
        let resolved: String
        switch date {
        case .day(let day): resolved = day.iso
        case .time(let instant): resolved = Timestamp.format(instant)
        }
        throw .inFuture(input: input.trimmingWhitespaceAndNewlines(), resolved: resolved, what: what)
    }

    /// Why `text`, which names a time, cannot stand where only a day is allowed.
    public static func dayOnlyError(_ text: String) -> DateError {
        let trimmed = text.trimmingWhitespaceAndNewlines()
        if let relative = try? relative(trimmed), relative.unit.isTimeOfDay {
            return .relativeTimeNotAllowed(input: trimmed, amount: relative.amount, unit: relative.unit)
        }
        return .timeNotAllowed(trimmed)
    }

    // MARK: - Days

    /// Parses a day expression; nil when it is not one. Throws `.invalidDate` for an
    /// ISO-shaped or month-name date that does not exist.
    private func matchDay(_ text: String) throws(DateError) -> LocalDate? {
        var word = WhenParser.normalize(text)
        switch word {
        case "today": return today
        case "tomorrow", "tom": return today.adding(days: 1)
        case "yesterday": return today.adding(days: -1)
        case "this week": return today.adding(days: 1 - today.weekday)
        case "this month": return today.firstDayOfMonth
        case "this year": return today.adding(months: 1 - today.month).firstDayOfMonth
        case "last week", "lastweek", "last-week": return today.adding(days: -6 - today.weekday)
        case "last month": return today.adding(months: -1).firstDayOfMonth
        case "last year": return today.adding(months: -11 - today.month).firstDayOfMonth   // Jan 1
        case "next week", "nextweek", "next-week": return today.adding(days: 8 - today.weekday)
        case "next month": return today.adding(months: 1).firstDayOfMonth
        case "next year": return today.adding(months: 13 - today.month).firstDayOfMonth   // Jan 1
        default: break
        }
        // Taskwarrior's `sow`, `eom`, `sonw`, `eopq`…: this (next, previous) period's first or last day.
        if let period = PeriodWord(word) { return period.day(from: today) }
        // `next monday` is the same day as `monday`: the next one after today; `last monday`
        // the last one before today.
        var lean = direction
        if word.hasPrefix("next "), WhenParser.weekdays[String(word.dropFirst(5))] != nil {
            word = String(word.dropFirst(5))
            lean = .future
        } else if word.hasPrefix("last "), WhenParser.weekdays[String(word.dropFirst(5))] != nil {
            word = String(word.dropFirst(5))
            lean = .past
        }
        if let weekday = WhenParser.weekdays[word] {
            if lean == .past {
                let back = (today.weekday - weekday + 7) % 7
                return today.adding(days: back == 0 ? -7 : -back)
            }
            let ahead = (weekday - today.weekday + 7) % 7
            return today.adding(days: ahead == 0 ? 7 : ahead)
        }
        if let relative = try WhenParser.relative(word) {
            let amount = signed(relative) * relative.amount
            switch relative.unit {
            case .minute, .hour: return nil
            case .day: return today.adding(days: amount)
            case .week: return today.adding(days: amount * 7)
            case .month: return today.adding(months: amount)
            case .year: return today.adding(months: amount * 12)
            }
        }
        if let date = try monthDay(word) {
            return date
        }
        if let dayOfMonth = WhenParser.ordinal(word) {
            return nextDay(ofMonth: dayOfMonth)
        }
        if let (year, month, day) = LocalDate.parseISO(Array(word.utf8)) {
            guard let date = LocalDate(year: year, month: month, day: day) else {
                throw .invalidDate(text)
            }
            return date
        }
        return nil
    }

    // MARK: - Times

    /// A validated wall-clock time.
    private struct WallTime {
        var hour: Int
        var minute: Int
        var second: Int
    }

    /// Parses `17:00`, `9:05`, `17:00:30`, `5pm`, `5:30pm`, `12am`, `noon`; with `bareHour`
    /// (after `@`) also `17` or `9` (an hour on the 24-hour clock). Nil when the text is not
    /// shaped like a time, `.invalidTime` when it is but the values are out of range.
    private func matchTime(_ text: String, bareHour: Bool = false) throws(DateError) -> WallTime? {
        let normalized = WhenParser.normalize(text)
        if normalized == "noon" { return WallTime(hour: 12, minute: 0, second: 0) }
        let bytes = Array(normalized.utf8)
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
        // A bare number is not a time, except right after `@` (`fri@17`).
        guard hasColon || meridiem != nil || bareHour else { return nil }

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
        let originalRest = String(text.dropFirst(11)).trimmingWhitespace()

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

    /// 1 when `relative` points ahead, -1 when back: its own sign, else the parser's direction.
    private func signed(_ relative: Relative) -> Int {
        (relative.direction ?? direction) == .past ? -1 : 1
    }

    /// The instant at which the local wall clock shows `time` on `day` (DST-correct).
    private func instant(on day: LocalDate, _ time: WallTime) -> Date {
        day.at(hour: time.hour, minute: time.minute, timeZone: timeZone)
            .addingTimeInterval(TimeInterval(time.second))
    }

    /// Lowercases and collapses whitespace runs to single spaces.
    static func normalize(_ text: String) -> String {
        text.lowercased().split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}
