import FoundationEssentials

/// A task's place on a day: a wall-clock start and a length in minutes.
///
/// Stored as `"slot": {"start": "2026-11-24T10:00", "minutes": 45}`: local
/// wall-clock time with no zone (like `scheduled`, it means that time wherever
/// you are). A slot never crosses midnight.
public struct TaskSlot: Equatable, Sendable {
    /// The day the slot is on.
    public var day: LocalDate
    /// Wall-clock start (before 24:00).
    public var start: ClockTime
    /// Length in minutes (at least 1; the slot ends by 24:00).
    public var minutes: Int
    /// Unknown keys inside the slot object, kept verbatim.
    public var extra: [JSONMember]

    public init(day: LocalDate, start: ClockTime, minutes: Int, extra: [JSONMember] = []) {
        self.day = day
        self.start = start
        self.minutes = minutes
        self.extra = extra
    }

    /// The wall-clock end (at most 24:00).
    public var end: ClockTime { start.adding(minutes: minutes) ?? .endOfDay }

    /// `YYYY-MM-DDTHH:MM`, the file form of ``start``.
    public var startString: String { day.iso + "T" + start.description }

    /// True when a slot of this length may start at `start`.
    public static func isValid(start: ClockTime, minutes: Int) -> Bool {
        minutes >= 1 && start.minutes < 1440 && start.minutes + minutes <= 1440
    }

    /// Parses the file form `YYYY-MM-DDTHH:MM`; nil otherwise.
    public static func parseStart(_ text: String) -> (LocalDate, ClockTime)? {
        let parts = text.split(separator: "T", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[1].count == 5, let day = LocalDate(iso: String(parts[0])),
              let time = ClockTime(parsing: String(parts[1])), time.minutes < 1440 else { return nil }
        return (day, time)
    }

    /// The canonical JSON object.
    public var node: JSONNode {
        .object([
            JSONMember("start", .string(startString)),
            JSONMember("minutes", JSONNode(.number(String(minutes)))),
        ] + extra)
    }
}

/// Limits on task estimates.
public enum TaskEstimate {
    /// The largest estimate accepted, in minutes (about 69 days).
    public static let maxMinutes = 99_999
}
