import Foundation
import Testing
@testable import TickKit

@Suite struct UndoJournalTests {
    let now = Timestamp.parse("2026-11-21T09:00:00Z")!
    var later: Date { now.addingTimeInterval(3600) }
    let work = FileKind.list(slug: "work")

    /// A store with a journal session, in a fresh temp directory.
    func makeStore(command: String = "test", maxEntryBytes: Int = 4 << 20) throws -> (Store, String) {
        let dir = NSTemporaryDirectory() + "tick-undo-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir + "/store/lists", withIntermediateDirectories: true)
        let location = StoreLocation(root: dir + "/store", stateDirectory: dir + "/state", cacheDirectory: dir + "/cache")
        let session = JournalSession(journal: UndoJournal(location: location), command: command, now: now, maxEntryBytes: maxEntryBytes)
        return (Store(location: location, journal: session), dir)
    }

    func task(_ title: String, state: TaskState = .open) -> TaskItem {
        var t = TaskItem(id: UUID(name: title), title: title, createdAt: now, modifiedAt: now)
        if state == .done { t.setState(.done, at: now) }
        return t
    }

    func listFile(_ titles: [String]) -> TaskFile {
        var file = TaskFile(kind: work, id: UUID(name: "work-file"), name: "Work", color: "#3b82f6", createdAt: now, modifiedAt: now)
        file.tasks = titles.map { task($0) }
        return file
    }

    func write(_ file: TaskFile, in store: Store) throws {
        try AtomicFile.write(TaskFileEncoder.encode(file), to: store.location.path(of: file.kind), mode: nil)
    }

    func read(_ store: Store, _ kind: FileKind? = nil) throws -> TaskFile {
        try #require(try store.read(kind ?? work)).file
    }

    /// Completes task `title` of the Work list through the store's session; returns its entry.
    func complete(_ title: String, in store: Store) throws -> JournalEntry {
        _ = try store.withLock { writer in
            try writer.update(work) { file in try file.updateTask(UUID(name: title)) { $0.setState(.done, at: later) } }
        }
        return try lastEntry(store)
    }

    /// The only entry the store's session wrote.
    func lastEntry(_ store: Store) throws -> JournalEntry {
        let contents = try UndoJournal(location: store.location).read()
        return try #require(contents.entries.last)
    }

    /// Reverts every file of an entry the way `tick undo` does; returns the conflicts.
    @discardableResult
    func revert(_ entry: JournalEntry, in store: Store, force: Bool = false) throws -> [UndoConflict] {
        var all: [UndoConflict] = []
        for (kind, steps) in UndoReverter.filesToRevert(entry) {
            let current = try store.read(kind)?.file
            let (outcome, conflicts) = try UndoReverter.revert(steps, kind: kind, current: current, force: force)
            all += conflicts
            let plain = Store(location: store.location)
            try plain.withLock { writer in
                switch outcome {
                case .keep: break
                case .write(let file): try writer.update(kind) { $0 = file }
                case let .restore(bytes, mode): try writer.restore(bytes, as: kind, mode: mode)
                case .delete: try writer.remove(kind)
                }
            }
        }
        return all
    }

    // MARK: The journal file

    @Test func appendsOneLinePerEntryWithMode0600AndReadsThemBack() throws {
        let dir = NSTemporaryDirectory() + "tick-undo-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let journal = UndoJournal(path: dir + "/undo.jsonl")
        for i in 1...3 {
            try journal.append(UndoJournal.encode(JournalEntry(id: "e\(i)", at: now, command: "done", files: [])))
        }
        let contents = try journal.read()
        #expect(contents.entries.map(\.id) == ["e1", "e2", "e3"])
        #expect(contents.warnings.isEmpty)
        let text = try String(contentsOfFile: journal.path, encoding: .utf8)
        #expect(text.split(separator: "\n").count == 3)
        let mode = try #require(FileStamp.of(path: journal.path)).mode & 0o777
        #expect(mode == 0o600)
    }

    @Test("a journal that cannot be written is a warning the caller takes, once; a restarted session's is its parent's too")
    func anUnwritableJournalIsAWarningTakenOnce() throws {
        let (store, dir) = try makeStore(command: "done")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try write(listFile(["Pay rent", "Call Bob"]), in: store)
        // A directory where the journal file goes: it cannot be written, the change still is.
        try FileManager.default.createDirectory(atPath: UndoJournal(location: store.location).path, withIntermediateDirectories: true)
        let session = try #require(store.journal)
        _ = try store.withLock { writer in
            try writer.update(work) { file in try file.updateTask(UUID(name: "Pay rent")) { $0.setState(.done, at: later) } }
        }
        #expect(try read(store).tasks.first?.state == .done)
        let warnings = session.takeWarnings()
        #expect(warnings.count == 1 && warnings.first?.message.contains("could not be recorded for `tick undo`") == true, "\(warnings)")
        #expect(session.takeWarnings().isEmpty, "taken once")
        let again = store.with(journal: session.restarted(at: later, as: "done again"))
        _ = try again.withLock { writer in
            try writer.update(work) { file in try file.updateTask(UUID(name: "Call Bob")) { $0.setState(.done, at: later) } }
        }
        #expect(session.takeWarnings().count == 1, "the restarted session's warning is the parent's too")
    }

    @Test func keepsOnlyTheNewestEntries() throws {
        let dir = NSTemporaryDirectory() + "tick-undo-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let journal = UndoJournal(path: dir + "/undo.jsonl", maxEntries: 3)
        for i in 1...7 {
            try journal.append(UndoJournal.encode(JournalEntry(id: "e\(i)", at: now, command: "add", files: [])))
        }
        #expect(try journal.read().entries.map(\.id) == ["e5", "e6", "e7"])
        // The byte bound drops old lines too.
        let small = UndoJournal(path: dir + "/small.jsonl", maxEntries: 100, maxBytes: 300)
        for i in 1...10 {
            try small.append(UndoJournal.encode(JournalEntry(id: "s\(i)", at: now, command: "add", files: [])))
        }
        let kept = try small.read().entries.map(\.id)
        #expect(kept.last == "s10")
        #expect(kept.count < 10 && kept.count >= 2)
        #expect(try #require(FileStamp.of(path: small.path)).size <= 300)
    }

    @Test func aCorruptLineIsSkippedWithAWarningNamingTheLine() throws {
        let good1 = try UndoJournal.encode(JournalEntry(id: "a", at: now, command: "add", files: []))
        let good2 = try UndoJournal.encode(JournalEntry(id: "b", at: now, command: "done", files: []))
        let bytes = good1 + Array("{\"v\":1,\"id\":\"half-writ".utf8) + [0x0A] + good2 + Array("{\"v\": 9, \"id\": \"future\", \"at\": \"x\", \"command\": \"y\", \"files\": []}\n".utf8)
        let contents = UndoJournal.parse(bytes, path: "/j/undo.jsonl")
        #expect(contents.entries.map(\.id) == ["a", "b"])
        #expect(contents.warnings.count == 2)
        #expect(contents.warnings[0].location == FileLocation(path: "/j/undo.jsonl", line: 2))
        #expect(contents.warnings[0].description.hasPrefix("/j/undo.jsonl:2: not a readable undo entry"))
        #expect(contents.warnings[1].message.contains("newer tick"))
        #expect(contents.warnings[1].description.hasPrefix("/j/undo.jsonl:4: "))
    }

    @Test func aLaterLineForTheSameEntrySupersedesTheEarlierOne() throws {
        var first = JournalEntry(id: "x", at: now, command: "mv", files: [])
        let line1 = try UndoJournal.encode(first)
        first.files = [FileStep(path: "inbox.json", name: "Inbox", fileID: "f")]
        let other = try UndoJournal.encode(JournalEntry(id: "y", at: now, command: "add", files: []))
        let contents = UndoJournal.parse(line1 + other + (try UndoJournal.encode(first)), path: "j")
        #expect(contents.entries.map(\.id) == ["y", "x"])
        #expect(contents.entries.last?.files.count == 1)
    }

    @Test func undoEntriesAndWhatTheyUndidAreNotUndoableAgain() {
        let entries = [
            JournalEntry(id: "1", at: now, command: "add", files: []),
            JournalEntry(id: "2", at: now, command: "done", files: []),
            JournalEntry(id: "3", at: now, command: "rm", files: []),
            JournalEntry(id: "u", at: now, command: "undo", undoes: ["3"], files: []),
        ]
        // Newest first; the undo itself is not on the stack, nor is rm.
        #expect(UndoJournal.undoable(entries).map(\.id) == ["2", "1"])
    }

    // MARK: Recording

    @Test func oneEntryPerCommandEvenAcrossSeveralLockedSections() throws {
        let (store, dir) = try makeStore(command: "done")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try write(listFile(["a", "b"]), in: store)
        for title in ["a", "b"] {
            _ = try store.withLock { writer in
                try writer.update(work) { file in
                    try file.updateTask(UUID(name: title)) { $0.setState(.done, at: later) }
                }
            }
        }
        let contents = try UndoJournal(location: store.location).read()
        #expect(contents.entries.count == 1)
        let entry = try #require(contents.entries.first)
        #expect(entry.command == "done")
        #expect(entry.files.count == 2)
        #expect(entry.summary == "2 tasks changed in Work")
        #expect(entry.files.flatMap(\.tasks).allSatisfy { $0.before != nil && $0.after != nil })
    }

    @Test func aWriteThatChangesNothingRecordsNothing() throws {
        let (store, dir) = try makeStore()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try write(listFile(["a"]), in: store)
        try store.withLock { writer in try writer.update(work) { _ in } }
        #expect(try UndoJournal(location: store.location).read().entries.isEmpty)
    }

    @Test func anEntryTooLargeKeepsCountsAndCannotBeReverted() throws {
        let (store, dir) = try makeStore(command: "import", maxEntryBytes: 400)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try write(listFile([]), in: store)
        try store.withLock { writer in
            try writer.update(work) { file in file.tasks = (1...20).map { task("t\($0)") } }
        }
        let entry = try lastEntry(store)
        #expect(entry.tooLarge == true)
        #expect(entry.files.first?.taskCounts.added == 20)
        #expect(entry.summary.contains("too large"))
        #expect(throws: UndoError.self) { try revert(entry, in: store) }
    }

    // MARK: Reverting

    @Test func revertKeepsAnUnrelatedChangeToAnotherTaskInTheSameFile() throws {
        let (store, dir) = try makeStore(command: "done")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try write(listFile(["a", "b"]), in: store)
        let entry = try complete("a", in: store)
        // Another machine (git pull) edits b and adds c.
        var pulled = try read(store)
        try pulled.updateTask(UUID(name: "b")) { $0.title = "b from elsewhere" }
        pulled.tasks.append(task("c"))
        try write(pulled, in: store)

        let conflicts = try revert(entry, in: store)
        #expect(conflicts.isEmpty)
        let after = try read(store)
        #expect(after.tasks.map(\.title) == ["a", "b from elsewhere", "c"])
        #expect(after.tasks[0].state == .open)
        #expect(after.tasks[0].completedAt == nil)
    }

    @Test func revertRefusesWhenTheTaskChangedSinceAndForceOverrides() throws {
        let (store, dir) = try makeStore(command: "done")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try write(listFile(["a"]), in: store)
        let entry = try complete("a", in: store)
        var edited = try read(store)
        edited.tasks[0].title = "a, edited by hand"
        try write(edited, in: store)
        let before = try Data(contentsOf: URL(fileURLWithPath: store.location.path(of: work)))

        let conflicts = try revert(entry, in: store)
        #expect(conflicts == [UndoConflict(path: "lists/work.json", listName: "Work", taskID: UUID(name: "a"), reason: .changed(fields: ["title"]))])
        #expect(try Data(contentsOf: URL(fileURLWithPath: store.location.path(of: work))) == before)

        try revert(entry, in: store, force: true)
        #expect(try read(store).tasks[0].title == "a")
        #expect(try read(store).tasks[0].state == .open)
    }

    @Test func revertOfRemoveRestoresThePositionAndDropsTheTombstone() throws {
        let (store, dir) = try makeStore(command: "rm")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try write(listFile(["a", "b", "c"]), in: store)
        try store.withLock { writer in
            try writer.update(work) { file in
                file.tasks.removeAll { $0.id == UUID(name: "b") }
                file.recordDeletion(of: [UUID(name: "b")], at: later)
            }
        }
        let entry = try lastEntry(store)
        #expect(entry.summary == "1 task deleted from Work")
        #expect(try read(store).deleted.map(\.id) == [UUID(name: "b")])
        try revert(entry, in: store)
        let after = try read(store)
        #expect(after.tasks.map(\.title) == ["a", "b", "c"])
        #expect(after.deleted.isEmpty)
    }

    @Test func revertOfReorderRestoresTheOrderAroundNewTasks() throws {
        let (store, dir) = try makeStore(command: "reorder")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try write(listFile(["a", "b", "c"]), in: store)
        _ = try store.withLock { writer in try writer.update(work) { file in try file.reorder(UUID(name: "c"), to: .top, now: later) } }
        let entry = try lastEntry(store)
        var pulled = try read(store)
        pulled.tasks.insert(task("new"), at: 1)
        try write(pulled, in: store)
        try revert(entry, in: store)
        #expect(try read(store).tasks.map(\.title) == ["a", "new", "b", "c"])
    }

    @Test func revertOfAFileRemovalRestoresItByteForByteAndRefusesWhenItExistsAgain() throws {
        let (store, dir) = try makeStore(command: "lists rm")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = store.location.path(of: work)
        // Hand-formatted, with an unknown key: not tick's canonical layout.
        let original = Data("{\"name\": \"Work\", \"id\": \"\(UUID(name: "w").lowercased)\", \"x-mine\": [1,2],\n \"tasks\": [{\"title\": \"a\"}]}\n".utf8)
        try original.write(to: URL(fileURLWithPath: path))
        chmod(path, 0o640)
        try store.withLock { writer in try writer.remove(work) }
        let entry = try lastEntry(store)
        #expect(entry.summary == "deleted list Work (1 task)")

        // Someone creates a new list with the same slug: never overwritten, not even with --force.
        try write(listFile(["other"]), in: store)
        let conflicts = try revert(entry, in: store, force: true)
        #expect(conflicts.map(\.reason) == [.fileRecreated])
        #expect(conflicts.first?.overridable == false)
        #expect(try read(store).tasks.map(\.title) == ["other"])

        try FileManager.default.removeItem(atPath: path)
        #expect(try revert(entry, in: store).isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original)
        #expect(try #require(FileStamp.of(path: path)).mode & 0o777 == 0o640)
    }

    @Test func revertOfACreatedFileDeletesItUnlessItHoldsNewTasks() throws {
        let (store, dir) = try makeStore(command: "add")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try store.withLock { writer in
            try writer.update(.inbox, create: { TaskFile.empty(.inbox, name: nil, now: now) }) { $0.tasks.append(task("a")) }
        }
        let entry = try lastEntry(store)
        #expect(entry.files.first?.isCreated == true)
        // A task added since by another route keeps the file.
        var pulled = try read(store, .inbox)
        pulled.tasks.append(task("theirs"))
        try write(pulled, in: store)
        try revert(entry, in: store)
        #expect(try read(store, .inbox).tasks.map(\.title) == ["theirs"])
        // Without it, the file goes away again.
        try write(try read(store, .inbox).with { $0.tasks = [task("a")] }, in: store)
        try revert(entry, in: store)
        #expect(try store.read(.inbox) == nil)
    }

    @Test func aFileDeletedAndCreatedAgainIsRefused() throws {
        let (store, dir) = try makeStore(command: "done")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try write(listFile(["a"]), in: store)
        let entry = try complete("a", in: store)
        var recreated = try read(store)
        recreated.id = UUID(name: "another list")
        try write(recreated, in: store)
        let conflicts = try revert(entry, in: store, force: true)
        #expect(conflicts.map(\.reason) == [.fileRecreated])
        #expect(try read(store).tasks[0].state == .done)
    }

    @Test func revertOfARenameRestoresTheNameAndRefusesAfterAnotherRename() throws {
        let (store, dir) = try makeStore(command: "lists rename")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try write(listFile(["a"]), in: store)
        try store.withLock { writer in try writer.update(work) { $0.name = "Office"; $0.modifiedAt = later } }
        let entry = try lastEntry(store)
        #expect(entry.summary == "renamed list Work to Office")
        try write(try read(store).with { $0.name = "Desk" }, in: store)
        #expect(try revert(entry, in: store).map(\.reason) == [.fileChanged])
        try write(try read(store).with { $0.name = "Office" }, in: store)
        #expect(try revert(entry, in: store).isEmpty)
        #expect(try read(store).name == "Work")
        #expect(try read(store).modifiedAt == now)
    }
}

extension TaskFile {
    /// A copy with `change` applied.
    func with(_ change: (inout TaskFile) -> Void) -> TaskFile {
        var copy = self
        change(&copy)
        return copy
    }
}
