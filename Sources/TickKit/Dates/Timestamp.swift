import FoundationEssentials

/// ISO 8601 timestamps as used in tick's files.
///
/// Both directions are hand-written byte code with days-from-civil arithmetic (no
/// `DateFormatter`), because they run for every task in a store.
public enum Timestamp {
    /// "2026-11-21T07:20:25Z" (UTC, whole seconds rounded down, always "Z").
    public static func format(_ date: Date) -> String {
        let total = Int(date.timeIntervalSince1970.rounded(.down))
        let days = LocalDate.floorDiv(total, 86_400)
        let secondOfDay = total - days * 86_400
        let civil = LocalDate.civil(fromDays: days)
        let hour = secondOfDay / 3_600
        let minute = (secondOfDay % 3_600) / 60
        let second = secondOfDay % 60

        guard (0...9_999).contains(civil.year) else {
            // Outside the four-digit range: correct but rare, so take the slow path.
            return LocalDate.pad(civil.year, 4) + "-" + LocalDate.pad(civil.month, 2) + "-"
                + LocalDate.pad(civil.day, 2) + "T" + LocalDate.pad(hour, 2) + ":"
                + LocalDate.pad(minute, 2) + ":" + LocalDate.pad(second, 2) + "Z"
        }
        return String(unsafeUninitializedCapacity: 20) { buffer in
            func put(_ value: Int, _ width: Int, at start: Int) {
                var rest = value
                var index = start + width - 1
                while index >= start {
                    buffer[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                    index -= 1
                }
            }
            put(civil.year, 4, at: 0)
            buffer[4] = UInt8(ascii: "-")
            put(civil.month, 2, at: 5)
            buffer[7] = UInt8(ascii: "-")
            put(civil.day, 2, at: 8)
            buffer[10] = UInt8(ascii: "T")
            put(hour, 2, at: 11)
            buffer[13] = UInt8(ascii: ":")
            put(minute, 2, at: 14)
            buffer[16] = UInt8(ascii: ":")
            put(second, 2, at: 17)
            buffer[19] = UInt8(ascii: "Z")
            return 20
        }
    }

    /// Parses an ISO 8601 timestamp. Accepted forms:
    /// - "YYYY-MM-DDTHH:MM:SS" with optional fractional seconds (".123", any number of digits)
    ///   and an optional zone: "Z", "+HH:MM", "-HH:MM", "+HHMM" or "-HHMM". Without a zone the
    ///   time is taken as UTC.
    /// - "YYYY-MM-DDTHH:MM" (no seconds), which must carry "Z" or an offset.
    ///
    /// Returns nil for anything else, including impossible dates ("2026-13-01T00:00:00Z"),
    /// out-of-range times, and an offset that moves the instant out of the years
    /// 0000-9999 in UTC (`format` could not write it back in four digits). Leap seconds
    /// (":60") are rejected.
    public static func parse(_ text: String) -> Date? {
        if let result = text.utf8.withContiguousStorageIfAvailable({ parse(bytes: $0) }) {
            return result
        }
        return parse(bytes: Array(text.utf8))
    }

    /// 0000-01-01T00:00:00Z and 10000-01-01T00:00:00Z in seconds since 1970: the instants
    /// `format` writes with a four-digit year lie in `firstSecond..<endSecond`.
    static let firstSecond = LocalDate.days(fromCivil: 0, 1, 1) * 86_400
    static let endSecond = LocalDate.days(fromCivil: 10_000, 1, 1) * 86_400

    /// The byte-level parser behind `parse(_:)`; `bounded: false` skips the four-digit-year
    /// check on the result (for callers that report an out-of-range date themselves).
    static func parse<C: RandomAccessCollection>(bytes: C, bounded: Bool = true) -> Date? where C.Element == UInt8, C.Index == Int {
        let count = bytes.count
        // Shortest form: "YYYY-MM-DDTHH:MMZ" (17 bytes).
        guard count >= 17 else { return nil }
        let base = bytes.startIndex
        let zero = UInt8(ascii: "0")

        @inline(__always) func digit(_ offset: Int) -> Int? {
            let byte = bytes[base + offset]
            guard byte >= zero, byte <= UInt8(ascii: "9") else { return nil }
            return Int(byte - zero)
        }
        @inline(__always) func two(_ offset: Int) -> Int? {
            guard let a = digit(offset), let b = digit(offset + 1) else { return nil }
            return a * 10 + b
        }
        @inline(__always) func byte(_ offset: Int) -> UInt8 { bytes[base + offset] }

        guard let y1 = two(0), let y2 = two(2), byte(4) == UInt8(ascii: "-"),
              let month = two(5), byte(7) == UInt8(ascii: "-"),
              let day = two(8), byte(10) == UInt8(ascii: "T"),
              let hour = two(11), byte(13) == UInt8(ascii: ":"),
              let minute = two(14)
        else { return nil }
        let year = y1 * 100 + y2
        guard (1...12).contains(month),
              day >= 1, day <= LocalDate.daysInMonth(year: year, month: month),
              hour <= 23, minute <= 59
        else { return nil }

        var position = 16
        var second = 0
        var fraction = 0.0
        var hasSeconds = false
        if position < count, byte(position) == UInt8(ascii: ":") {
            guard position + 3 <= count, let s = two(position + 1), s <= 59 else { return nil }
            second = s
            hasSeconds = true
            position += 3
            if position < count, byte(position) == UInt8(ascii: ".") {
                position += 1
                // Keep up to nanosecond precision; further digits are validated and ignored.
                var numerator = 0
                var denominator = 1
                var digits = 0
                while position < count, let d = digit(position) {
                    if digits < 9 {
                        numerator = numerator * 10 + d
                        denominator *= 10
                    }
                    digits += 1
                    position += 1
                }
                guard digits > 0 else { return nil }
                fraction = Double(numerator) / Double(denominator)
            }
        }

        var offsetSeconds = 0
        if position == count {
            guard hasSeconds else { return nil }
        } else {
            let sign = byte(position)
            if sign == UInt8(ascii: "Z") {
                position += 1
            } else if sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                position += 1
                guard position + 2 <= count, let offsetHours = two(position) else { return nil }
                position += 2
                if position < count, byte(position) == UInt8(ascii: ":") {
                    position += 1
                }
                guard position + 2 <= count, let offsetMinutes = two(position),
                      offsetHours <= 23, offsetMinutes <= 59
                else { return nil }
                position += 2
                offsetSeconds = (offsetHours * 3_600 + offsetMinutes * 60) * (sign == UInt8(ascii: "-") ? -1 : 1)
            } else {
                return nil
            }
            guard position == count else { return nil }
        }

        let days = LocalDate.days(fromCivil: year, month, day)
        let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second - offsetSeconds
        guard !bounded || (seconds >= firstSecond && seconds < endSecond) else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(seconds) + fraction)
    }
}
