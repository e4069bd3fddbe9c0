import FoundationEssentials

/// A wall-clock time of day as minutes since midnight (0 ... 1440; 1440 is
/// the end of the day, `24:00`, allowed only as an end time).
///
/// Planning works in wall-clock minutes: a day is 00:00-24:00 on the clock,
/// whatever DST does to its real length.
public struct ClockTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Minutes since midnight.
    public let minutes: Int

    /// The end of the day (`24:00`).
    public static let endOfDay = ClockTime(uncheckedMinutes: 1440)

    /// Nil unless `0 <= minutes <= 1440`.
    public init?(minutes: Int) {
        guard (0...1440).contains(minutes) else { return nil }
        self.minutes = minutes
    }

    /// Nil unless the hour and minute form a valid time (`24:00` included).
    public init?(hour: Int, minute: Int) {
        guard (0...24).contains(hour), (0...59).contains(minute), hour < 24 || minute == 0 else { return nil }
        self.minutes = hour * 60 + minute
    }

    private init(uncheckedMinutes: Int) { minutes = uncheckedMinutes }

    public var hour: Int { minutes / 60 }
    public var minute: Int { minutes % 60 }

    /// `HH:MM`, 24-hour.
    public var description: String { LocalDate.pad(hour, 2) + ":" + LocalDate.pad(minute, 2) }

    /// This time moved by `delta` minutes, or nil when it leaves the day.
    public func adding(minutes delta: Int) -> ClockTime? { ClockTime(minutes: minutes + delta) }

    /// The wall-clock time of `date` in `timeZone` (seconds dropped). With
    /// ``description`` this is tick's one clock-time formatter: every `HH:MM`
    /// shown for an instant comes from here.
    public init(date: Date, timeZone: Zone) {
        let local = Int(date.timeIntervalSince1970.rounded(.down)) + timeZone.secondsFromGMT(for: date)
        self.minutes = LocalDate.floorMod(local, 86_400) / 60
    }

    /// `2026-11-24 17:00` (or `2026-11-24T17:00` with `separator: "T"`): the
    /// local day and wall-clock time of `date`.
    public static func dayAndTime(_ date: Date, in timeZone: Zone, separator: String = " ") -> String {
        LocalDate(date: date, timeZone: timeZone).iso + separator + ClockTime(date: date, timeZone: timeZone).description
    }

    /// Parses `14:00`, `9:05`, `09:00`, `24:00`, `9am`, `5pm`, `5:30pm`, `12am`, `12pm`
    /// (case-insensitive); nil otherwise.
    public init?(parsing text: String) {
        var s = text.trimmingWhitespace().lowercased()
        var meridiem: String?
        if s.hasSuffix("am") || s.hasSuffix("pm") {
            meridiem = String(s.suffix(2))
            s = String(s.dropLast(2)).trimmingWhitespace()
        }
        let parts = s.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.count <= 2 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              var hour = Int(parts[0]) else { return nil }
        var minute = 0
        if parts.count == 2 {
            guard parts[1].count == 2, let m = Int(parts[1]) else { return nil }
            minute = m
        } else if meridiem == nil {
            return nil   // a bare number is not a time
        }
        if let meridiem {
            guard (1...12).contains(hour) else { return nil }
            if hour == 12 { hour = 0 }
            if meridiem == "pm" { hour += 12 }
        }
        self.init(hour: hour, minute: minute)
    }

    public static func < (lhs: ClockTime, rhs: ClockTime) -> Bool { lhs.minutes < rhs.minutes }
}
