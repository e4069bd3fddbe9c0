import Foundation
import Testing
@testable import TickKit

/// `tick plan --auto`'s write, in process (issue 28).
@Suite struct PlanWriteTests {
    let setup = TaskAddingTests()

    @Test func writesEachSlotInItsFileAndSkipsATaskChangedMeanwhileOrOverABlock() throws {
        let f = try setup.fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let added = try setup.adding(f).add([(nil, ["inbox", "task"]), (nil, ["work", "task", "list:Work"]), (nil, ["done", "meanwhile"]), (nil, ["under", "block"])]).added
        let day = LocalDate(iso: "2026-11-24")!
        let slot = { (start: String) in TaskSlot(day: day, start: ClockTime(parsing: start)!, minutes: 30) }
        let lunch = Commitment(id: UUID(), title: "Lunch", recurrence: .once(day), start: ClockTime(parsing: "12:00")!,
                               end: ClockTime(parsing: "13:00")!, createdAt: setup.now, modifiedAt: setup.now)
        _ = try BlockEditing(store: f.store, session: f.session, now: setup.now, timeZone: setup.utc).add(lunch)
        _ = try TaskMutation(store: f.store, session: f.session, now: setup.now).complete([.id(added[2].task.id)], timeZone: setup.utc)
        let starts = ["09:00", "10:00", "11:00", "12:00"]
        let proposal = AutoPlan(placements: zip(added, starts).map { .init(task: $0.task, slot: slot($1), usedDefaultLength: false) }, unplaced: [])
        let planning = PlanningContext(store: f.store, loaded: try f.session.load(), now: setup.now.addingTimeInterval(60), timeZone: setup.utc)
        let written = try planning.write(proposal, kinds: Dictionary(uniqueKeysWithValues: added.map { ($0.task.id, $0.kind) }))
        #expect(written == 2)
        let inbox = try #require(try f.store.read(.inbox)?.file.tasks)
        #expect(inbox.first { $0.title == "inbox task" }?.slot == slot("09:00"))
        #expect(inbox.first { $0.title == "inbox task" }?.scheduled == day)
        #expect(try f.store.read(.list(slug: "work"))?.file.tasks.first?.slot == slot("10:00"))
        #expect(inbox.first { $0.title == "done meanwhile" }?.slot == nil)
        #expect(inbox.first { $0.title == "under block" }?.slot == nil)
    }
}
