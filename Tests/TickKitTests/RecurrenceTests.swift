import Foundation
import Testing
@testable import TickKit

/// `RecurrenceRule` and `TaskFile.complete`: grammar, calendar arithmetic (month
/// ends, leap days, DST) and the deterministic id, under a fixed clock and zone.
@Suite struct RecurrenceTests {
    let berlin = Zone(named: "Europe/Berlin")!

    func d(_ iso: String) throws -> LocalDate { try #require(LocalDate(iso: iso)) }
    func t(_ text: String) throws -> Date { try #require(Timestamp.parse(text)) }
    func rule(_ text: String) throws -> RecurrenceRule { try RecurrenceRule.parse(text) }

    // MARK: Grammar

    @Test("every documented form parses to the right rule")
    func grammar() throws {
        #expect(try rule("daily").kind == .every(1, .day))
        #expect(try rule("Weekly").kind == .every(1, .week))
        #expect(try rule("monthly").kind == .every(1, .month))
        #expect(try rule("yearly").kind == .every(1, .year))
        #expect(try rule("weekdays").kind == .onWeekdays([1, 2, 3, 4, 5]))
        #expect(try rule("every 2w").kind == .every(2, .week))
        #expect(try rule("every 2 w").kind == .every(2, .week))
        #expect(try rule("every 3 days").kind == .every(3, .day))
        #expect(try rule("every month").kind == .every(1, .month))
        #expect(try rule("mon,wed,fri").kind == .onWeekdays([1, 3, 5]))
        #expect(try rule("Tue, Thursday").kind == .onWeekdays([2, 4]))
        #expect(try rule("every friday").kind == .onWeekdays([5]))
        #expect(try rule("every day").kind == .every(1, .day))
        #expect(try rule("+3d").kind == .afterCompletion(3, .day))
        #expect(try rule("+2w").kind == .afterCompletion(2, .week))
        #expect(try rule("+1m").kind == .afterCompletion(1, .month))
        #expect(try rule("+1y").kind == .afterCompletion(1, .year))
    }

    @Test("bad rules are refused with a message naming the accepted forms", arguments: [
        "bogus", "every", "every 0d", "every 1000d", "+d", "+3", "mon,,fri", "mon,xyz", "", "every 2 fortnights", "+3x",
    ])
    func badRules(_ text: String) throws {
        do {
            _ = try RecurrenceRule.parse(text)
            Issue.record("\(text) was accepted")
        } catch {
            #expect(error.errorDescription?.contains("is not a recurrence rule; use daily, weekdays") == true)
        }
    }

    // MARK: Next day

    @Test("Jan 31 monthly: Feb 28, then Mar 31 (anchored on the series' day); Feb 29 in a leap year")
    func monthEnd() throws {
        let monthly = try rule("monthly")
        let feb = monthly.nextDay(after: try d("2026-01-31"), completed: try d("2026-01-31"))
        #expect(feb == (try d("2026-02-28")))
        let start = monthly.seriesStart(stored: try d("2026-01-31"), current: feb)
        #expect(start == (try d("2026-01-31")))
        #expect(monthly.nextDay(after: feb, seriesStart: start, completed: feb) == (try d("2026-03-31")))
        #expect(monthly.nextDay(after: try d("2028-01-31"), completed: try d("2028-01-31")) == (try d("2028-02-29")))
        // A date moved by hand starts a new anchor: the stored day is ignored.
        #expect(monthly.seriesStart(stored: try d("2026-01-31"), current: try d("2026-02-20")) == nil)
        // April 30 -> May 30 (not 31): the series' day is 30.
        #expect(monthly.nextDay(after: try d("2026-04-30"), completed: try d("2026-04-30")) == (try d("2026-05-30")))
    }

    @Test("Feb 29 yearly: Feb 28 in common years, Feb 29 again in the next leap year")
    func leapDay() throws {
        let yearly = try rule("yearly")
        let start = try d("2028-02-29")
        let y1 = yearly.nextDay(after: start, completed: start)
        #expect(y1 == (try d("2029-02-28")))
        var current = y1
        var days: [String] = [y1.iso]
        for _ in 0..<3 {
            let s = yearly.seriesStart(stored: start, current: current)
            #expect(s == start)
            current = yearly.nextDay(after: current, seriesStart: s, completed: current)
            days.append(current.iso)
        }
        #expect(days == ["2029-02-28", "2030-02-28", "2031-02-28", "2032-02-29"])
    }

    @Test("weekdays skips the weekend; mon,wed,fri picks the next listed day")
    func weekdays() throws {
        let weekdays = try rule("weekdays")
        // Fri 2026-11-20 -> Mon 23.
        #expect(weekdays.nextDay(after: try d("2026-11-20"), completed: try d("2026-11-20")) == (try d("2026-11-23")))
        // Done on Saturday, due Friday: Monday.
        #expect(weekdays.nextDay(after: try d("2026-11-20"), completed: try d("2026-11-21")) == (try d("2026-11-23")))
        let mwf = try rule("mon,wed,fri")
        #expect(mwf.nextDay(after: try d("2026-11-23"), completed: try d("2026-11-23")) == (try d("2026-11-25")))
        #expect(mwf.nextDay(after: try d("2026-11-25"), completed: try d("2026-11-25")) == (try d("2026-11-27")))
        #expect(mwf.nextDay(after: try d("2026-11-27"), completed: try d("2026-11-27")) == (try d("2026-11-30")))
    }

    @Test("every 2w steps from the due date; missed occurrences are skipped, not piled up")
    func everyTwoWeeks() throws {
        let r = try rule("every 2w")
        #expect(r.nextDay(after: try d("2026-11-06"), completed: try d("2026-11-06")) == (try d("2026-11-20")))
        // Done early: still two weeks after the due date.
        #expect(r.nextDay(after: try d("2026-11-27"), completed: try d("2026-11-21")) == (try d("2026-12-11")))
        // Overdue by five weeks: the first occurrence on or after the completion day.
        #expect(r.nextDay(after: try d("2026-10-16"), completed: try d("2026-11-21")) == (try d("2026-11-27")))
        // An occurrence falling on the completion day itself is kept (it is not past).
        #expect(try rule("daily").nextDay(after: try d("2026-11-18"), completed: try d("2026-11-21")) == (try d("2026-11-21")))
    }

    @Test("+3d counts from the completion day, whatever the due date")
    func afterCompletion() throws {
        let r = try rule("+3d")
        #expect(r.nextDay(after: try d("2026-11-10"), completed: try d("2026-11-21")) == (try d("2026-11-24")))
        #expect(r.nextDay(after: try d("2026-12-01"), completed: try d("2026-11-21")) == (try d("2026-11-24")))
        #expect(try rule("+1m").nextDay(after: try d("2026-01-31"), completed: try d("2026-01-31")) == (try d("2026-02-28")))
    }

    // MARK: Completion

    func file(_ task: TaskItem) -> TaskFile {
        TaskFile(kind: .list(slug: "work"), id: UUID(name: "file"), name: "Work",
                 createdAt: Date(timeIntervalSince1970: 0), modifiedAt: Date(timeIntervalSince1970: 0),
                 tasks: [task, TaskItem(id: UUID(name: "other"), title: "Other", createdAt: Date(timeIntervalSince1970: 0), modifiedAt: Date(timeIntervalSince1970: 0))])
    }

    @Test("weekly timed due across DST (Berlin 2026-03-29 and 2026-10-25) keeps 09:00 wall time; remind keeps its offset")
    func dst() throws {
        let spring = TaskItem(id: UUID(name: "a"), title: "Weekly", due: .time(try t("2026-03-22T08:00:00Z")),
                              remind: try t("2026-03-22T07:30:00Z"), repeatRule: "weekly",
                              createdAt: try t("2026-03-01T00:00:00Z"), modifiedAt: try t("2026-03-01T00:00:00Z"))
        var f = file(spring)
        let o = try f.complete(taskID: spring.id, at: try t("2026-03-22T10:00:00Z"), timeZone: berlin)
        // 09:00 CET = 08:00Z; a week later 09:00 CEST = 07:00Z.
        #expect(o.next?.due == .time(try t("2026-03-29T07:00:00Z")))
        #expect(o.next?.remind == (try t("2026-03-29T06:30:00Z")))
        let autumn = TaskItem(id: UUID(name: "b"), title: "Weekly", due: .time(try t("2026-10-18T07:00:00Z")),
                              repeatRule: "weekly", createdAt: try t("2026-10-01T00:00:00Z"), modifiedAt: try t("2026-10-01T00:00:00Z"))
        var g = file(autumn)
        let p = try g.complete(taskID: autumn.id, at: try t("2026-10-18T10:00:00Z"), timeZone: berlin)
        #expect(p.next?.due == .time(try t("2026-10-25T08:00:00Z")))
    }

    @Test("completion: done, next right after it with the same content, deterministic id, once only")
    func complete() throws {
        let now = try t("2026-11-21T09:00:00Z")
        let task = TaskItem(id: UUID(name: "rent"), title: "Pay rent", due: .day(try d("2026-01-31")),
                            scheduled: try d("2026-01-29"), repeatRule: "monthly", priority: .must, energy: .low,
                            tags: ["bills"], notes: "IBAN", createdAt: now, modifiedAt: now,
                            extra: [JSONMember("x-custom", .string("kept"))])
        var f = file(task)
        let o = try f.complete(taskID: task.id, at: try t("2026-01-31T12:00:00Z"), timeZone: berlin)
        #expect(o.changed && o.nextCreated)
        #expect(f.tasks.map(\.id) == [task.id, TaskFile.nextOccurrenceID(after: task.id), UUID(name: "other")])
        #expect(TaskFile.nextOccurrenceID(after: task.id) == UUID(name: "next-occurrence:" + task.id.lowercased))
        let next = try #require(o.next)
        let doneAt = try t("2026-01-31T12:00:00Z")
        #expect(f.tasks[0].state == .done && f.tasks[0].completedAt == doneAt)
        #expect(next.state == .open && next.completedAt == nil)
        #expect(next.due == .day(try d("2026-02-28")))
        #expect(next.scheduled == (try d("2026-02-26")))
        #expect((next.title, next.tags, next.notes, next.priority, next.energy, next.repeatRule) == ("Pay rent", ["bills"], "IBAN", .must, .low, "monthly"))
        #expect(next.extra == [JSONMember("x-custom", .string("kept")), JSONMember("repeatAnchor", .string("2026-01-31"))])

        // Completing the next one goes back to the 31st and drops the anchor.
        let o2 = try f.complete(taskID: next.id, at: try t("2026-02-28T12:00:00Z"), timeZone: berlin)
        #expect(o2.next?.due == .day(try d("2026-03-31")))
        #expect(o2.next?.extra == [JSONMember("x-custom", .string("kept"))])

        // Done again: nothing changes. Set open by hand (the next one is still there) and done again: no second next.
        let count = f.tasks.count
        #expect(try f.complete(taskID: task.id, at: now, timeZone: berlin).changed == false)
        f.tasks[0].setState(.open, at: now)
        let again = try f.complete(taskID: task.id, at: now, timeZone: berlin)
        #expect(again.changed && !again.nextCreated)
        #expect(f.tasks.count == count)
        // A next occurrence deleted later than this completion (another machine's clock) is not brought back.
        var h = file(task)
        let nextID = TaskFile.nextOccurrenceID(after: task.id)
        h.recordDeletion(of: [nextID], at: now.addingTimeInterval(60))
        #expect(try h.complete(taskID: task.id, at: now, timeZone: berlin).nextCreated == false)
        // Nor one deleted before it: a reopen leaves no tombstone, so a tombstone
        // is a deletion of that occurrence, which never comes back.
        var k = file(task)
        k.recordDeletion(of: [nextID], at: now.addingTimeInterval(-60))
        #expect(try k.complete(taskID: task.id, at: now, timeZone: berlin).nextCreated == false)
        #expect(k.deleted.map(\.id) == [nextID], "the tombstone stays")
    }

    @Test("+3d from the completion day; a rule without dates schedules the next occurrence; a bad stored rule still completes")
    func completionEdges() throws {
        let now = try t("2026-11-21T09:00:00Z")
        let water = TaskItem(id: UUID(name: "w"), title: "Water plants", due: .day(try d("2026-11-15")), repeatRule: "+3d", createdAt: now, modifiedAt: now)
        var f = file(water)
        #expect(try f.complete(taskID: water.id, at: now, timeZone: berlin).next?.due == .day(try d("2026-11-24")))
        let plain = TaskItem(id: UUID(name: "p"), title: "Stretch", repeatRule: "daily", createdAt: now, modifiedAt: now)
        var g = file(plain)
        let o = try g.complete(taskID: plain.id, at: now, timeZone: berlin)
        let tomorrow = try d("2026-11-22")
        #expect(o.next?.scheduled == tomorrow && o.next?.due == nil)
        let broken = TaskItem(id: UUID(name: "b"), title: "B", repeatRule: "sometimes", createdAt: now, modifiedAt: now)
        var h = file(broken)
        let b = try h.complete(taskID: broken.id, at: now, timeZone: berlin)
        #expect(b.changed && b.next == nil && b.ruleProblem?.contains("\"sometimes\"") == true)
        #expect(h.tasks.count == 2)
    }
}
