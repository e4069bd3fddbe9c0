import FoundationEssentials

/// A task's date: either an all-day date or an exact instant.
public enum TaskDate: Hashable, Sendable {
    /// An all-day date with no time of day.
    case day(LocalDate)
    /// An exact instant (shown in the viewer's local time).
    case time(Date)

    /// The local day this date falls on.
    public func localDay(in timeZone: Zone) -> LocalDate {
        switch self {
        case .day(let date): return date
        case .time(let instant): return LocalDate(date: instant, timeZone: timeZone)
        }
    }

    /// Canonical file text: "YYYY-MM-DD" for `.day`, `Timestamp.format` for `.time`.
    public var fileString: String {
        switch self {
        case .day(let date): return date.iso
        case .time(let instant): return Timestamp.format(instant)
        }
    }

    /// Parses file text: "YYYY-MM-DD" -> `.day`, otherwise `Timestamp.parse` -> `.time`; nil when neither.
    public init?(fileString: String) {
        if let date = LocalDate(iso: fileString) {
            self = .day(date)
        } else if let instant = Timestamp.parse(fileString) {
            self = .time(instant)
        } else {
            return nil
        }
    }
}
