import FoundationEssentials

/// The part of a day that planning fills: `09:00-18:00` unless configured.
public struct WorkingHours: Sendable, Equatable, CustomStringConvertible {
    public var start: ClockTime
    public var end: ClockTime

    /// 09:00-18:00.
    public static let standard = WorkingHours(uncheckedStart: 9 * 60, end: 18 * 60)

    /// Nil unless `start < end`.
    public init?(start: ClockTime, end: ClockTime) {
        guard start < end else { return nil }
        self.start = start
        self.end = end
    }

    private init(uncheckedStart: Int, end: Int) {
        self.start = ClockTime(minutes: uncheckedStart) ?? ClockTime.endOfDay
        self.end = ClockTime(minutes: end) ?? ClockTime.endOfDay
    }

    /// Parses `08:30-17:00` (or `8am-5pm`); nil when it is not a range of two
    /// times with the start before the end.
    public init?(parsing text: String) {
        guard let range = TimeRange(parsing: text) else { return nil }
        self.init(start: range.start, end: range.end)
    }

    /// Length in minutes.
    public var minutes: Int { end.minutes - start.minutes }

    /// `09:00-18:00`.
    public var description: String { "\(start)-\(end)" }
}

/// A `HH:MM-HH:MM` range on one day, the end after the start (24:00 allowed as the end).
public struct TimeRange: Sendable, Equatable {
    public var start: ClockTime
    public var end: ClockTime

    public init?(start: ClockTime, end: ClockTime) {
        guard start < end, start.minutes < 1440 else { return nil }
        self.start = start
        self.end = end
    }

    /// Parses `09:00-09:15`, `9am-10:30am`, `14:00-15:00`.
    public init?(parsing text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let a = ClockTime(parsing: String(parts[0])), let b = ClockTime(parsing: String(parts[1])) else { return nil }
        self.init(start: a, end: b)
    }

    public var minutes: Int { end.minutes - start.minutes }
}
