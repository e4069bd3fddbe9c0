import Foundation
import Testing
@testable import TickKit

/// `tick edit ID` in the editor, in process (issue 28): the editor is a
/// closure that rewrites the scratch file; what is saved, refused or kept.
@Suite struct EditorSessionTests {
    let setup = TaskAddingTests()

    func session(_ f: (store: Store, session: IndexSession, dir: String, warnings: WarningLog), _ item: ListedTask) -> (EditorSession, String) {
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
}
