import FoundationEssentials

/// A `TZ` value that names no zone file, read the way glibc (2.36, `__tzset_parse_tz`)
/// reads it, so that tick and `date` agree on every value a user may have set.
///
/// glibc's reader is lenient and keeps whatever it read before a mistake: it starts
/// from two zeroed rules (both "day 0 of January at 00:00", offset 0, no name), fills
/// them as far as the text parses and ignores the rest. So `EST5EDT,M3.2.0` has the US
/// end rule, a trailing comma changes nothing, and a space right after a rule's day
/// leaves that rule's time at 00:00 instead of 02:00 (`EST5EDT,M3.2.0,M11.1.0 ` ends
/// summer time at midnight) and the rules after it zeroed. Numbers are read as `sscanf("%hu")` reads them (spaces and
/// a sign before the digits, 16-bit wrap-around), offsets clamp to 24:59:59 hours, and
/// the year of a change is the instant's UTC year (`__tz_compute`). The strict RFC 8536
/// reading (TZif footers, ``Zone/init(posix:)``) is ``PosixTimeZoneRule``.
struct GlibcTimeZoneRule: Hashable, Sendable {
    /// One of glibc's two `tz_rule`s: a local time type and the change into it.
    struct Change: Hashable, Sendable {
        /// `n` (zero-based day of the year), `Jn` (1...365, February 29 never counted) or `Mm.w.d`.
        enum Kind: Hashable, Sendable {
            case zeroBased, julian, monthWeekDay
        }

        var kind = Kind.zeroBased
        /// `m`, `w` and `d` of `Mm.w.d`; `day` is also the `n` of `n` and `Jn`.
        var month = 0
        var week = 0
        var day = 0
        /// The local time of the change (seconds, may be negative or past a day).
        var time = 0
        /// Seconds east of UTC.
        var offset = 0
        var name = ""
    }

    var standard = Change()
    var daylight = Change()

    /// How glibc reads a `TZ` value as a POSIX string.
    enum Reading: Hashable, Sendable {
        /// glibc read no standard name and offset: UTC (named after any letters it read,
        /// which tick does not keep), or a rule glibc would read outside its month table.
        case utc
        /// The rules glibc reads.
        case rule(GlibcTimeZoneRule)
        /// A daylight-saving name with no rule (`AAA5BBB`, `AAA5BBB,`): glibc takes the
        /// changes from its `posixrules` file; when that file is missing or has fewer than
        /// two types, the rule given (the US rules).
        case posixRules(standard: LocalTimeType, daylight: LocalTimeType, otherwise: GlibcTimeZoneRule)
    }

    /// Reads `text` (without a leading colon) as glibc's `__tzset_parse_tz` does.
    static func reading(_ text: String) -> Reading {
        var parser = Parser(bytes: Array(text.utf8))
        var rule = GlibcTimeZoneRule()
        guard parser.name(into: &rule.standard), parser.offset(into: &rule.standard, isStandard: true, standardOffset: 0) else {
            return .utc
        }
        var asksForPosixRules = false
        if parser.atEnd {
            // No daylight-saving time: the second type is the first.
            rule.daylight.name = rule.standard.name
            rule.daylight.offset = rule.standard.offset
        } else {
            if parser.name(into: &rule.daylight) {
                _ = parser.offset(into: &rule.daylight, isStandard: false, standardOffset: rule.standard.offset)
                asksForPosixRules = parser.atEnd || (parser.peek() == UInt8(ascii: ",") && parser.peek(1) == nil)
            }
            if parser.change(into: &rule.standard, isStart: true) {
                _ = parser.change(into: &rule.daylight, isStart: false)
            }
        }
        // A month glibc would look up outside its table (a month rule that failed to parse
        // with month 0 or above 12): undefined in glibc; tick reads UTC.
        for change in [rule.standard, rule.daylight] where change.kind == .monthWeekDay && !(1...12).contains(change.month) {
            return .utc
        }
        if asksForPosixRules {
            return .posixRules(
                standard: LocalTimeType(utcOffset: rule.standard.offset, isDaylightSavingTime: false, abbreviation: rule.standard.name),
                daylight: LocalTimeType(utcOffset: rule.daylight.offset, isDaylightSavingTime: true, abbreviation: rule.daylight.name),
                otherwise: rule)
        }
        return .rule(rule)
    }

    /// The local time type at `instant` (seconds since 1970, UTC), as glibc's `__tz_compute`:
    /// both changes in the instant's UTC year; daylight time between them (or outside them
    /// when the start comes after the end, as in the southern hemisphere).
    func type(at instant: Int64) -> LocalTimeType {
        let t = Int(instant)
        let year = LocalDate.civil(fromDays: LocalDate.floorDiv(t, 86_400)).year
        let start = Self.instant(of: standard, in: year)
        let end = Self.instant(of: daylight, in: year)
        let isDaylight = start > end ? (t < end || t >= start) : (t >= start && t < end)
        let change = isDaylight ? daylight : standard
        return LocalTimeType(utcOffset: change.offset, isDaylightSavingTime: isDaylight, abbreviation: change.name)
    }

    /// When `change` happens in `year` (seconds since 1970, UTC), as glibc's `compute_change`
    /// computes it: from January 1 of the year (of 1970 for any earlier year, as glibc does).
    static func instant(of change: Change, in year: Int) -> Int {
        let leap = LocalDate.isLeapYear(year)
        var days = year > 1970 ? LocalDate.days(fromCivil: year, 1, 1) : 0
        switch change.kind {
        case .julian:
            days += change.day - 1 + (change.day >= 60 && leap ? 1 : 0)
        case .zeroBased:
            days += change.day
        case .monthWeekDay:
            // The month is 1...12 (``reading(_:)`` refuses others).
            let month = min(max(change.month, 1), 12)
            let before = LocalDate.days(fromCivil: year, month, 1) - LocalDate.days(fromCivil: year, 1, 1)
            let length = LocalDate.daysInMonth(year: year, month: month)
            days += before
            // The weekday of the month's first day (0 = Sunday), by Zeller's congruence as glibc computes it.
            let shifted = (month + 9) % 12 + 1
            let y = month <= 2 ? year - 1 : year
            var weekday = ((26 * shifted - 2) / 10 + 1 + y % 100 + (y % 100) / 4 + (y / 100) / 4 - 2 * (y / 100)) % 7
            if weekday < 0 { weekday += 7 }
            var day = change.day - weekday
            if day < 0 { day += 7 }
            var week = 1
            while week < change.week {
                if day + 7 >= length { break }
                day += 7
                week += 1
            }
            days += day
        }
        return days * 86_400 - change.offset + change.time
    }

    /// `%hu`: white space, an optional sign, one or more digits; the value as `strtoul`
    /// gives it (negated modulo 2^64 after a `-`, the largest on overflow) cut to 16 bits.
    static func unsignedShort(in bytes: [UInt8], from start: Int) -> (value: Int, end: Int)? {
        var p = start
        while p < bytes.count, [9, 10, 11, 12, 13, 32].contains(bytes[p]) { p += 1 }
        var negative = false
        if p < bytes.count, bytes[p] == UInt8(ascii: "+") || bytes[p] == UInt8(ascii: "-") {
            negative = bytes[p] == UInt8(ascii: "-")
            p += 1
        }
        let digits = p
        var value: UInt64 = 0
        var overflow = false
        while p < bytes.count, Parser.isDigit(bytes[p]) {
            let (times, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times.addingReportingOverflow(UInt64(bytes[p] - UInt8(ascii: "0")))
            overflow = overflow || o1 || o2
            value = sum
            p += 1
        }
        guard p > digits else { return nil }
        if overflow {
            value = UInt64.max
        } else if negative {
            value = 0 &- value
        }
        return (Int(UInt16(truncatingIfNeeded: value)), p)
    }

    /// glibc's byte-level reader: each step fills what it reads before it fails.
    private struct Parser {
        let bytes: [UInt8]
        var position = 0

        var atEnd: Bool { position >= bytes.count }

        func peek(_ ahead: Int = 0) -> UInt8? {
            position + ahead < bytes.count ? bytes[position + ahead] : nil
        }

        /// `parse_tzname`: three or more letters, or `<` three or more of letters, digits, `+`, `-` `>`.
        mutating func name(into change: inout Change) -> Bool {
            var end = position
            while end < bytes.count, Self.isAlpha(bytes[end]) { end += 1 }
            if end - position >= 3 {
                change.name = String(decoding: bytes[position..<end], as: UTF8.self)
                position = end
                return true
            }
            guard peek() == UInt8(ascii: "<") else { return false }
            let begin = position + 1
            end = begin
            while end < bytes.count, Self.isAlpha(bytes[end]) || Self.isDigit(bytes[end])
                    || bytes[end] == UInt8(ascii: "+") || bytes[end] == UInt8(ascii: "-") { end += 1 }
            guard end < bytes.count, bytes[end] == UInt8(ascii: ">"), end - begin >= 3 else { return false }
            change.name = String(decoding: bytes[begin..<end], as: UTF8.self)
            position = end + 1
            return true
        }

        /// `parse_offset`: `[+-]hh[:mm[:ss]]` west of Greenwich, each part clamped (24 h, 59 min, 59 s).
        /// A daylight offset that does not parse is one hour ahead of standard time.
        mutating func offset(into change: inout Change, isStandard: Bool, standardOffset: Int) -> Bool {
            if isStandard {
                guard let byte = peek(), byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || Self.isDigit(byte) else { return false }
            }
            var sign = -1
            if let byte = peek(), byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") {
                sign = byte == UInt8(ascii: "-") ? 1 : -1
                position += 1
            }
            let clock = scanClock(from: position)
            guard let hours = clock.values.first else {
                if isStandard {
                    change.offset = 0
                    return false
                }
                change.offset = standardOffset + 3_600
                return true
            }
            let minutes = clock.values.count > 1 ? clock.values[1] : 0
            let seconds = clock.values.count > 2 ? clock.values[2] : 0
            change.offset = sign * (min(seconds, 59) + min(minutes, 59) * 60 + min(hours, 24) * 3_600)
            position += clock.consumed
            return true
        }

        /// `parse_rule`: `[,]` then `n`, `Jn` or `Mm.w.d`, or nothing at all (the US rule:
        /// `M3.2.0` to start, `M11.1.0` to end), then `/time` (02:00 when absent).
        mutating func change(into change: inout Change, isStart: Bool) -> Bool {
            var p = position
            if p < bytes.count, bytes[p] == UInt8(ascii: ",") { p += 1 }
            let byte: UInt8? = p < bytes.count ? bytes[p] : nil
            if let byte, byte == UInt8(ascii: "J") || Self.isDigit(byte) {
                let julian = byte == UInt8(ascii: "J")
                change.kind = julian ? .julian : .zeroBased
                if julian {
                    p += 1
                    guard p < bytes.count, Self.isDigit(bytes[p]) else { return false }
                }
                var value = 0
                while p < bytes.count, Self.isDigit(bytes[p]) {
                    value = min(value * 10 + Int(bytes[p] - UInt8(ascii: "0")), 1_000)
                    p += 1
                }
                guard value <= 365, !(julian && value == 0) else { return false }
                change.day = value
            } else if byte == UInt8(ascii: "M") {
                change.kind = .monthWeekDay
                // sscanf("M%hu.%hu.%hu%n"): each number is stored as it is read.
                p += 1
                var read = 0
                for index in 0..<3 {
                    if index > 0 {
                        guard p < bytes.count, bytes[p] == UInt8(ascii: ".") else { break }
                        p += 1
                    }
                    guard let (value, next) = GlibcTimeZoneRule.unsignedShort(in: bytes, from: p) else { break }
                    switch index {
                    case 0: change.month = value
                    case 1: change.week = value
                    default: change.day = value
                    }
                    p = next
                    read += 1
                }
                guard read == 3, (1...12).contains(change.month), (1...5).contains(change.week), change.day <= 6 else { return false }
            } else if byte == nil {
                change.kind = .monthWeekDay
                (change.month, change.week, change.day) = isStart ? (3, 2, 0) : (11, 1, 0)
            } else {
                return false
            }
            if p < bytes.count, bytes[p] != UInt8(ascii: "/"), bytes[p] != UInt8(ascii: ",") { return false }
            if p < bytes.count, bytes[p] == UInt8(ascii: "/") {
                p += 1
                guard p < bytes.count else { return false }
                let negative = bytes[p] == UInt8(ascii: "-")
                if negative { p += 1 }
                // sscanf("%hu%n:%hu%n:%hu%n") over the defaults 2:00:00.
                let clock = scanClock(from: p)
                let hours = clock.values.count > 0 ? clock.values[0] : 2
                let minutes = clock.values.count > 1 ? clock.values[1] : 0
                let seconds = clock.values.count > 2 ? clock.values[2] : 0
                p += clock.consumed
                change.time = (negative ? -1 : 1) * (hours * 3_600 + minutes * 60 + seconds)
            } else {
                change.time = 7_200
            }
            position = p
            return true
        }

        /// `sscanf(text, "%hu%n:%hu%n:%hu%n")`: the numbers read (0 to 3) and the bytes up to the last.
        func scanClock(from start: Int) -> (values: [Int], consumed: Int) {
            var values: [Int] = []
            var p = start
            var consumed = 0
            while values.count < 3 {
                if !values.isEmpty {
                    guard p < bytes.count, bytes[p] == UInt8(ascii: ":") else { break }
                    p += 1
                }
                guard let (value, next) = GlibcTimeZoneRule.unsignedShort(in: bytes, from: p) else { break }
                values.append(value)
                p = next
                consumed = p - start
            }
            return (values, consumed)
        }

        static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        static func isAlpha(_ byte: UInt8) -> Bool {
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
        }
    }
}
