import Foundation
import Testing
@testable import TickKit

/// A repeating series keeps its wall-clock time across a spring-forward gap: the
/// occurrence in the gap is moved forward by the gap, the one after it is back at
/// the series' time (RFC 5545, Python's zoneinfo). The gaps used are real ones
/// (`zdump -v ZONE -c 2027,2028`): New York 2027-03-14 02:00 -> 03:00, Lord Howe
/// 2027-10-03 02:00 -> 02:30, Santiago 2027-09-05 00:00 -> 01:00.
@Suite("recurrence: the series' wall time across a DST gap")
struct RecurrenceWallTimeTests {
    func zone(_ name: String) throws -> Zone { try #require(Zone(named: name), "tzdata has \(name)") }
    func t(_ text: String) throws -> Date { try #require(Timestamp.parse(text)) }
    func d(_ iso: String) throws -> LocalDate { try #require(LocalDate(iso: iso)) }

    /// The local `YYYY-MM-DD HH:MM` of an instant.
    func local(_ date: Date?, _ zone: Zone) -> String? {
        date.map { ClockTime.dayAndTime($0, in: zone) }
    }

    func due(_ task: TaskItem?) -> Date? {
        if case .time(let date)? = task?.due { return date }
        return nil
    }

    /// The `repeatTimes` member of a task, as stored.
    func repeatTimes(_ task: TaskItem?) -> JSONNode? {
        task?.extra.first { $0.key == TaskFile.repeatTimesKey }?.value
    }

    /// A daily task due `first` (local, e.g. "2027-03-13@02:30" parsed in `zone`), completed
    /// `count` times, each a minute after it is due. Returns the occurrences in order.
    func series(_ zone: Zone, first: LocalDate, hour: Int, minute: Int, count: Int,
                remind: (hour: Int, minute: Int)? = nil, rule: String = "daily") throws -> [TaskItem] {
        let created = try t("2027-01-01T00:00:00Z")
        var task = TaskItem(id: UUID(name: "series"), title: "Night job", due: .time(first.at(hour: hour, minute: minute, timeZone: zone)),
                            repeatRule: rule, createdAt: created, modifiedAt: created)
        if let remind { task.remind = first.at(hour: remind.hour, minute: remind.minute, timeZone: zone) }
        var file = TaskFile(kind: .list(slug: "night"), id: UUID(name: "list"), name: "Night", createdAt: created, modifiedAt: created, tasks: [task])
        var occurrences = [task]
        for _ in 0..<count {
            let current = try #require(occurrences.last)
            let doneAt = try #require(due(current)).addingTimeInterval(60)
            let outcome = try file.complete(taskID: current.id, at: doneAt, timeZone: zone)
            occurrences.append(try #require(outcome.next, "a next occurrence after \(local(doneAt, zone) ?? "")"))
        }
        return occurrences
    }

    struct Gap: Sendable, CustomStringConvertible {
        let zone: String
        /// The day before the gap, the series' time, the time the gap moves it to.
        let before: String
        let hour: Int
        let minute: Int
        let moved: String
        /// The UTC instants of the occurrences before, in and after the gap.
        let instants: [String]
        var description: String { "\(zone) \(before) \(hour):\(minute)" }
    }

    static let gaps = [
        // 02:30 EST = 07:30Z; 03:30 EDT = 07:30Z; 02:30 EDT = 06:30Z.
        Gap(zone: "America/New_York", before: "2027-03-13", hour: 2, minute: 30, moved: "03:30",
            instants: ["2027-03-13T07:30:00Z", "2027-03-14T07:30:00Z", "2027-03-15T06:30:00Z"]),
        // A 30-minute gap: 02:15 +10:30 = 15:45Z the day before; 02:45 +11; 02:15 +11 = 15:15Z.
        Gap(zone: "Australia/Lord_Howe", before: "2027-10-02", hour: 2, minute: 15, moved: "02:45",
            instants: ["2027-10-01T15:45:00Z", "2027-10-02T15:45:00Z", "2027-10-03T15:15:00Z"]),
        // The gap is at midnight: 00:30 -04 = 04:30Z; 01:30 -03 = 04:30Z; 00:30 -03 = 03:30Z.
        Gap(zone: "America/Santiago", before: "2027-09-04", hour: 0, minute: 30, moved: "01:30",
            instants: ["2027-09-04T04:30:00Z", "2027-09-05T04:30:00Z", "2027-09-06T03:30:00Z"]),
    ]

    @Test("a daily series is at its time before the gap, moved forward in it, and back at its time after it", arguments: gaps)
    func backAfterTheGap(_ gap: Gap) throws {
        let zone = try zone(gap.zone)
        let start = try d(gap.before)
        let occurrences = try series(zone, first: start, hour: gap.hour, minute: gap.minute, count: 4)
        let clock = LocalDate.pad(gap.hour, 2) + ":" + LocalDate.pad(gap.minute, 2)
        #expect(occurrences.map { local(due($0), zone) } == [
            "\(start.iso) \(clock)", "\(start.adding(days: 1).iso) \(gap.moved)", "\(start.adding(days: 2).iso) \(clock)",
            "\(start.adding(days: 3).iso) \(clock)", "\(start.adding(days: 4).iso) \(clock)",
        ])
        #expect(try occurrences.prefix(3).map { try #require(due($0)) } == gap.instants.map { try t($0) })
        // Only the occurrence in the gap carries the series' time.
        #expect(repeatTimes(occurrences[0]) == nil)
        #expect(repeatTimes(occurrences[1]) == .object([JSONMember("due", .string(clock))]))
        #expect(occurrences.dropFirst(2).allSatisfy { repeatTimes($0) == nil })
    }

    @Test("02:30 in Lord Howe and Santiago is in no gap: the series stays at 02:30 through the change day",
          arguments: [("Australia/Lord_Howe", "2027-10-02"), ("America/Santiago", "2027-09-04")])
    func noGapAtThatTime(_ name: String, _ before: String) throws {
        let zone = try zone(name)
        let start = try d(before)
        let occurrences = try series(zone, first: start, hour: 2, minute: 30, count: 3)
        #expect(occurrences.map { local(due($0), zone) } == (0..<4).map { "\(start.adding(days: $0).iso) 02:30" })
        #expect(occurrences.allSatisfy { repeatTimes($0) == nil })
    }

    @Test("a series at 03:30 stays at 03:30 on the gap day: a real 03:30 is not mistaken for a moved 02:30")
    func realTimeAfterTheGap() throws {
        let zone = try zone("America/New_York")
        let start = try d("2027-03-13")
        let occurrences = try series(zone, first: start, hour: 3, minute: 30, count: 3)
        #expect(occurrences.map { local(due($0), zone) } == (0..<4).map { "\(start.adding(days: $0).iso) 03:30" })
        #expect(occurrences.allSatisfy { repeatTimes($0) == nil })
    }

    @Test("remind keeps its own time: in the gap with due, or before the gap while due is in it")
    func remindAcrossTheGap() throws {
        let zone = try zone("America/New_York")
        let start = try d("2027-03-13")
        // Both in the gap: 02:45 due, 02:15 reminder.
        let both = try series(zone, first: start, hour: 2, minute: 45, count: 3, remind: (2, 15))
        #expect(both.map { local(due($0), zone) } == ["2027-03-13 02:45", "2027-03-14 03:45", "2027-03-15 02:45", "2027-03-16 02:45"])
        #expect(both.map { local($0.remind, zone) } == ["2027-03-13 02:15", "2027-03-14 03:15", "2027-03-15 02:15", "2027-03-16 02:15"])
        #expect(repeatTimes(both[1]) == .object([JSONMember("due", .string("02:45")), JSONMember("remind", .string("02:15"))]))
        // Only due in the gap: the 01:30 reminder never moves.
        let dueOnly = try series(zone, first: start, hour: 2, minute: 30, count: 3, remind: (1, 30))
        #expect(dueOnly.map { local(due($0), zone) } == ["2027-03-13 02:30", "2027-03-14 03:30", "2027-03-15 02:30", "2027-03-16 02:30"])
        #expect(dueOnly.map { local($0.remind, zone) } == ["2027-03-13 01:30", "2027-03-14 01:30", "2027-03-15 01:30", "2027-03-16 01:30"])
        #expect(repeatTimes(dueOnly[1]) == .object([JSONMember("due", .string("02:30"))]))
    }

    @Test("a weekly series a year long comes back to 02:30 after the gap and keeps it through the autumn overlap")
    func weeklyThroughTheYear() throws {
        let zone = try zone("America/New_York")
        // Sundays: 2027-03-07, the gap day 03-14, ... through 2027-11-07 (the overlap day: 02:30 exists once).
        let occurrences = try series(zone, first: try d("2027-03-07"), hour: 2, minute: 30, count: 40, rule: "weekly")
        let times = occurrences.map { local(due($0), zone).map { String($0.suffix(5)) } }
        #expect(times[1] == "03:30")
        #expect(times.enumerated().allSatisfy { $0.offset == 1 || $0.element == "02:30" }, "\(times)")
    }

    @Test("a due moved by hand on the gap occurrence gives the series its new time; a damaged repeatTimes is ignored")
    func movedByHand() throws {
        let zone = try zone("America/New_York")
        let created = try t("2027-01-01T00:00:00Z")
        // The gap occurrence, moved by hand to 04:00 EDT: the stored 02:30 no longer describes it.
        let moved = TaskItem(id: UUID(name: "m"), title: "Moved", due: .time(try t("2027-03-14T08:00:00Z")), repeatRule: "daily",
                             createdAt: created, modifiedAt: created,
                             extra: [JSONMember("x-custom", .string("kept")), JSONMember(TaskFile.repeatTimesKey, .object([JSONMember("due", .string("02:30"))]))])
        let next = try #require(try moved.nextOccurrence(completedAt: try t("2027-03-14T09:00:00Z"), now: created, timeZone: zone))
        #expect(local(due(next), zone) == "2027-03-15 04:00")
        #expect(next.extra == [JSONMember("x-custom", .string("kept"))])
        // Stored where it lands (03:30 EDT on the gap day): 02:30 the next day.
        var kept = moved
        kept.due = .time(try t("2027-03-14T07:30:00Z"))
        let back = try #require(try kept.nextOccurrence(completedAt: try t("2027-03-14T09:00:00Z"), now: created, timeZone: zone))
        #expect(local(due(back), zone) == "2027-03-15 02:30")
        #expect(back.extra == [JSONMember("x-custom", .string("kept"))])
        // Not a time: read as no stored time.
        for damaged in [JSONNode.string("02:30"), .object([JSONMember("due", .string("2:30"))]),
                        .object([JSONMember("due", .string("24:00"))]), .object([JSONMember("due", JSONNode(.number("9000")))])] {
            var task = kept
            task.extra = [JSONMember(TaskFile.repeatTimesKey, damaged)]
            let n = try #require(try task.nextOccurrence(completedAt: try t("2027-03-14T09:00:00Z"), now: created, timeZone: zone))
            #expect(local(due(n), zone) == "2027-03-15 03:30", "\(damaged)")
        }
    }

    @Test("the stored time reads and writes HH:MM and HH:MM:SS")
    func storedText() {
        #expect(SeriesWallTimes.text(of: 2 * 3_600 + 30 * 60) == "02:30")
        #expect(SeriesWallTimes.text(of: 2 * 3_600 + 30 * 60 + 15) == "02:30:15")
        #expect(SeriesWallTimes.second(parsing: "02:30") == 9_000)
        #expect(SeriesWallTimes.second(parsing: "23:59:59") == 86_399)
        for bad in ["2:30", "24:00", "02:60", "02:30:60", "02:30:", "", "ab:cd", "+2:30", "02:30:15:00"] {
            #expect(SeriesWallTimes.second(parsing: bad) == nil, "\(bad)")
        }
    }
}
