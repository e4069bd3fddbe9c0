import ArgumentParser
import Foundation
import Testing
import TickKit
@testable import tick

/// `tick ui`'s writes in process, without curses: effects in, the store
/// files, the undo journal's command names and the status-line message out.
@Suite("tick ui's writes, in process")
struct UIWriterTests {
    /// A writer over the sandbox's store, as `tick ui` builds it.
    func writer(_ s: Sandbox) throws -> UIWriter {
        let process = try ProcessEnvironment(variables: s.environment(), currentDirectory: s.root, realNow: Date())
        return UIWriter(base: try Context(try GlobalOptions.parse([]), process: process))
    }

    /// The command names of the journal's entries, oldest first.
    func journal(_ w: UIWriter) throws -> [String] {
        try UndoJournal(location: w.base.store.location).read().entries.map(\.command)
    }

    func id(_ s: Sandbox, _ title: String) throws -> UUID {
        let text = (try? s.tasks("inbox.json").task(title)?.string("id")) ?? (try? s.tasks("lists/work.json").task(title)?.string("id"))
        let found = try #require(text ?? nil)
        return try #require(UUID(uuidString: found))
    }

    func perform(_ w: UIWriter, _ effect: UIEffect) throws -> UIWriteResult {
        try #require(w.perform(effect, suspend: {}, resume: {}))
    }

    @Test("capture, start, done (with the next occurrence), move, schedule, delete: each written, confirmed as its command, journaled under its name")
    func writes() throws {
        let s = try Sandbox()
        try s.ok("lists", "add", "Work")
        let w = try writer(s)

        let added = try perform(w, .add(text: "Water plants repeat:daily", view: .today))
        #expect(added.succeeded)
        #expect(added.message.hasPrefix("Added 1 (") && added.message.hasSuffix("to Inbox: Water plants"), "\(added.message)")
        let plants = try id(s, "Water plants")
        #expect(added.task == plants)
        #expect(try s.tasks("inbox.json").task("Water plants")?.string("due") == "2026-11-21", "captured in Today: due today")

        let started = try perform(w, .setState(plants, .active))
        #expect(started.message.hasPrefix("Started 1 ("), "\(started.message)")
        #expect(try s.tasks("inbox.json").task("Water plants")?.string("state") == "active")

        let done = try perform(w, .setState(plants, .done))
        #expect(done.succeeded)
        #expect(done.message.hasPrefix("Completed ") && done.message.contains(" · Next: ") && done.message.contains("due tomorrow"),
                "the next occurrence is named, as tick done prints it: \(done.message)")
        #expect(try s.tasks("inbox.json").count == 2)

        try s.add("Call the bank")
        let bank = try id(s, "Call the bank")
        let moved = try perform(w, .move(bank, list: "Work"))
        #expect(moved.message.contains("to Work: Call the bank") && moved.message.hasPrefix("Moved "), "\(moved.message)")
        #expect(try s.tasks("lists/work.json").task("Call the bank") != nil)
        #expect(try s.tasks("inbox.json").task("Call the bank") == nil)

        let scheduled = try perform(w, .schedule(bank, .tomorrow))
        #expect(scheduled.message.hasPrefix("Edited ") && scheduled.message.hasSuffix("Call the bank (sched)"), "\(scheduled.message)")
        #expect(try s.tasks("lists/work.json").task("Call the bank")?.string("scheduled") == "2026-11-22")

        let deleted = try perform(w, .delete(bank))
        #expect(deleted.message.hasPrefix("Deleted "), "\(deleted.message)")
        #expect(try s.tasks("lists/work.json").isEmpty)

        // One entry per write, named as its command (between them, the CLI's `lists add` and `add`).
        #expect(try journal(w) == ["lists add", "add", "start", "done", "add", "mv", "edit", "rm"])
    }

    @Test("u undoes the last change, in the same journal as tick undo; a refused write shows the CLI's error line and writes nothing")
    func undoAndErrors() throws {
        let s = try Sandbox()
        try s.ok("lists", "add", "Work")
        let w = try writer(s)
        _ = try perform(w, .add(text: "Fix sink", view: .inbox))
        let sink = try id(s, "Fix sink")
        _ = try perform(w, .move(sink, list: "Work"))
        let undone = try perform(w, .undo)
        #expect(undone.succeeded)
        #expect(undone.message.hasPrefix("Undid mv: "), "\(undone.message)")
        #expect(try s.tasks("inbox.json").task("Fix sink") != nil)
        #expect(try s.tasks("lists/work.json").isEmpty)

        let before = try s.fingerprint()
        let missing = try perform(w, .setState(UUID(), .active))
        #expect(!missing.succeeded)
        #expect(missing.message.hasPrefix("tick: error: "), "\(missing.message)")
        let badList = try perform(w, .move(sink, list: "Wrk"))   // one letter from Work: a typo, refused (issue 46)
        #expect(!badList.succeeded && badList.message.hasPrefix("tick: error: "), "\(badList.message)")
        let badContext = try perform(w, .setContext("nope"))
        #expect(badContext.message.hasPrefix("tick: error: no context named nope"), "\(badContext.message)")
        let badDate = try perform(w, .add(text: "Pay rent due:someday", view: .today))
        #expect(!badDate.succeeded && badDate.message.hasPrefix("tick: error: "), "\(badDate.message)")
        #expect(try s.fingerprint() == before, "a refused write writes nothing")
    }

    @Test("e's line: a token taken out clears its field, a tag taken out is removed; journaled as edit")
    func inlineEdit() throws {
        let s = try Sandbox()
        let w = try writer(s)
        try s.add("Call the bank", "due:2026-11-27", "pri:must", "+phone")
        let bank = try id(s, "Call the bank")
        let edited = try perform(w, .edit(bank, text: "Call the bank today due:2026-11-27 +money"))
        #expect(edited.message.hasPrefix("Edited ") && edited.message.contains("(title, pri, +money, -phone)"), "\(edited.message)")
        let task = try #require(try s.tasks("inbox.json").first)
        #expect(task["title"] as? String == "Call the bank today")
        #expect(task["tags"] as? [String] == ["money"])
        #expect(task["due"] as? String == "2026-11-27")
        #expect(task["priority"] == nil)
        #expect(try journal(w).last == "edit")
    }
}
