import FoundationEssentials

/// A fixed commitment (a time block): a meeting, a standup, a dentist visit.
///
/// Either one-off (on ``date``) or weekly (on the ISO ``weekdays``), always
/// from ``start`` to ``end`` in local wall-clock time.
public struct Commitment: Sendable, Equatable, Identifiable {
    /// When a commitment happens.
    public enum Recurrence: Sendable, Equatable {
        /// Once, on this day.
        case once(LocalDate)
        /// Every week on these ISO weekdays (1 = Monday ... 7 = Sunday), sorted.
        case weekly([Int])
    }

    public var id: UUID
    public var title: String
    public var recurrence: Recurrence
    public var start: ClockTime
    /// Later than ``start``; at most 24:00.
    public var end: ClockTime
    public var createdAt: Date
    public var modifiedAt: Date
    /// Unknown keys, kept verbatim and in order.
    public var extra: [JSONMember]

    public init(id: UUID, title: String, recurrence: Recurrence, start: ClockTime, end: ClockTime,
                createdAt: Date, modifiedAt: Date, extra: [JSONMember] = []) {
        self.id = id
        self.title = title
        self.recurrence = recurrence
        self.start = start
        self.end = end
        self.createdAt = createdAt
        self.modifiedAt = modifiedAt
        self.extra = extra
    }

    /// Length in minutes.
    public var minutes: Int { end.minutes - start.minutes }

    /// True when the commitment takes place on `day`.
    public func occurs(on day: LocalDate) -> Bool {
        switch recurrence {
        case .once(let date): return date == day
        case .weekly(let weekdays): return weekdays.contains(day.weekday)
        }
    }

    /// `mon..sun` names, index 0 = Monday.
    public static let weekdayNames = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]

    /// "2026-11-24", "weekdays", "daily", "weekends" or "mon,wed,fri".
    public var daysText: String {
        switch recurrence {
        case .once(let date): return date.iso
        case .weekly(let days):
            switch days {
            case [1, 2, 3, 4, 5, 6, 7]: return "daily"
            case [1, 2, 3, 4, 5]: return "weekdays"
            case [6, 7]: return "weekends"
            default: return days.map { Self.weekdayNames[$0 - 1] }.joined(separator: ",")
            }
        }
    }

    /// Parses `--days`: `weekdays`, `weekends`, `daily` / `every day`, or a list
    /// of weekday names `mon,wed,fri` (full names too). Nil when not understood.
    public static func parseDays(_ text: String) -> [Int]? {
        let s = text.lowercased().trimmingWhitespace()
        switch s {
        case "daily", "every day", "everyday", "all": return [1, 2, 3, 4, 5, 6, 7]
        case "weekdays", "workdays", "mon-fri": return [1, 2, 3, 4, 5]
        case "weekends", "weekend": return [6, 7]
        default: break
        }
        var days = Set<Int>()
        for part in s.split(whereSeparator: { $0 == "," || $0 == " " }) where !part.isEmpty {
            let word = String(part)
            guard word.count >= 2, let index = fullWeekdayNames.firstIndex(where: { $0.hasPrefix(word) }),
                  fullWeekdayNames.filter({ $0.hasPrefix(word) }).count == 1 else { return nil }
            days.insert(index + 1)
        }
        return days.isEmpty ? nil : days.sorted()
    }

    static let fullWeekdayNames = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
}
