import Foundation
import Testing
@testable import TickKit

/// What a change by ids or by filter acts on, in process (issue 28).
@Suite struct BulkSelectionTests {
    let setup = TaskAddingTests()

    func selection(_ f: (store: Store, session: IndexSession, dir: String), limit: Int = 3,
                   active: (filter: ParsedFilter, label: String)? = nil) -> BulkSelection {
        BulkSelection(session: f.session, now: setup.now, timeZone: setup.utc, activeFilter: { active }, confirmLimit: { limit })
    }

    @Test func idListsAreReadAsTickDoneAlwaysReadThem() {
        #expect(BulkSelection.isIDList(["3", "7", "6f1c"]))
        #expect(BulkSelection.isIDList(["3-5,9"]))
        #expect(!BulkSelection.isIDList(["+errand"]))
        #expect(!BulkSelection.isIDList(["5-3"]), "a range backwards is not an id list")
        #expect(!BulkSelection.isIDList([]))
        #expect(TaskReference.tasks(["3-5,9", "6f1c"]) == [.short(3...3), .short(4...4), .short(5...5), .short(9...9), .uuidPrefix("6f1c")])
        #expect(BulkSelection.isSingleID("12"))
        #expect(BulkSelection.isSingleID("6f1c2a3b"))
        #expect(!BulkSelection.isSingleID("3-5"))
        #expect(!BulkSelection.isSingleID("-abcd"))
        #expect(!BulkSelection.isSingleID("0"))
    }

    @Test func idsAreReturnedAsTypedWithoutAskingOrReadingTheIndex() throws {
        let f = try setup.fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let asked = Counter()
        let refs = try BulkSelection(session: f.session, now: setup.now, timeZone: setup.utc,
                                     activeFilter: { _ = asked.next(); return nil }, confirmLimit: { _ = asked.next(); return 0 })
            .refs(["1-3"], states: [.open, .active], verb: "Complete", yes: false, confirm: nil)
        #expect(refs == [.short(1...1), .short(2...2), .short(3...3)])
        #expect(asked.value == 0)
    }

    @Test func aFilterSelectsThroughTheIndexAndTheActiveContextNarrowsIt() throws {
        let f = try setup.fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let added = try setup.adding(f).add([(nil, ["a", "+errand"]), (nil, ["b", "+errand", "list:Work"]), (nil, ["c"])]).added
        let refs = try selection(f).refs(["+errand"], states: [.open, .active], verb: "Complete", yes: false, confirm: nil)
        #expect(Set(refs) == [.id(added[0].task.id), .id(added[1].task.id)])
        let work = try FilterParser(now: setup.now, timeZone: setup.utc).parse(["list:Work"])
        let narrowed = try selection(f, active: (work, "context work")).refs(["+errand"], states: [.open, .active], verb: "Complete", yes: false, confirm: nil)
        #expect(narrowed == [.id(added[1].task.id)])
    }

    @Test func moreThanTheLimitNeedsAYes() throws {
        let f = try setup.fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let inputs: [TaskAdding.Input] = (1...4).map { (nil, ["t\($0)", "+errand"]) }
        _ = try setup.adding(f).add(inputs)
        do {
            _ = try selection(f).refs(["+errand"], states: [.open, .active], verb: "Complete", yes: false, confirm: nil)
            Issue.record("four tasks were selected without a terminal to ask")
        } catch let error as SelectionError {
            #expect(error == .needsConfirmation(verb: "Complete", count: 4, filter: "+errand", limit: 3))
            #expect(error.kind == .failure)
            #expect(error.report.hasPrefix("refusing to complete 4 tasks matching +errand without confirmation"))
        }
        var shown: [String] = []
        #expect(throws: SelectionError.cancelled) {
            _ = try selection(f).refs(["+errand"], states: [.open, .active], verb: "Complete", yes: false, confirm: { items in
                shown = items.map(\.task.title)
                return false
            })
        }
        #expect(shown.sorted() == ["t1", "t2", "t3", "t4"])
        let yes = try selection(f).refs(["+errand"], states: [.open, .active], verb: "Complete", yes: true, confirm: { _ in
            Issue.record("--yes asks nothing")
            return false
        })
        #expect(yes.count == 4)
        #expect(try selection(f, limit: 4).refs(["+errand"], states: [.open, .active], verb: "Complete", yes: false, confirm: nil).count == 4)
    }

    @Test func nothingNamedOrNothingMatchedIsAnError() throws {
        let f = try setup.fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        _ = try setup.adding(f).add([(nil, ["a"])])
        #expect(throws: SelectionError.nothingNamed) {
            _ = try selection(f).refs([], states: [.open, .active], verb: "Move", yes: false, confirm: nil)
        }
        do {
            _ = try selection(f).refs(["+nothing"], states: [.open, .active], verb: "Move", yes: false, confirm: nil)
            Issue.record("a filter that matches nothing selected something")
        } catch let error as SelectionError {
            #expect(error == .noMatch(which: "pending task", filter: "+nothing"))
            #expect(error.kind == .notFound)
        }
    }
}
