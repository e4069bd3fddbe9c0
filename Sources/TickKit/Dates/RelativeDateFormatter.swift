import FoundationEssentials

/// Short relative labels for listings, relative to a pinned clock and time zone.
public struct RelativeDateFormatter: Sendable {
    /// The instant treated as "now".
    public let now: Date
    /// The zone in which days and wall times are shown.
    public let timeZone: Zone
    /// The local day containing `now`.
    public let today: LocalDate

    private static let weekdayNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    private static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                     "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Creates a formatter for the clock `now` in `timeZone`.
    public init(now: Date, timeZone: Zone) {
        self.now = now
        self.timeZone = timeZone
        self.today = LocalDate(date: now, timeZone: timeZone)
    }

    /// "today", "tomorrow", "yesterday"; otherwise "Mon 24 Nov" in the current year and
    /// "Mon 24 Nov 2027" in another year. Instants add the local 24-hour time:
    /// "today 17:00", "tomorrow 09:30", "Mon 24 Nov 17:00".
    public func label(_ date: TaskDate) -> String {
        switch date {
        case .day(let day):
            return dayLabel(day)
        case .time(let instant):
            let day = LocalDate(date: instant, timeZone: timeZone)
            return dayLabel(day) + " " + clock(instant)
        }
    }

    /// A shorter label for narrow rows: no weekday and no time ("27 Nov",
    /// "27 Nov 2027", "today", "tomorrow"); an instant today keeps only its time ("17:00").
    public func shortLabel(_ date: TaskDate) -> String {
        let day: LocalDate
        switch date {
        case .day(let d):
            day = d
        case .time(let instant):
            day = LocalDate(date: instant, timeZone: timeZone)
            if day == today { return clock(instant) }
        }
        switch today.days(until: day) {
        case -1...1: return dayLabel(day)
        default:
            let base = "\(day.day) " + RelativeDateFormatter.monthNames[day.month - 1]
            return day.year == today.year ? base : base + " \(day.year)"
        }
    }

    /// Whole local days a date is overdue, or nil when it is not overdue.
    ///
    /// A `.day` is overdue when it is before today (result >= 1). A `.time` is overdue when it is
    /// before now; the result is today minus its local day, so 0 means "earlier today".
    public func overdueDays(_ date: TaskDate) -> Int? {
        switch date {
        case .day(let day):
            guard day < today else { return nil }
            return day.days(until: today)
        case .time(let instant):
            guard instant < now else { return nil }
            return max(0, LocalDate(date: instant, timeZone: timeZone).days(until: today))
        }
    }

    /// "3d overdue", "1d overdue", "overdue" for an instant earlier today, or nil when not overdue.
    public func overdueLabel(_ date: TaskDate) -> String? {
        guard let days = overdueDays(date) else { return nil }
        return days == 0 ? "overdue" : "\(days)d overdue"
    }

    private func dayLabel(_ day: LocalDate) -> String {
        switch today.days(until: day) {
        case 0: return "today"
        case 1: return "tomorrow"
        case -1: return "yesterday"
        default:
            let base = RelativeDateFormatter.weekdayNames[day.weekday - 1] + " \(day.day) "
                + RelativeDateFormatter.monthNames[day.month - 1]
            return day.year == today.year ? base : base + " \(day.year)"
        }
    }

    /// "HH:MM" of an instant on the local wall clock.
    private func clock(_ instant: Date) -> String {
        ClockTime(date: instant, timeZone: timeZone).description
    }
}
