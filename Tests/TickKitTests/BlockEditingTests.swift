import Foundation
import Testing
@testable import TickKit

/// `tick block add` and `tick block rm`, in process (issue 28).
@Suite struct BlockEditingTests {
    let setup = TaskAddingTests()

    func block(_ title: String, _ start: String, _ end: String, on day: String) -> Commitment {
        Commitment(id: UUID(), title: title, recurrence: .once(LocalDate(iso: day)!), start: ClockTime(parsing: start)!,
                   end: ClockTime(parsing: end)!, createdAt: setup.now, modifiedAt: setup.now)
    }

    @Test func addingNumbersTheBlockAndNamesThePlacedTasksUnderIt() throws {
        let f = try setup.fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        _ = try setup.adding(f).add([(nil, ["Deep", "work", "at:2026-11-24@11:00", "for:1h"]), (nil, ["Later", "at:2026-11-24@15:00", "for:1h"])])
        let editing = BlockEditing(store: f.store, session: f.session, now: setup.now, timeZone: setup.utc)
        let first = try editing.add(block("Standup", "09:00", "09:15", on: "2026-11-24"))
        #expect(first.number == 1 && first.overlapping.isEmpty)
        let second = try editing.add(block("Lunch", "11:30", "12:30", on: "2026-11-24"))
        #expect(second.number == 2)
        #expect(second.overlapping.map(\.title) == ["Deep work"])
        #expect(try f.store.commitments().blocks.map(\.title) == ["Standup", "Lunch"])
    }

    @Test func removingByNumberOrPrefixOnceAndNothingWhenOneIsUnknown() throws {
        let f = try setup.fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let editing = BlockEditing(store: f.store, session: f.session, now: setup.now, timeZone: setup.utc)
        let a = block("A", "09:00", "09:15", on: "2026-11-24"), b = block("B", "10:00", "10:15", on: "2026-11-24")
        _ = try editing.add(a)
        _ = try editing.add(b)
        #expect(throws: BlockLookupError.noNumber(3, count: 2)) { _ = try editing.remove(["1", "3"]) }
        #expect(throws: BlockLookupError.notABlockReference("zz")) { _ = try editing.remove(["zz"]) }
        #expect(try f.store.commitments().blocks.count == 2, "nothing removed when a reference is unknown")
        let prefix = String(b.id.lowercased.prefix(8))
        let removed = try editing.remove(["1", prefix, "1"])
        #expect(removed.map(\.title) == ["A", "B"])
        #expect(try f.store.commitments().blocks.isEmpty)
        #expect(BlockLookupError.noPrefix("abcd").kind == .notFound)
    }
}
