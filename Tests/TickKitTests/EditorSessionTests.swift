import Foundation
import Testing
@testable import TickKit

/// `tick edit ID` in the editor, in process (issue 28): the editor is a
/// closure that rewrites the scratch file; what is saved, refused or kept.
@Suite struct EditorSessionTests {
    let setup = TaskAddingTests()

    func session(_ f: (store: Store, session: IndexSession, dir: String), _ item: ListedTask) -> (EditorSession, String) {
        let path = EditorSession.scratchPath(location: f.store.location, task: item.task, processID: 42)
        return (EditorSession(store: f.store, session: f.session, item: item, now: setup.now.addingTimeInterval(60), timeZone: setup.utc, path: path), path)
    }

    /// An editor that replaces `old` with `new` in the file.
    func replacing(_ old: String, with new: String) -> (String) throws -> Void {
        { path in
            let text = try String(contentsOfFile: path, encoding: .utf8)
            #expect(text.contains(old), "the buffer holds \(old)")
            try text.replacingOccurrences(of: old, with: new).write(toFile: path, atomically: true, encoding: .utf8)
        }
    }

    @Test func theScratchFileIsNamedAfterTheTaskAndTheProcess() throws {
        let task = TaskItem(id: UUID(uuidString: "6F1C2A3B-0000-4000-8000-000000000000")!, title: "x", createdAt: setup.now, modifiedAt: setup.now)
        #expect(EditorSession.scratchPath(directory: "/tmp", task: task, processID: 7) == "/tmp/tick-edit-6f1c2a3b-7.json")
    }

    @Test func anUntouchedBufferIsNoChangeAndIsRemoved() throws {
        let f = try setup.fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let item = try setup.adding(f).add([(nil, ["Call", "the", "bank"])]).added[0]
        let (editor, path) = session(f, item)
        var edits = 0
        let outcome = try editor.run(edit: { p in
            edits += 1
            #expect(p == path)
            #expect(FileManager.default.fileExists(atPath: p))
        }, retry: { _ in true })
        #expect(outcome == .noChanges)
        #expect(edits == 1)
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(try f.store.read(.inbox)?.file.tasks.first == item.task)
    }

    @Test func anEditedTitleIsSavedWithTheCommandsTime() throws {
        let f = try setup.fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let item = try setup.adding(f).add([(nil, ["Call", "the", "bank"])]).added[0]
        let (editor, path) = session(f, item)
        let outcome = try editor.run(edit: replacing("\"Call the bank\"", with: "\"Call the bank today\""), retry: { _ in
            Issue.record("a valid edit was refused")
            return false
        })
        guard case let .saved(original, edited, changed, _) = outcome else {
            Issue.record("not saved: \(outcome)")
            return
        }
        #expect(changed)
        #expect(original.title == "Call the bank")
        #expect(edited.title == "Call the bank today")
        let stored = try #require(try f.store.read(.inbox)?.file.tasks.first)
        #expect(stored.title == "Call the bank today")
        #expect(stored.modifiedAt == setup.now.addingTimeInterval(60))
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func aBrokenBufferGoesToRetryAndIsKeptWhenTheUserGivesUp() throws {
        let f = try setup.fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let item = try setup.adding(f).add([(nil, ["Call", "the", "bank"])]).added[0]
        let (editor, path) = session(f, item)
        // First a broken text, then (asked to edit again) a fixed one.
        var round = 0
        var problems: [String] = []
        var original = ""
        let outcome = try editor.run(edit: { p in
            round += 1
            if round == 1 {
                original = try String(contentsOfFile: p, encoding: .utf8)
                try "{ \"title\": ".write(toFile: p, atomically: true, encoding: .utf8)
            } else {
                try original.replacingOccurrences(of: "\"Call the bank\"", with: "\"Call the bank soon\"")
                    .write(toFile: p, atomically: true, encoding: .utf8)
            }
        }, retry: { error in
            problems.append(error.path)
            return true
        })
        #expect(round == 2)
        #expect(problems == [path])
        if case let .saved(_, edited, changed, _) = outcome {
            #expect(changed && edited.title == "Call the bank soon")
        } else {
            Issue.record("not saved after the retry: \(outcome)")
        }

        let (again, againPath) = session(f, try f.session.load().tasks.resolve(item.task.id.lowercased))
        #expect(throws: EditorError.notSaved(kept: againPath)) {
            _ = try again.run(edit: { p in try "not json".write(toFile: p, atomically: true, encoding: .utf8) }, retry: { _ in false })
        }
        #expect(FileManager.default.fileExists(atPath: againPath), "the user's text is kept")
        #expect(try f.store.read(.inbox)?.file.tasks.first?.title == "Call the bank soon")
    }

    @Test func aChangedIDIsRefused() throws {
        let f = try setup.fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let item = try setup.adding(f).add([(nil, ["Call", "the", "bank"])]).added[0]
        let (editor, _) = session(f, item)
        var messages: [String] = []
        #expect(throws: EditorError.self) {
            _ = try editor.run(edit: replacing(item.task.id.lowercased, with: UUID(name: "other").lowercased), retry: { error in
                messages.append(error.message)
                return false
            })
        }
        #expect(messages == ["the id cannot be changed (it was \(item.task.id.lowercased))"])
    }

    @Test func aTaskChangedOnDiskDuringTheEditIsNotOverwritten() throws {
        let f = try setup.fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let item = try setup.adding(f).add([(nil, ["Call", "the", "bank"])]).added[0]
        let (editor, path) = session(f, item)
        let store = f.store
        #expect(throws: EditorError.changedOnDisk(kept: path)) {
            _ = try editor.run(edit: { p in
                try store.withLock { writer in
                    try writer.update(.inbox) { file in file.tasks[0].title = "Changed elsewhere" }
                }
                try replacing("\"Call the bank\"", with: "\"Mine\"")(p)
            }, retry: { _ in false })
        }
        #expect(try f.store.read(.inbox)?.file.tasks.first?.title == "Changed elsewhere")
        #expect(FileManager.default.fileExists(atPath: path))
    }

    // MARK: Issue 32: the task as its file has it, every time

    /// An editor session at `minutes` after the fixture's time, with the
    /// store's clock (the writer's stamps) at the same time, as the CLI has it.
    func editor(_ f: (store: Store, session: IndexSession, dir: String), _ id: UUID, minutes: Double) throws -> EditorSession {
        let at = setup.now.addingTimeInterval(minutes * 60)
        let item = try f.session.load().tasks.resolve(id.lowercased)
        return EditorSession(store: f.store.with(clock: { at }), session: f.session, item: item, now: at, timeZone: setup.utc,
                             path: EditorSession.scratchPath(location: f.store.location, task: item.task, processID: 42))
    }

    func mutation(_ f: (store: Store, session: IndexSession, dir: String), minutes: Double) -> TaskMutation {
        let at = setup.now.addingTimeInterval(minutes * 60)
        return TaskMutation(store: f.store.with(clock: { at }), session: f.session, now: at)
    }

    func refuse(_ error: FormatError) -> Bool {
        Issue.record("a valid edit was refused: \(error.message)")
        return false
    }

    func stored(_ f: (store: Store, session: IndexSession, dir: String), _ id: UUID) throws -> TaskItem {
        try #require(try f.store.read(.inbox)?.file.tasks.first { $0.id == id })
    }

    @Test func threeEditsInARowAreAllSavedAndStampedWithAnUnknownKey() throws {
        let f = try setup.fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let id = try setup.adding(f).add([(nil, ["Alpha"])]).added[0].task.id
        // An unknown key, written by another tool: kept, and no reason to refuse.
        try f.store.withLock { writer in
            try writer.update(.inbox) { file in file.tasks[0].extra = [JSONMember("x-owner", .string("sam"))] }
        }
        for (round, (old, new)) in [("Alpha", "Beta"), ("Beta", "Gamma"), ("Gamma", "Delta")].enumerated() {
            let minutes = Double(round + 1)
            let outcome = try editor(f, id, minutes: minutes).run(edit: replacing("\"\(old)\"", with: "\"\(new)\""), retry: refuse)
            guard case let .saved(original, edited, changed, completion) = outcome else {
                Issue.record("round \(round + 1) not saved: \(outcome)")
                return
            }
            #expect(changed && original.title == old && edited.title == new && completion == nil)
            let task = try stored(f, id)
            #expect(task.title == new)
            #expect(task.extra == [JSONMember("x-owner", .string("sam"))])
            #expect(task.changed["title"] == setup.now.addingTimeInterval(minutes * 60), "the edit stamps changed.title")
            #expect(task.modifiedAt == setup.now.addingTimeInterval(minutes * 60))
        }
        // The unknown key's change time (set when it was added) survives the edits.
        #expect(try stored(f, id).changed["x-owner"] != nil)
    }

    @Test func editsAfterDoneReopenStartAndTagEditsAreSaved() throws {
        let f = try setup.fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let id = try setup.adding(f).add([(nil, ["Alpha"])]).added[0].task.id
        let ref = TaskReference.id(id)
        let steps: [(String, (Double) throws -> Void)] = [
            ("start", { m in _ = try mutation(f, minutes: m).apply([ref]) { task, now in task.setState(.active, at: now) } }),
            ("tag", { m in _ = try mutation(f, minutes: m).apply([ref]) { task, _ in task.addTag("home"); return true } }),
            ("done", { m in _ = try mutation(f, minutes: m).complete([ref], timeZone: setup.utc) }),
            ("reopen", { m in _ = try mutation(f, minutes: m).applyInFile([ref]) { file, id, now in try file.reopen(taskID: id, at: now) } }),
        ]
        var title = "Alpha"
        for (i, (name, step)) in steps.enumerated() {
            let minutes = Double(2 * i + 1)
            try step(minutes)
            let newTitle = "\(title) after \(name)"
            let outcome = try editor(f, id, minutes: minutes + 1).run(edit: replacing("\"\(title)\"", with: "\"\(newTitle)\""), retry: refuse)
            guard case .saved(_, _, true, _) = outcome else {
                Issue.record("the edit after \(name) was not saved: \(outcome)")
                return
            }
            title = newTitle
            #expect(try stored(f, id).title == title)
        }
        let task = try stored(f, id)
        #expect(task.state == .open && task.tags == ["home"])
        #expect(task.changed.keys.sorted() == ["+home", "state", "title"])
    }

    @Test func editingTheStateCompletesAndReopensAsDoneAndReopenDo() throws {
        let f = try setup.fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let added = try setup.adding(f).add([(nil, ["Water", "plants", "repeat:daily", "due:2026-11-23"])]).added[0]
        let id = added.task.id
        let outcome = try editor(f, id, minutes: 1).run(edit: replacing("\"state\": \"open\"", with: "\"state\": \"done\""), retry: refuse)
        guard case let .saved(_, edited, true, completion?) = outcome else {
            Issue.record("no completion: \(outcome)")
            return
        }
        let at = setup.now.addingTimeInterval(60)
        #expect(edited.state == .done && edited.completedAt == at)
        #expect(completion.ruleProblem == nil && completion.nextCreated)
        let nextID = TaskFile.nextOccurrenceID(after: id)
        #expect(completion.next?.id == nextID)
        let file = try #require(try f.store.read(.inbox)?.file)
        #expect(file.tasks.map(\.id) == [id, nextID], "the next occurrence follows it, as after tick done")
        #expect(file.tasks[0].changed["state"] == at)

        // Back to open: the untouched next occurrence is taken back, as by tick reopen.
        let reopened = try editor(f, id, minutes: 2).run(edit: replacing("\"state\": \"done\"", with: "\"state\": \"open\""), retry: refuse)
        guard case let .saved(_, back, true, nil) = reopened else {
            Issue.record("not reopened: \(reopened)")
            return
        }
        #expect(back.state == .open && back.completedAt == nil)
        let after = try #require(try f.store.read(.inbox)?.file)
        #expect(after.tasks.map(\.id) == [id])
        #expect(after.deleted.isEmpty, "a reopen leaves no tombstone (Docs/RECURRENCE.md)")
    }

    @Test func aRepeatRuleThatCannotBeReadIsReportedNotDropped() throws {
        let f = try setup.fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let id = try setup.adding(f).add([(nil, ["Alpha"])]).added[0].task.id
        try f.store.withLock { writer in
            try writer.update(.inbox) { file in file.tasks[0].repeatRule = "every blue moon" }
        }
        let outcome = try editor(f, id, minutes: 1).run(edit: replacing("\"state\": \"open\"", with: "\"state\": \"done\""), retry: refuse)
        guard case let .saved(_, edited, true, completion?) = outcome else {
            Issue.record("no completion: \(outcome)")
            return
        }
        #expect(edited.state == .done)
        #expect(completion.ruleProblem?.contains("every blue moon") == true)
        #expect(completion.next == nil)
        #expect(try f.store.read(.inbox)?.file.tasks.count == 1)
    }

    @Test func aReorderMeanwhileIsNotAConflictAndKeepsItsStamp() throws {
        let f = try setup.fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let ids = try setup.adding(f).add([(nil, ["Alpha"]), (nil, ["Beta"])]).added.map(\.task.id)
        let session = try editor(f, ids[0], minutes: 2)
        let outcome = try session.run(edit: { p in
            _ = try mutation(f, minutes: 1).reorder(.id(ids[0]), to: .bottom)
            try replacing("\"Alpha\"", with: "\"Alpha 2\"")(p)
        }, retry: refuse)
        guard case .saved(_, _, true, _) = outcome else {
            Issue.record("not saved: \(outcome)")
            return
        }
        let file = try #require(try f.store.read(.inbox)?.file)
        #expect(file.tasks.map(\.title) == ["Beta", "Alpha 2"])
        #expect(file.tasks[1].changed["order"] == setup.now.addingTimeInterval(60))
    }

    @Test func aFieldChangedMeanwhileByAnotherCommandIsRefused() throws {
        let f = try setup.fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let id = try setup.adding(f).add([(nil, ["Alpha"])]).added[0].task.id
        // An earlier edit leaves a `changed` map: the check must still see a real change.
        _ = try editor(f, id, minutes: 1).run(edit: replacing("\"Alpha\"", with: "\"Beta\""), retry: refuse)
        let session = try editor(f, id, minutes: 3)
        let path = EditorSession.scratchPath(location: f.store.location, task: session.item.task, processID: 42)
        #expect(throws: EditorError.changedOnDisk(kept: path)) {
            _ = try session.run(edit: { p in
                _ = try mutation(f, minutes: 2).apply([.id(id)]) { task, now in task.setState(.active, at: now) }
                try replacing("\"Beta\"", with: "\"Mine\"")(p)
            }, retry: { _ in false })
        }
        let task = try stored(f, id)
        #expect(task.title == "Beta" && task.state == .active)
        #expect(FileManager.default.fileExists(atPath: path))
    }

    @Test func theScratchFileIsPrivateUnderTheStateDirectory() throws {
        let f = try setup.fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let item = try setup.adding(f).add([(nil, ["Alpha"])]).added[0]
        let (editor, path) = session(f, item)
        #expect(path.hasPrefix(f.store.location.stateDirectory + "/edits/tick-edit-"))
        var modes: [Int] = []
        _ = try editor.run(edit: { p in
            let dir = try FileManager.default.attributesOfItem(atPath: (p as NSString).deletingLastPathComponent)
            let file = try FileManager.default.attributesOfItem(atPath: p)
            modes = [dir[.posixPermissions] as? Int ?? -1, file[.posixPermissions] as? Int ?? -1]
        }, retry: { _ in false })
        #expect(modes == [0o700, 0o600])
    }
}
