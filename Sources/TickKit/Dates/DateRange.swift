import FoundationEssentials

/// The dates tick accepts from input: days 1970-01-01 through 9999-12-31, and
/// instants from 1970-01-01T00:00:00Z up to (not including) 10000-01-01T00:00:00Z.
///
/// The file reader accepts four-digit years (0000-9999); input is held to a
/// narrower range so that every date tick writes reads back unchanged (wall
/// times before 1582 would go through the Julian calendar, and a time late on
/// 9999-12-31 west of UTC is already year 10000 in UTC). See Docs/FORMAT.md 5.1.
public enum DateRange {
    /// The first day accepted: 1970-01-01.
    public static let first = LocalDate(daysSinceEpoch: 0)
    /// The last day accepted: 9999-12-31.
    public static let last = LocalDate(daysSinceEpoch: LocalDate.days(fromCivil: 9_999, 12, 31))

    /// "1970-01-01 to 9999-12-31", for messages.
    public static let text = "\(first.iso) to \(last.iso)"

    /// Seconds since 1970 of 10000-01-01T00:00:00Z, the first instant past the range.
    static let endSeconds = TimeInterval(LocalDate.days(fromCivil: 10_000, 1, 1) * 86_400)

    /// Whether `day` lies in 1970-01-01 ... 9999-12-31.
    public static func contains(_ day: LocalDate) -> Bool {
        first <= day && day <= last
    }

    /// Whether `instant` lies in 1970-01-01T00:00:00Z ..< 10000-01-01T00:00:00Z.
    public static func contains(_ instant: Date) -> Bool {
        let seconds = instant.timeIntervalSince1970
        return seconds >= 0 && seconds < endSeconds
    }

    /// Whether a task date (a day, or an instant in UTC) lies in the range.
    public static func contains(_ date: TaskDate) -> Bool {
        switch date {
        case .day(let day): return contains(day)
        case .time(let instant): return contains(instant)
        }
    }
}
