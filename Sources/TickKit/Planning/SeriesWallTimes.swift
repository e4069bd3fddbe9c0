import FoundationEssentials

/// The wall-clock times a repeating series means for its timed dates, kept with an
/// occurrence whose time a spring-forward gap moved: a daily 02:30 on a day that
/// jumps 02:00 -> 03:00 is stored as 03:30, and the occurrence after it is at 02:30
/// again (as RFC 5545 and Python's zoneinfo do), not at 03:30 for the rest of the series.
///
/// Stored as the unknown key `repeatTimes` (`{"due": "02:30"}`, local `HH:MM` or
/// `HH:MM:SS` by field) only on an occurrence a gap moved; see Docs/RECURRENCE.md.
/// A stored time counts only while the field is exactly where that time lands on
/// its day, so a date moved by hand gives the series its new time.
struct SeriesWallTimes: Equatable, Sendable {
    /// The fields whose times a series keeps, in the order they are written.
    static let fields = ["due", "remind", "wait"]

    /// Seconds since local midnight (0 ..< 86 400), by field name.
    var seconds: [String: Int]

    init(seconds: [String: Int] = [:]) {
        self.seconds = seconds
    }

    /// The times stored in a task's unknown keys; entries that do not read as a time are ignored.
    init(extra: [JSONMember]) {
        seconds = [:]
        guard let member = extra.first(where: { $0.key == TaskFile.repeatTimesKey }),
              case .object(let members) = member.value.kind else { return }
        for entry in members where Self.fields.contains(entry.key) {
            if case .string(let text) = entry.value.kind, let second = Self.second(parsing: text) {
                seconds[entry.key] = second
            }
        }
    }

    /// The `repeatTimes` member to store, or nil when no field was moved.
    var member: JSONMember? {
        let entries = Self.fields.compactMap { field in
            seconds[field].map { JSONMember(field, .string(Self.text(of: $0))) }
        }
        return entries.isEmpty ? nil : JSONMember(TaskFile.repeatTimesKey, .object(entries))
    }

    /// The local day and wall-clock second (since midnight) the occurrence's `instant` of
    /// `field` stands for: the stored time when `instant` is exactly where that time lands
    /// on the instant's day (or the day before, for a gap across midnight), else the
    /// instant's own day and wall clock.
    func wallClock(of instant: Date, field: String, timeZone: Zone) -> (day: LocalDate, second: Int) {
        let local = timeZone.localSeconds(for: instant)
        let own = (day: LocalDate(daysSinceEpoch: LocalDate.floorDiv(local, 86_400)), second: LocalDate.floorMod(local, 86_400))
        guard let stored = seconds[field] else { return own }
        let whole = Zone.second(of: instant)
        for day in [own.day, own.day.adding(days: -1)] where Zone.second(of: Self.place(day: day, second: stored, timeZone: timeZone)) == whole {
            return (day, stored)
        }
        return own
    }

    /// The instant the wall clock shows `second` on `day` (a time in a gap moves forward by the gap).
    static func place(day: LocalDate, second: Int, timeZone: Zone) -> Date {
        day.at(hour: second / 3_600, minute: second % 3_600 / 60, second: second % 60, timeZone: timeZone)
    }

    /// True when `instant` shows `second` on `day` in `timeZone` (false when a gap moved it).
    static func shows(_ instant: Date, day: LocalDate, second: Int, timeZone: Zone) -> Bool {
        timeZone.localSeconds(for: instant) == day.daysSinceEpoch * 86_400 + second
    }

    /// `02:30` (seconds only when not zero: `02:30:15`).
    static func text(of second: Int) -> String {
        let clock = LocalDate.pad(second / 3_600, 2) + ":" + LocalDate.pad(second % 3_600 / 60, 2)
        return second % 60 == 0 ? clock : clock + ":" + LocalDate.pad(second % 60, 2)
    }

    /// `HH:MM` or `HH:MM:SS` (two digits each, 00:00 ... 23:59:59) as seconds; nil otherwise.
    static func second(parsing text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count),
              parts.allSatisfy({ $0.utf8.count == 2 && $0.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") } })
        else { return nil }
        let numbers = parts.compactMap { Int($0) }
        guard numbers.count == parts.count, numbers[0] < 24, numbers[1] < 60, numbers.count == 2 || numbers[2] < 60 else { return nil }
        return numbers[0] * 3_600 + numbers[1] * 60 + (numbers.count == 3 ? numbers[2] : 0)
    }
}
