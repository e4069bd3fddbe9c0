import Foundation
import Testing
@testable import TickKit

/// `tick lists add`, `rename` and `rm`, in process (issue 28).
@Suite struct ListEditingTests {
    let setup = TaskAddingTests()

    func editing(_ f: (store: Store, session: IndexSession, dir: String)) -> ListEditing {
        ListEditing(store: f.store, session: f.session, now: setup.now.addingTimeInterval(60))
    }

    @Test func addingCreatesTheFileUnderAFreeSlugAndRefusesANameInUse() throws {
        let f = try setup.fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let made = try editing(f).add(named: "  Home stuff ", color: "#3b82f6")
        #expect(made.name == "Home stuff" && made.slug == "home-stuff")
        let file = try #require(try f.store.read(.list(slug: "home-stuff"))?.file)
        #expect(file.name == "Home stuff" && file.color == "#3b82f6")
        #expect(throws: LookupError.listExists("work")) { _ = try editing(f).add(named: "work", color: nil) }
    }

    @Test func listsAreMadeOnFirstUseButANearNameIsATypo() throws {
        // Issue 46: `list:Home` naming no list makes it; `Wrk` next to Work does not.
        let f = try setup.fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let lists = try f.session.load().lists
        #expect(try lists.target("work") == .existing(.list(slug: "work")))
        #expect(try lists.target("inbox") == .existing(.inbox))
        #expect(try lists.target(" Home ") == .new(name: "Home", slug: "home"))
        #expect(throws: LookupError.nearList("Wrk", near: "Work")) { _ = try lists.target("Wrk") }
        #expect(throws: LookupError.nearList("works", near: "Work")) { _ = try lists.target("works") }
        #expect(throws: LookupError.self) { _ = try lists.target("  ") }
        // A context's `list:` words: made once, prefixes of existing lists left alone.
        let made = try editing(f).makeMissing(["Garden", "garden", "Wo", "inbox", "Shed"])
        #expect(made == ["Garden", "Shed"])
        #expect(try f.store.read(.list(slug: "garden"))?.file.name == "Garden")
        #expect(try editing(f).makeMissing(["Garden"]).isEmpty)
    }

    @Test func aWaitAfterTheDueIsWarnedAboutAndADayEndsAtTheNextDaysStart() throws {
        let zone = try #require(Zone(named: "Europe/Berlin"))
        var task = TaskItem(id: UUID(), title: "x", createdAt: setup.now, modifiedAt: setup.now)
        let day = try #require(LocalDate(year: 2026, month: 12, day: 1))
        task.due = .day(day)
        task.wait = .day(day)
        #expect(WaitAfterDue.warning(for: task, reference: "3", timeZone: zone) == nil, "the same day: hidden until its start")
        task.wait = .time(day.adding(days: 1).startOfDay(in: zone).addingTimeInterval(-1))
        #expect(WaitAfterDue.warning(for: task, reference: "3", timeZone: zone) == nil, "before the due day ends")
        task.wait = .day(day.adding(days: 1))
        let warning = try #require(WaitAfterDue.warning(for: task, reference: "3", timeZone: zone))
        #expect(warning.message.hasPrefix("3 waits until 2026-12-02, after it is due (2026-12-01)"))
        task.due = .time(day.startOfDay(in: zone).addingTimeInterval(3600 * 10))
        task.wait = .time(day.startOfDay(in: zone).addingTimeInterval(3600 * 11))
        #expect(WaitAfterDue.warning(for: task, reference: "3", timeZone: zone) != nil)
        task.wait = nil
        #expect(WaitAfterDue.warning(for: task, reference: "3", timeZone: zone) == nil)
    }

    @Test func renamingChangesTheNameOnlyAndLeavesTheInboxAlone() throws {
        let f = try setup.fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let renamed = try editing(f).rename("work", to: " Job ")
        #expect(renamed.old == "Work" && renamed.new == "Job")
        #expect(try f.store.read(.list(slug: "work"))?.file.name == "Job")
        #expect(try editing(f).rename("job", to: "Job") == (old: "Job", new: "Job"))
        #expect(throws: LookupError.self) { _ = try editing(f).rename("inbox", to: "Other") }
    }

    @Test func removingRefusesAListThatChangedSinceItWasLookedUp() throws {
        let f = try setup.fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        _ = try setup.adding(f).add([(nil, ["one", "list:Work"])])
        let list = try editing(f).removal(of: "Work")
        #expect(list.count == 1 && list.pending == 1 && list.displayName == "Work")
        _ = try setup.adding(f).add([(nil, ["two", "list:Work"])])
        #expect(throws: ListChangedError(displayName: "Work", count: 2)) { try editing(f).remove(list) }
        #expect(try f.store.read(.list(slug: "work")) != nil)
        try editing(f).remove(try editing(f).removal(of: "Work"))
        #expect(try f.store.read(.list(slug: "work")) == nil)
        #expect(throws: LookupError.self) { _ = try editing(f).removal(of: "inbox") }
    }
}
