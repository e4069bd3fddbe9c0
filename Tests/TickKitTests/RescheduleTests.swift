import Foundation
import Testing
@testable import TickKit

/// `TaskItem.reschedule(to:)` and `clearDates`, as `tick review` uses them.
@Suite struct RescheduleTests {
    let berlin = Zone(named: "Europe/Berlin")!
    func d(_ iso: String) throws -> LocalDate { try #require(LocalDate(iso: iso)) }
    func t(_ text: String) throws -> Date { try #require(Timestamp.parse(text)) }

    @Test("timed due keeps its wall time across DST; remind keeps its offset; later dates stay")
    func keepsTimes() throws {
        let now = try t("2026-03-28T09:00:00Z")
        var task = TaskItem(id: UUID(), title: "x", due: .time(try t("2026-03-27T16:30:00Z")), scheduled: try d("2026-04-02"),
                            remind: try t("2026-03-27T15:30:00Z"), createdAt: now, modifiedAt: now)
        // Overdue since Friday 17:30 CET; moved to Monday (after the switch to CEST).
        #expect(task.reschedule(to: .day(try d("2026-03-30")), today: try d("2026-03-28"), now: now, timeZone: berlin))
        #expect(task.due == .time(try t("2026-03-30T15:30:00Z")))
        #expect(task.remind == (try t("2026-03-30T14:30:00Z")))
        #expect(task.scheduled == (try d("2026-04-02")))
        #expect(task.modifiedAt == now)
    }

    @Test("a WHEN with a time sets the due instant; scheduled-only tasks move their day; nothing to move changes nothing")
    func targets() throws {
        let now = try t("2026-11-21T09:00:00Z")
        let today = try d("2026-11-21")
        var a = TaskItem(id: UUID(), title: "a", due: .day(today), createdAt: now, modifiedAt: now)
        a.reschedule(to: .time(try t("2026-11-27T08:00:00Z")), today: today, now: now, timeZone: berlin)
        #expect(a.due == .time(try t("2026-11-27T08:00:00Z")))
        var b = TaskItem(id: UUID(), title: "b", scheduled: try d("2026-11-19"), remind: try t("2026-11-21T07:00:00Z"), createdAt: now, modifiedAt: now)
        b.reschedule(to: .day(try d("2026-11-22")), today: today, now: now, timeZone: berlin)
        #expect(b.scheduled == (try d("2026-11-22")))
        #expect(b.remind == (try t("2026-11-22T07:00:00Z")))
        var c = TaskItem(id: UUID(), title: "c", due: .day(try d("2026-12-01")), createdAt: now, modifiedAt: now)
        #expect(!c.reschedule(to: .day(try d("2026-11-22")), today: today, now: now, timeZone: berlin))
        #expect(c.clearDates(now: now) && c.due == nil && !c.clearDates(now: now))
    }
}
