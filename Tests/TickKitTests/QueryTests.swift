import Foundation
import Testing
@testable import TickKit

@Suite struct QueryTests {
    let berlin = Zone(named: "Europe/Berlin")!
    let now = Timestamp.parse("2026-11-21T09:00:00Z")!  // Saturday, 10:00 in Berlin

    func task(_ title: String, due: String? = nil, sched: String? = nil, state: TaskState = .open) -> TaskItem {
        TaskItem(id: UUID(), title: title, state: state, due: due.flatMap(TaskDate.init(fileString:)),
                 scheduled: sched.flatMap(LocalDate.init(iso:)), createdAt: now, modifiedAt: now)
    }

    var snapshot: StoreSnapshot {
        StoreSnapshot(files: [
            TaskFile(kind: .inbox, id: UUID(), createdAt: now, modifiedAt: now, tasks: [
                task("later today", due: "2026-11-21T16:00:00Z"),
                task("yesterday", due: "2026-11-20"),
                task("earlier today", due: "2026-11-21T07:00:00Z"),
                task("undated"),
            ]),
            TaskFile(kind: .list(slug: "w"), id: UUID(), name: "W", createdAt: now, modifiedAt: now, tasks: [
                task("sched today", sched: "2026-11-21"),
                task("in 3 days", due: "2026-11-24"),
                task("in 10 days", due: "2026-12-01"),
                task("done overdue", due: "2026-11-01", state: .done),
                task("sched past", sched: "2026-11-19"),
            ]),
        ])
    }

    func titles(_ view: TaskView, _ filter: TaskFilter = TaskFilter()) -> [String] {
        TaskQuery(now: now, timeZone: berlin).run(view, filter: filter, snapshot: snapshot, ids: ShortIDTable()).map(\.task.title)
    }

    @Test func todayHasOverdueDueTodayAndScheduledSoonestFirst() {
        #expect(titles(.today) == ["sched past", "yesterday", "earlier today", "later today", "sched today"])
    }

    @Test func overdueIsDueBeforeNowAndNotDone() {
        #expect(titles(.overdue) == ["yesterday", "earlier today"])
    }

    @Test func upcomingCountsDaysAfterToday() {
        #expect(titles(.upcoming(days: 7)) == ["in 3 days"])
        #expect(titles(.upcoming(days: 10)) == ["in 3 days", "in 10 days"])
    }

    @Test func listKeepsManualOrderAndFiltersState() {
        #expect(titles(.list(.list(slug: "w"))) == ["sched today", "in 3 days", "in 10 days", "sched past"])
        #expect(titles(.list(nil), TaskFilter(states: [.done])) == ["done overdue"])
    }
}
