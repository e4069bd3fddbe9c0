import Foundation
import Testing
@testable import TickKit

/// The workflow behind done, edit, reopen and rm, in process (issue 28).
@Suite struct TaskMutationTests {
    let setup = TaskAddingTests()

    @Test func changesEachNamedTaskOnceUnderTheLockAndSaysWhichChanged() throws {
        let f = try setup.fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let added = try setup.adding(f).add([(nil, ["one"]), (nil, ["two", "list:Work"]), (nil, ["three"])]).added
        let ids = try added.map { try TaskReference.task(String(try #require($0.shortID))) }
        let mutation = TaskMutation(store: f.store, session: f.session, now: setup.now.addingTimeInterval(60))
        let calls = Counter()
        let outcomes = try mutation.apply([ids[0], ids[1], ids[0], .id(added[2].task.id)]) { task, now in
            _ = calls.next()
            guard task.title != "three" else { return false }
            task.title += "!"
            task.modifiedAt = now
            return true
        }
        #expect(calls.value == 3, "the task named twice is changed once")
        #expect(outcomes.map(\.item.task.title) == ["one!", "two!", "three"])
        #expect(outcomes.map(\.changed) == [true, true, false])
        #expect(try setup.titles(f.store, .inbox) == ["one!", "three"])
        #expect(try setup.titles(f.store, .list(slug: "work")) == ["two!"])
    }

    @Test func anUnknownIDChangesNothing() throws {
        let f = try setup.fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let added = try setup.adding(f).add([(nil, ["one"])]).added
        let mutation = TaskMutation(store: f.store, session: f.session, now: setup.now)
        #expect(throws: LookupError.self) {
            _ = try mutation.apply([.short(try #require(added[0].shortID)...(try #require(added[0].shortID))), .short(99...99)]) { task, _ in
                task.title = "changed"
                return true
            }
        }
        #expect(try setup.titles(f.store, .inbox) == ["one"])
    }

    @Test func aTaskInTwoFilesIsJoinedBeforeTheChange() throws {
        let f = try setup.fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let added = try setup.adding(f).add([(nil, ["moving"])]).added
        // An interrupted move: the same task in the inbox and in Work.
        let copy = try #require(try f.store.read(.inbox)?.file.tasks.first)
        try f.store.withLock { writer in
            try writer.update(.list(slug: "work")) { file in file.tasks.append(copy) }
        }
        let mutation = TaskMutation(store: f.store, session: f.session, now: setup.now.addingTimeInterval(60))
        let outcomes = try mutation.apply([.id(added[0].task.id)]) { task, now in
            task.title = "moved"
            task.modifiedAt = now
            return true
        }
        #expect(outcomes.count == 1)
        let inbox = try setup.titles(f.store, .inbox), work = try setup.titles(f.store, .list(slug: "work"))
        #expect((inbox + work) == ["moved"], "one copy left, changed: inbox \(inbox), work \(work)")
    }

    @Test func completingResolvesUnderTheLockAndMakesTheNextOccurrenceOnce() throws {
        let f = try setup.fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let added = try setup.adding(f).add([(nil, ["water", "plants", "due:2026-11-23", "repeat:daily"]), (nil, ["call", "list:Work"])]).added
        let ids = try added.map { try TaskReference.task(String(try #require($0.shortID))) }
        let mutation = TaskMutation(store: f.store, session: f.session, now: setup.now.addingTimeInterval(60))
        let done = try mutation.complete([ids[0], ids[1], ids[0]], timeZone: setup.utc)
        #expect(done.map(\.item.task.title) == ["water plants", "call"], "the task named twice is completed once")
        #expect(done.allSatisfy { $0.item.task.state == .done && $0.outcome.changed })
        #expect(done[0].outcome.nextCreated)
        #expect(done[0].outcome.next?.due == .day(LocalDate(iso: "2026-11-24")!))
        #expect(done[1].outcome.next == nil)
        #expect(try f.store.read(.inbox)?.file.tasks.count == 2, "the done task and its next occurrence")
        // Completing it again changes nothing and makes no second occurrence.
        let again = try mutation.complete([.id(added[0].task.id)], timeZone: setup.utc)
        #expect(again.map(\.outcome.changed) == [false])
        #expect(try f.store.read(.inbox)?.file.tasks.count == 2)
    }

    @Test func removingLeavesTombstonesAndDropsDependenciesOnTheRemovedTasks() throws {
        let f = try setup.fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let added = try setup.adding(f).add([(nil, ["first"]), (nil, ["second", "list:Work"]), (nil, ["after", "both"])]).added
        let (first, second, after) = (added[0].task.id, added[1].task.id, added[2].task.id)
        let mutation = TaskMutation(store: f.store, session: f.session, now: setup.now.addingTimeInterval(60))
        _ = try mutation.apply([.id(after)]) { task, _ in
            task.depends = [first, second]
            return true
        }
        let later = TaskMutation(store: f.store, session: f.session, now: setup.now.addingTimeInterval(120))
        let removal = try later.remove([.id(first), .id(second), .id(first)])
        #expect(removal.removed.map(\.task.id) == [first, second], "the task named twice is removed once")
        #expect(try setup.titles(f.store, .inbox) == ["after both"])
        #expect(try setup.titles(f.store, .list(slug: "work")) == [])
        #expect(removal.droppedDependencies.count == 1)
        #expect(removal.droppedDependencies.first?.task == after)
        #expect(Set(removal.droppedDependencies.first?.ids ?? []) == [first, second])
        let kept = try #require(try f.store.read(.inbox)?.file.tasks.first)
        #expect(kept.depends.isEmpty)
        #expect(try f.store.read(.inbox)?.file.deleted.map(\.id) == [first])
    }

    @Test func reorderingMovesWithinOneListAndRefusesAnAnchorElsewhere() throws {
        let f = try setup.fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let added = try setup.adding(f).add([(nil, ["a"]), (nil, ["b"]), (nil, ["c"]), (nil, ["w", "list:Work"])]).added
        let ref = { (i: Int) in TaskReference.id(added[i].task.id) }
        let mutation = TaskMutation(store: f.store, session: f.session, now: setup.now.addingTimeInterval(60))
        let moved = try mutation.reorder(ref(2), to: .before(ref(0)))
        #expect(moved.changed && moved.item.task.title == "c")
        #expect(try setup.titles(f.store, .inbox) == ["c", "a", "b"])
        #expect(try mutation.reorder(ref(2), to: .top).changed == false, "already there")
        _ = try mutation.reorder(ref(2), to: .bottom)
        #expect(try setup.titles(f.store, .inbox) == ["a", "b", "c"])
        #expect(throws: InputError.self) { _ = try mutation.reorder(ref(0), to: .after(ref(3))) }
        #expect(try setup.titles(f.store, .inbox) == ["a", "b", "c"])
    }

    @Test func movingWritesTheDestinationAndLeavesNoTombstoneBehind() throws {
        let f = try setup.fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let added = try setup.adding(f).add([(nil, ["one"]), (nil, ["two", "list:Work"])]).added
        let mutation = TaskMutation(store: f.store, session: f.session, now: setup.now.addingTimeInterval(60))
        let (outcomes, name, created) = try mutation.move(added.map { .id($0.task.id) }, to: "work")
        #expect(name == "Work" && !created)
        #expect(outcomes.map(\.changed) == [true, false], "two was already in Work")
        #expect(outcomes.map(\.item.kind) == [.list(slug: "work"), .list(slug: "work")])
        #expect(try setup.titles(f.store, .inbox) == [])
        #expect(try setup.titles(f.store, .list(slug: "work")) == ["two", "one"])
        #expect(try f.store.read(.inbox)?.file.deleted.isEmpty == true, "a move is not a deletion")
        let moved = try #require(try f.store.read(.list(slug: "work"))?.file.tasks.last)
        #expect(moved.changed["list"] == setup.now.addingTimeInterval(60))
        // A near name is refused; another name makes the list on first use (issue 46).
        #expect(throws: LookupError.nearList("wrk", near: "Work")) { _ = try mutation.move([.id(added[0].task.id)], to: "wrk") }
        let made = try mutation.move([.id(added[0].task.id)], to: "Elsewhere")
        #expect(made.created && made.listName == "Elsewhere" && made.outcomes.map(\.item.kind) == [.list(slug: "elsewhere")])
        #expect(try setup.titles(f.store, .list(slug: "elsewhere")) == ["one"])
    }

    @Test func editingOneTaskDropsGoneDependenciesAndWarnsAboutASlotOverAnother() throws {
        let f = try setup.fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let added = try setup.adding(f).add([(nil, ["Deep", "work", "at:2026-11-24@11:00", "for:1h"]), (nil, ["call"])]).added
        let mutation = TaskMutation(store: f.store, session: f.session, now: setup.now.addingTimeInterval(60))
        let gone = UUID()
        _ = try mutation.apply([.id(added[1].task.id)]) { task, _ in
            task.depends = [gone]
            return true
        }
        let parser = QuickAddParser(fields: FieldParser(now: setup.now, timeZone: setup.utc))
        let edit = try parser.split(["at:2026-11-24@11:30", "for:30m"], allowRemoval: true).edit
        let later = TaskMutation(store: f.store, session: f.session, now: setup.now.addingTimeInterval(120))
        let edited = try later.edit(.id(added[1].task.id), with: edit)
        #expect(edited.outcome.changed)
        #expect(edited.before.slot == nil && edited.outcome.item.task.slot != nil)
        #expect(edited.droppedDependencies == [gone])
        #expect(edited.outcome.item.task.depends.isEmpty)
        #expect(edited.slotWarnings.count == 1, "overlaps Deep work: \(edited.slotWarnings)")
        #expect(try f.store.read(.inbox)?.file.tasks.last?.slot == edited.outcome.item.task.slot)
        var rename = TaskEdit()
        rename.title = "call the bank"
        #expect(try later.edit(.id(added[1].task.id), with: rename).outcome.item.task.title == "call the bank")
        #expect(throws: LookupError.self) { _ = try later.edit(.short(99...99), with: rename) }
    }
}
