import FoundationEssentials

/// A POSIX TZ rule (`std offset [dst [offset] [,start[/time],end[/time]]]`), as in the
/// `TZ` variable and in a TZif file's footer, with RFC 8536 §3.3.1's extensions
/// (transition hours from -167 to 167) and quoted names (`<+0330>-3:30`).
///
/// Offsets in the text count west of Greenwich (`EST5` is UTC-5); the stored
/// types hold seconds east. A `dst` without an offset is one hour ahead of `std`;
/// a `dst` without rules uses the US rules glibc assumes (`M3.2.0,M11.1.0`).
struct PosixTimeZoneRule: Hashable, Sendable {
    /// The day a transition happens on.
    enum Day: Hashable, Sendable {
        /// `Jn`: day 1...365, February 29 never counted.
        case julian(Int)
        /// `n`: zero-based day 0...365, February 29 counted in leap years.
        case zeroBased(Int)
        /// `Mm.w.d`: weekday d (0 = Sunday) of week w (5 = last) of month m.
        case monthWeekDay(month: Int, week: Int, weekday: Int)
    }

    /// A transition: a day and the local wall time (seconds, may be negative or past 24 h).
    struct Transition: Hashable, Sendable {
        let day: Day
        let time: Int
    }

    let standard: LocalTimeType
    let daylight: LocalTimeType?
    let start: Transition
    let end: Transition

    /// Parses `text`; throws when any part of it is not POSIX TZ syntax.
    init(parsing text: String) throws(ZoneError) {
        var parser = Parser(bytes: Array(text.utf8))
        guard let rule = parser.rule(), parser.atEnd else { throw .invalidRule(text) }
        self = rule
    }

    init(standard: LocalTimeType, daylight: LocalTimeType?, start: Transition, end: Transition) {
        self.standard = standard
        self.daylight = daylight
        self.start = start
        self.end = end
    }

    /// The local time type in effect at `instant` (seconds since 1970, UTC).
    func type(at instant: Int64) -> LocalTimeType {
        guard let daylight else { return standard }
        let t = Int(instant)
        let year = LocalDate.civil(fromDays: LocalDate.floorDiv(t + standard.utcOffset, 86_400)).year
        // The last transition at or before the instant, looking one year either side
        // (rules near New Year, southern-hemisphere summers, all-year DST).
        var latest = Int.min
        var isDaylight = false
        for y in (year - 1)...(year + 1) {
            let starts = localSeconds(of: start, in: y) - standard.utcOffset
            let ends = localSeconds(of: end, in: y) - daylight.utcOffset
            if starts <= t, starts >= latest { latest = starts; isDaylight = true }
            if ends <= t, ends >= latest { latest = ends; isDaylight = false }
        }
        return isDaylight ? daylight : standard
    }

    /// The local wall-clock second (since 1970-01-01T00:00 local) of a transition in `year`.
    func localSeconds(of transition: Transition, in year: Int) -> Int {
        let january1 = LocalDate.days(fromCivil: year, 1, 1)
        let leap = LocalDate.isLeapYear(year)
        let dayOfYear: Int
        switch transition.day {
        case .julian(let n):
            dayOfYear = n - 1 + (leap && n >= 60 ? 1 : 0)
        case .zeroBased(let n):
            dayOfYear = n
        case .monthWeekDay(let month, let week, let weekday):
            let first = LocalDate.days(fromCivil: year, month, 1)
            // 1970-01-01 was a Thursday (4, with Sunday = 0).
            let firstWeekday = LocalDate.floorMod(first + 4, 7)
            var day = (weekday - firstWeekday + 7) % 7 + (week - 1) * 7
            let length = LocalDate.daysInMonth(year: year, month: month)
            while day >= length { day -= 7 }
            dayOfYear = first + day - january1
        }
        return (january1 + dayOfYear) * 86_400 + transition.time
    }

    /// The byte-level parser.
    private struct Parser {
        let bytes: [UInt8]
        var position = 0

        var atEnd: Bool { position == bytes.count }

        func peek() -> UInt8? { position < bytes.count ? bytes[position] : nil }

        mutating func take(_ byte: UInt8) -> Bool {
            guard peek() == byte else { return false }
            position += 1
            return true
        }

        mutating func rule() -> PosixTimeZoneRule? {
            guard let standardName = name(), let standardWest = offset(maxHours: 24) else { return nil }
            let standard = LocalTimeType(utcOffset: -standardWest, isDaylightSavingTime: false, abbreviation: standardName)
            let usStart = Transition(day: .monthWeekDay(month: 3, week: 2, weekday: 0), time: 7_200)
            let usEnd = Transition(day: .monthWeekDay(month: 11, week: 1, weekday: 0), time: 7_200)
            if atEnd {
                return PosixTimeZoneRule(standard: standard, daylight: nil, start: usStart, end: usEnd)
            }
            guard let daylightName = name() else { return nil }
            var daylightWest = standardWest - 3_600
            if let byte = peek(), byte != UInt8(ascii: ",") {
                guard let west = offset(maxHours: 24) else { return nil }
                daylightWest = west
            }
            let daylight = LocalTimeType(utcOffset: -daylightWest, isDaylightSavingTime: true, abbreviation: daylightName)
            if atEnd {
                return PosixTimeZoneRule(standard: standard, daylight: daylight, start: usStart, end: usEnd)
            }
            guard take(UInt8(ascii: ",")), let start = transition(), take(UInt8(ascii: ",")), let end = transition() else { return nil }
            return PosixTimeZoneRule(standard: standard, daylight: daylight, start: start, end: end)
        }

        /// `EST` (three or more letters) or `<+0330>` (three or more of letters, digits, + and -).
        mutating func name() -> String? {
            let begin = position
            if take(UInt8(ascii: "<")) {
                while let byte = peek(), byte != UInt8(ascii: ">") {
                    guard isAlpha(byte) || isDigit(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") else { return nil }
                    position += 1
                }
                let inner = bytes[(begin + 1)..<position]
                guard take(UInt8(ascii: ">")), inner.count >= 3 else { return nil }
                return String(decoding: inner, as: UTF8.self)
            }
            while let byte = peek(), isAlpha(byte) { position += 1 }
            guard position - begin >= 3 else { return nil }
            return String(decoding: bytes[begin..<position], as: UTF8.self)
        }

        /// `[+-]hh[:mm[:ss]]` in seconds (sign as written: positive is west for offsets).
        mutating func offset(maxHours: Int) -> Int? {
            var sign = 1
            if take(UInt8(ascii: "-")) { sign = -1 } else { _ = take(UInt8(ascii: "+")) }
            guard let hours = number(maxDigits: 3), hours <= maxHours else { return nil }
            var seconds = hours * 3_600
            if take(UInt8(ascii: ":")) {
                guard let minutes = number(maxDigits: 2), minutes <= 59 else { return nil }
                seconds += minutes * 60
                if take(UInt8(ascii: ":")) {
                    guard let secs = number(maxDigits: 2), secs <= 59 else { return nil }
                    seconds += secs
                }
            }
            return sign * seconds
        }

        /// `Jn`, `n` or `Mm.w.d`, then an optional `/time` (default 02:00).
        mutating func transition() -> Transition? {
            let day: Day
            if take(UInt8(ascii: "J")) {
                guard let n = number(maxDigits: 3), (1...365).contains(n) else { return nil }
                day = .julian(n)
            } else if take(UInt8(ascii: "M")) {
                guard let m = number(maxDigits: 2), (1...12).contains(m), take(UInt8(ascii: ".")),
                      let w = number(maxDigits: 1), (1...5).contains(w), take(UInt8(ascii: ".")),
                      let d = number(maxDigits: 1), (0...6).contains(d) else { return nil }
                day = .monthWeekDay(month: m, week: w, weekday: d)
            } else {
                guard let n = number(maxDigits: 3), (0...365).contains(n) else { return nil }
                day = .zeroBased(n)
            }
            var time = 7_200
            if take(UInt8(ascii: "/")) {
                guard let t = offset(maxHours: 167) else { return nil }
                time = t
            }
            return Transition(day: day, time: time)
        }

        mutating func number(maxDigits: Int) -> Int? {
            var value = 0
            var digits = 0
            while let byte = peek(), isDigit(byte), digits < maxDigits {
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                digits += 1
                position += 1
            }
            return digits > 0 ? value : nil
        }

        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        func isAlpha(_ byte: UInt8) -> Bool {
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
        }
    }
}
