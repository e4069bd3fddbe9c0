import Foundation
import Testing
@testable import TickKit

/// `tick undo`'s workflow, in process (issue 28): which entries it undoes,
/// what it puts back in the store, and where it stops.
@Suite struct UndoRunTests {
    let setup = UndoJournalTests()
    var work: FileKind { setup.work }

    /// The same store as `store`, recording into the journal as `command` (one session per command, as tick runs).
    func command(_ command: String, _ store: Store) -> Store {
        let session = JournalSession(journal: UndoJournal(location: store.location), command: command, now: setup.later)
        return Store(location: store.location, journal: session)
    }

    /// The undoable entries left in the journal, newest first.
    func pending(_ store: Store) throws -> [JournalEntry] {
        UndoJournal.undoable(try UndoJournal(location: store.location).read().entries)
    }


    @Test func undoesTheNewestEntriesNewestFirstAndTheyAreNotUndoableAgain() throws {
        let (store, dir) = try setup.makeStore(command: "done")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try setup.write(setup.listFile(["a", "b", "c"]), in: store)
        _ = try setup.complete("a", in: command("done", store))
        _ = try setup.complete("b", in: command("done", store))
        _ = try setup.complete("c", in: command("done", store))
        let before = try pending(store).map(\.id)
        #expect(before.count == 3)

        let outcome = try UndoRun(store: command("undo", store), force: false).undo(count: 2)
        #expect(outcome.failure == nil)
        #expect(outcome.undone.map(\.id) == Array(before.prefix(2)), "the newest two, newest first")
        #expect(outcome.warnings.isEmpty)
        let states = try setup.read(store).tasks.map(\.state)
        #expect(states == [.done, .open, .open])
        #expect(try pending(store).map(\.id) == [before[2]], "what was undone is off the stack")
    }

    @Test func askingForMoreThanIsLeftUndoesNothing() throws {
        let (store, dir) = try setup.makeStore(command: "done")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try setup.write(setup.listFile(["a"]), in: store)
        _ = try setup.complete("a", in: store)
        let outcome = try UndoRun(store: command("undo", store), force: false).undo(count: 2)
        #expect(outcome.failure as? UndoError == .nothingToUndo(available: 1) && outcome.undone.isEmpty)
        #expect(try setup.read(store).tasks.map(\.state) == [.done])
        #expect(try pending(store).count == 1)
    }

    @Test func aTaskChangedSinceStopsTheRunAfterWhatItUndidAndForceOverrides() throws {
        let (store, dir) = try setup.makeStore(command: "done")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try setup.write(setup.listFile(["a", "b"]), in: store)
        _ = try setup.complete("a", in: command("done", store))
        _ = try setup.complete("b", in: command("done", store))
        // A hand edit of a, after both commands.
        var edited = try setup.read(store)
        try edited.updateTask(UUID(name: "a")) { $0.title = "a, edited by hand" }
        try setup.write(edited, in: store)

        let outcome = try UndoRun(store: command("undo", store), force: false).undo(count: 2)
        #expect(outcome.undone.map(\.command) == ["done"], "b's change was undone before a's stopped the run")
        let failure = try #require(outcome.failure as? UndoError)
        #expect(failure == .conflicts(command: "done", [
            UndoConflict(path: "lists/work.json", listName: "Work", taskID: UUID(name: "a"), reason: .changed(fields: ["title"])),
        ]))
        var file = try setup.read(store)
        #expect(file.tasks.map(\.title) == ["a, edited by hand", "b"])
        #expect(file.tasks.map(\.state) == [.done, .open])

        let forced = try UndoRun(store: command("undo", store), force: true).undo(count: 1)
        #expect(forced.failure == nil && forced.undone.count == 1)
        file = try setup.read(store)
        #expect(file.tasks.map(\.title) == ["a", "b"])
        #expect(file.tasks.map(\.state) == [.open, .open])
        #expect(try pending(store).isEmpty)
    }

    @Test func aTooLargeEntryStopsTheRunAndAnUnreadableJournalLineIsWarnedAbout() throws {
        let (store, dir) = try setup.makeStore(command: "import", maxEntryBytes: 400)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try setup.write(setup.listFile([]), in: store)
        try store.withLock { writer in
            try writer.update(work) { file in file.tasks = (1...20).map { setup.task("t\($0)") } }
        }
        let journal = UndoJournal(location: store.location)
        let handle = try #require(FileHandle(forWritingAtPath: journal.path))
        handle.seekToEndOfFile()
        handle.write(Data("not json\n".utf8))
        handle.closeFile()

        let outcome = try UndoRun(store: command("undo", store), force: true).undo(count: 1)
        #expect(outcome.undone.isEmpty)
        #expect(outcome.failure as? UndoError == .tooLarge(command: "import"))
        #expect(outcome.warnings.count == 1)
        #expect(try setup.read(store).tasks.count == 20, "nothing was written")
    }
}
