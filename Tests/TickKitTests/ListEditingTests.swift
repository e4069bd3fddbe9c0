import Foundation
import Testing
@testable import TickKit

/// `tick lists add`, `rename` and `rm`, in process (issue 28).
@Suite struct ListEditingTests {
    let setup = TaskAddingTests()

    func editing(_ f: (store: Store, session: IndexSession, dir: String, warnings: WarningLog)) -> ListEditing {
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
