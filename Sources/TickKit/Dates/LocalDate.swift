import FoundationEssentials

/// A calendar day with no time zone (all-day due dates, scheduled dates).
///
/// Day arithmetic is pure integer math on the proleptic Gregorian calendar
/// (days-from-civil). Wall time -> instant and instant -> day use the ``Zone``'s offsets.
/// Both are DST-correct.
public struct LocalDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The Gregorian year, e.g. 2026.
    public let year: Int
    /// The month, 1 = January ... 12 = December.
    public let month: Int
    /// The day of the month, 1 ... 31.
    public let day: Int

    /// Creates a date, or returns nil when the day does not exist (e.g. 2026-02-30, 2027-02-29).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month),
              day >= 1,
              day <= LocalDate.daysInMonth(year: year, month: month),
              abs(year) <= LocalDate.maxYear
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses strictly "YYYY-MM-DD" (four-digit year, two-digit month and day); nil for anything else
    /// or for a day that does not exist.
    public init?(iso: String) {
        let parsed: (Int, Int, Int)? = iso.utf8.withContiguousStorageIfAvailable { buffer in
            LocalDate.parseISO(buffer)
        } ?? LocalDate.parseISO(Array(iso.utf8))
        guard let (y, m, d) = parsed else { return nil }
        self.init(year: y, month: m, day: d)
    }

    /// Creates the date with the given number of days since 1970-01-01 (which is day 0).
    public init(daysSinceEpoch: Int) {
        let civil = LocalDate.civil(fromDays: daysSinceEpoch)
        self.year = civil.year
        self.month = civil.month
        self.day = civil.day
    }

    /// The local calendar day on which `date` falls in `timeZone`.
    public init(date: Date, timeZone: Zone) {
        let offset = timeZone.secondsFromGMT(for: date)
        let localSeconds = Int(date.timeIntervalSince1970.rounded(.down)) + offset
        self.init(daysSinceEpoch: LocalDate.floorDiv(localSeconds, 86_400))
    }

    /// "YYYY-MM-DD".
    public var iso: String {
        LocalDate.pad(year, 4) + "-" + LocalDate.pad(month, 2) + "-" + LocalDate.pad(day, 2)
    }

    /// The same as `iso`.
    public var description: String { iso }

    /// Days since 1970-01-01 (that day is 0; earlier days are negative).
    public var daysSinceEpoch: Int {
        LocalDate.days(fromCivil: year, month, day)
    }

    /// ISO weekday: 1 = Monday ... 7 = Sunday.
    public var weekday: Int {
        // 1970-01-01 was a Thursday (ISO 4).
        LocalDate.floorMod(daysSinceEpoch + 3, 7) + 1
    }

    /// The first day of this date's month.
    public var firstDayOfMonth: LocalDate {
        LocalDate(uncheckedYear: year, month: month, day: 1)
    }

    /// The last day of this date's month.
    public var lastDayOfMonth: LocalDate {
        LocalDate(uncheckedYear: year, month: month, day: LocalDate.daysInMonth(year: year, month: month))
    }

    /// This date moved by `days` days (negative moves back).
    public func adding(days: Int) -> LocalDate {
        LocalDate(daysSinceEpoch: daysSinceEpoch + days)
    }

    /// This date moved by `months` months, clamping the day to the target month's end
    /// (Jan 31 + 1 month = Feb 28, or Feb 29 in a leap year).
    public func adding(months: Int) -> LocalDate {
        let total = year * 12 + (month - 1) + months
        let newYear = LocalDate.floorDiv(total, 12)
        let newMonth = LocalDate.floorMod(total, 12) + 1
        let newDay = min(day, LocalDate.daysInMonth(year: newYear, month: newMonth))
        return LocalDate(uncheckedYear: newYear, month: newMonth, day: newDay)
    }

    /// The number of days from this date to `other` (`other - self`; negative when `other` is earlier).
    public func days(until other: LocalDate) -> Int {
        other.daysSinceEpoch - daysSinceEpoch
    }

    /// Local midnight of this day in `timeZone` as an instant. When midnight does not exist
    /// (a DST change at midnight) this is the first instant of the day, as `Calendar` reports it.
    public func startOfDay(in timeZone: Zone) -> Date {
        at(hour: 0, minute: 0, timeZone: timeZone)
    }

    /// The instant at which the wall clock in `timeZone` shows `hour:minute:second` on this day.
    ///
    /// DST-correct, with the rule Foundation's Gregorian `Calendar` uses (``Zone/date(localSeconds:)``):
    /// a time inside a spring-forward gap moves forward by the gap (02:30 on a day that jumps
    /// 02:00 -> 03:00 becomes 03:30), and an ambiguous time in an autumn overlap resolves to its
    /// first (daylight-time) occurrence. Out-of-range values roll over (hour 24 is the next midnight).
    public func at(hour: Int, minute: Int, second: Int = 0, timeZone: Zone) -> Date {
        timeZone.date(localSeconds: daysSinceEpoch * 86_400 + hour * 3_600 + minute * 60 + second)
    }

    /// Orders dates chronologically.
    public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    // MARK: - Calendar arithmetic

    /// Years beyond this magnitude are rejected so day arithmetic can never overflow.
    static let maxYear = 1_000_000

    /// Whether `year` is a Gregorian leap year.
    public static func isLeapYear(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    /// The number of days in `month` (1...12) of `year`; 0 for an invalid month.
    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 1, 3, 5, 7, 8, 10, 12: return 31
        case 4, 6, 9, 11: return 30
        case 2: return isLeapYear(year) ? 29 : 28
        default: return 0
        }
    }

    /// Days since 1970-01-01 for a civil date (Howard Hinnant's days_from_civil).
    static func days(fromCivil year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = floorDiv(y, 400)
        let yoe = y - era * 400                                   // [0, 399]
        let mp = (month + 9) % 12                                 // March = 0
        let doy = (153 * mp + 2) / 5 + day - 1                    // [0, 365]
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy           // [0, 146096]
        return era * 146_097 + doe - 719_468
    }

    /// The civil date for a count of days since 1970-01-01 (Howard Hinnant's civil_from_days).
    static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = floorDiv(z, 146_097)
        let doe = z - era * 146_097                                       // [0, 146096]
        let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365 // [0, 399]
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)                 // [0, 365]
        let mp = (5 * doy + 2) / 153                                      // [0, 11]
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    static func floorDiv(_ a: Int, _ b: Int) -> Int {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }

    static func floorMod(_ a: Int, _ b: Int) -> Int {
        a - floorDiv(a, b) * b
    }

    /// Zero-pads a non-negative number to `width` digits (negative numbers get a leading "-").
    static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(abs(value))
        let padded = digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
        return value < 0 ? "-" + padded : padded
    }

    /// Parses "YYYY-MM-DD" bytes into numbers without validating the day.
    static func parseISO<C: RandomAccessCollection>(_ bytes: C) -> (Int, Int, Int)? where C.Element == UInt8, C.Index == Int {
        guard bytes.count == 10 else { return nil }
        let base = bytes.startIndex
        guard bytes[base + 4] == UInt8(ascii: "-"), bytes[base + 7] == UInt8(ascii: "-") else { return nil }
        func number(_ from: Int, _ length: Int) -> Int? {
            var value = 0
            for index in (base + from)..<(base + from + length) {
                let byte = bytes[index]
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let y = number(0, 4), let m = number(5, 2), let d = number(8, 2) else { return nil }
        return (y, m, d)
    }

    /// Builds a date the caller has already validated.
    private init(uncheckedYear year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }
}
