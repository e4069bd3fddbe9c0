import Foundation
import Testing

/// `tick undo`: the machine-local journal, each command kind, --list, --json, refusals.
@Suite("undo")
struct UndoTests {
    /// The journal of the sandbox's store.
    func journalPath(_ s: Sandbox) -> String { s.stateHome + "/tick/" + s.storeKey + "/undo.jsonl" }

    /// Parses `tick undo --list [N] --json`.
    func pending(_ s: Sandbox, _ extra: String...) throws -> [[String: Any]] {
        let r = try s.tick(["undo", "--list"] + extra + ["--json"])
        #expect(r.status == 0, "\(r)")
        return try #require(try JSONSerialization.jsonObject(with: r.stdoutData) as? [[String: Any]])
    }

    @Test("a journal that cannot be written: the change is made, exit 0, and one warning on stderr after the output")
    func anUnwritableJournalIsOneWarning() throws {
        let s = try Sandbox()
        let id = try s.add("Pay rent")
        try FileManager.default.removeItem(atPath: journalPath(s))
        try FileManager.default.createDirectory(atPath: journalPath(s), withIntermediateDirectories: true)
        let r = try s.tick("done", id)
        #expect(r.status == 0 && r.stdout.hasPrefix("Completed 1"), "\(r)")
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("tick: warning: the change was made, but it could not be recorded for `tick undo`"), "\(r.stderr)")
        #expect(try s.tasks("inbox.json").first?.string("state") == "done")
    }

    @Test("add, then undo: the task is gone; the inbox add created keeps only its tombstone")
    func undoAdd() throws {
        let s = try Sandbox()
        try s.add("Buy milk")
        #expect(s.exists("inbox.json"))
        let r = try s.tick("undo")
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.hasPrefix("Undid add: 1 task added to Inbox"))
        // The undone add is a deletion, so a copy of the task on another machine does not come back.
        #expect(try s.tasks("inbox.json").isEmpty)
        #expect((try s.file("inbox.json")["deleted"] as? [[String: Any]])?.count == 1)
        // The journal is machine-local: outside the store, private.
        #expect(s.storeFiles() == ["inbox.json"])
        let st = try FileManager.default.attributesOfItem(atPath: journalPath(s))
        #expect((st[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        // It names the command, never the title.
        let journal = try String(contentsOfFile: journalPath(s), encoding: .utf8)
        #expect(journal.contains("\"command\":\"add\""))
    }

    @Test("edit, then undo restores every field")
    func undoEdit() throws {
        let s = try Sandbox()
        try s.add("Report", "due:tomorrow", "+work")
        let before = try s.text("inbox.json")
        try s.ok("edit", "1", "--title", "Report v2", "due:fri", "-work", "+home", "pri:must", now: "2026-11-21T10:00:00Z")
        #expect(try s.text("inbox.json") != before)
        try s.ok("undo")
        #expect(try undoValues(s.text("inbox.json")) == undoValues(before))
        // Stamped as a change, just after the edit (TICK_NOW, 09:00, is earlier).
        let changed = try #require(try s.tasks("inbox.json").first?["changed"] as? [String: String])
        #expect(changed["title"] == "2026-11-21T10:00:01Z" && changed["+work"] == "2026-11-21T10:00:01Z", "\(changed)")
    }

    @Test("done, start and reopen each undo to the previous state")
    func undoStates() throws {
        let s = try Sandbox()
        try s.add("A")
        try s.add("B")
        let initial = try s.text("inbox.json")
        try s.ok("start", "1", now: "2026-11-21T10:00:00Z")
        let started = try s.text("inbox.json")
        try s.ok("done", "1", "2", now: "2026-11-21T11:00:00Z")
        let done = try s.text("inbox.json")
        try s.ok("reopen", try s.uuidPrefix("B"), now: "2026-11-21T12:00:00Z")
        #expect(try pending(s).first?.string("summary") == "1 task changed in Inbox")
        try s.ok("undo")
        #expect(try undoValues(s.text("inbox.json")) == undoValues(done))
        let r = try s.tick("undo")
        #expect(r.stdout.hasPrefix("Undid done: 2 tasks changed in Inbox"), "\(r)")
        #expect(try undoValues(s.text("inbox.json")) == undoValues(started))
        try s.ok("undo")
        #expect(try undoValues(s.text("inbox.json")) == undoValues(initial))
    }

    @Test("rm, then undo: back at its old position, and its tombstone is gone")
    func undoRemove() throws {
        let s = try Sandbox()
        for t in ["A", "B", "C"] { try s.add(t) }
        let initial = try s.text("inbox.json")
        try s.ok("rm", "2", now: "2026-11-21T10:00:00Z")
        #expect(try s.text("inbox.json").contains("\"deleted\""))
        try s.ok("undo")
        #expect(try s.tasks("inbox.json").titles == ["A", "B", "C"])
        #expect(try s.file("inbox.json")["deleted"] == nil)
        #expect(try undoValues(s.text("inbox.json")) == undoValues(initial))
    }

    @Test("mv, then undo: back in the source list, gone from the target")
    func undoMove() throws {
        let s = try Sandbox()
        try s.ok("lists", "add", "Work")
        try s.add("A")
        try s.add("B")
        let inbox = try s.text("inbox.json")
        let work = try s.text("lists/work.json")
        try s.ok("mv", "1", "Work", now: "2026-11-21T10:00:00Z")
        #expect(try s.tasks("lists/work.json").titles == ["A"])
        #expect(try pending(s).first?.string("summary") == "1 task moved from Inbox to Work")
        try s.ok("undo")
        #expect(try undoValues(s.text("inbox.json")) == undoValues(inbox))
        #expect(try undoValues(s.text("lists/work.json")) == undoValues(work))
        // Moved back: placed in the Inbox after the move, no tombstone in Work.
        #expect((try s.tasks("inbox.json").first?["changed"] as? [String: String])?["list"] == "2026-11-21T10:00:01Z")
        #expect(try s.file("lists/work.json")["deleted"] == nil)
    }

    @Test("reorder, then undo restores the manual order")
    func undoReorder() throws {
        let s = try Sandbox()
        for t in ["A", "B", "C"] { try s.add(t) }
        try s.ok("reorder", "3", "--top", now: "2026-11-21T10:00:00Z")
        #expect(try s.tasks("inbox.json").titles == ["C", "A", "B"])
        try s.ok("undo")
        #expect(try s.tasks("inbox.json").titles == ["A", "B", "C"])
    }

    @Test("lists add, rename and rm undo: the file goes, the name comes back, the deleted file comes back byte for byte")
    func undoListChanges() throws {
        let s = try Sandbox()
        try s.ok("lists", "add", "Work")
        try s.add("Task", "list:Work")
        try s.ok("lists", "rename", "Work", "Office", now: "2026-11-21T10:00:00Z")
        #expect(try s.file("lists/work.json").string("name") == "Office")
        try s.ok("undo")
        #expect(try s.file("lists/work.json").string("name") == "Work")
        // The rename undone is a change of the list, just after the rename.
        #expect(try s.file("lists/work.json").string("modifiedAt") == "2026-11-21T10:00:01Z")

        // Hand-formatted file with an unknown key and an unusual mode: restored exactly.
        let custom = try s.text("lists/work.json").replacingOccurrences(of: "\"tasks\"", with: "\"x-color-theme\": \"dark\",    \"tasks\"")
        try s.write("lists/work.json", custom)
        chmod(s.path("lists/work.json"), 0o640)
        try s.ok("lists", "rm", "Work", "--yes")
        #expect(!s.exists("lists/work.json"))
        let r = try s.tick("undo")
        #expect(r.stdout.hasPrefix("Undid lists rm: deleted list Work (1 task)"), "\(r)")
        #expect(try s.text("lists/work.json") == custom)
        let mode = try FileManager.default.attributesOfItem(atPath: s.path("lists/work.json"))[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o640)
        #expect(try s.json("list", "Work").titles == ["Task"])

        // Undo the add of the task, then the list itself: the hand-added key
        // counts as a change to the list since `lists add`.
        let two = try s.tick("undo", "2")
        #expect(two.status == 1)
        #expect(two.stdout.hasPrefix("Undid add: 1 task added to Work"))
        #expect(two.stderr.contains("undid 1 of 2 change(s); then cannot undo `lists add`"), "\(two)")
        #expect(two.stderr.contains("Work (lists/work.json): the list's own fields (name, color, other keys) changed since"))
        #expect(s.exists("lists/work.json"))
        try s.ok("undo", "--force")
        #expect(!s.exists("lists/work.json"))
    }

    @Test("import, then undo removes what the import added")
    func undoImport() throws {
        let s = try Sandbox()
        try s.add("Mine")
        let before = try s.text("inbox.json")
        let r = try s.tick("import", "-", "--format", "todotxt", stdin: "Buy milk\n(A) Call Bob\n")
        #expect(r.status == 0, "\(r)")
        #expect(try s.tasks("inbox.json").count == 3)
        #expect(try pending(s).first?.string("command") == "import")
        try s.ok("undo")
        #expect(try undoValues(s.text("inbox.json")) == undoValues(before))
        #expect((try s.file("inbox.json")["deleted"] as? [[String: Any]])?.count == 2, "the undone imports are deleted")
    }

    @Test("undo N reverts N commands newest first; two undos revert two different commands")
    func undoSeveral() throws {
        let s = try Sandbox()
        for t in ["A", "B", "C", "D"] { try s.add(t) }
        let r = try s.tick("undo", "2")
        #expect(r.status == 0)
        #expect(r.lines.count == 2)
        #expect(try s.tasks("inbox.json").titles == ["A", "B"])
        try s.ok("undo")
        try s.ok("undo")
        // The first add created inbox.json; undoing it leaves the file with the tombstones only.
        #expect(try s.tasks("inbox.json").isEmpty)
        // Undo is not undone by undo: nothing is left.
        let none = try s.tick("undo")
        #expect(none.status == 1)
        #expect(none.stderr.contains("nothing to undo"))
        // An alias and global options before the command are recorded under the command's name.
        let x = try s.add("X")
        try s.ok("--store", s.store, "delete", x)
        let json = try s.tick("undo", "--json")
        #expect(json.status == 0)
        let undone = try #require(try JSONSerialization.jsonObject(with: json.stdoutData) as? [[String: Any]])
        #expect(undone.map { $0.string("command") } == ["rm"])
        #expect(undone.first?.string("summary") == "1 task deleted from Inbox")
        try s.ok("undo")
        // Asking for more than there is changes nothing.
        try s.add("E")
        let tooMany = try s.tick("undo", "5")
        #expect(tooMany.status == 1)
        #expect(tooMany.stderr.contains("only 1 change(s) can be undone"))
        #expect(try s.tasks("inbox.json").titles == ["E"])
    }

    @Test("--list shows newest first with short ids; --json has counts; N limits it")
    func listAndJSON() throws {
        let s = try Sandbox()
        try s.ok("lists", "add", "Work")
        try s.add("A", "list:Work")
        try s.add("B", "list:Work")
        try s.ok("done", "1", "2")
        let text = try s.tick("undo", "--list")
        #expect(text.status == 0)
        #expect(text.lines.count == 4)
        #expect(text.lines[0].hasPrefix("  1  2026-11-21 10:00  done: 2 tasks changed in Work: "))
        #expect(text.lines[3].hasSuffix("lists add: created list Work"))
        #expect(text.lines[1].contains("add: 1 task added to Work"))
        let limited = try s.tick("undo", "--list", "2")
        #expect(limited.lines.count == 2)
        // Listing changes nothing.
        #expect(try s.tasks("lists/work.json").allSatisfy { $0.string("state") == "done" })

        let json = try pending(s)
        #expect(json.count == 4)
        let first = json[0]
        #expect(first.string("command") == "done")
        #expect(first.int("n") == 1)
        #expect(first.string("at") == "2026-11-21T09:00:00Z")
        let files = try #require(first["files"] as? [[String: Any]])
        #expect(files.count == 1)
        #expect(files[0].string("file") == "lists/work.json")
        #expect(files[0].string("list") == "Work")
        #expect(files[0].int("changed") == 2)
        let tasks = try #require(first["tasks"] as? [[String: Any]])
        #expect(tasks.count == 2)
        // Done tasks have no short id; the added-and-open ones do.
        let addTasks = try #require(json[1]["tasks"] as? [[String: Any]])
        #expect(addTasks.first?.isNull("shortId") == true)
        try s.ok("reopen", try s.uuidPrefix("B"))
        let after = try pending(s)
        let reopened = try #require(after[0]["tasks"] as? [[String: Any]])
        #expect(reopened.first?.int("shortId") != nil)
    }

    @Test("a hand edit of the task since: refused with which task and what changed, exit 1; --force undoes it")
    func refusalAfterHandEdit() throws {
        let s = try Sandbox()
        try s.add("A")
        try s.add("B")
        try s.ok("done", "1")
        let uuid = try s.uuidPrefix("A")
        try s.write("inbox.json", try s.text("inbox.json").replacingOccurrences(of: "\"A\"", with: "\"A (edited)\""))
        let edited = try s.text("inbox.json")
        let r = try s.tick("undo")
        #expect(r.status == 1)
        #expect(r.stderr.contains("cannot undo `done`"))
        #expect(r.stderr.contains("task \(uuid) in Inbox (inbox.json): changed since (title)"), "\(r)")
        #expect(r.stderr.contains("--force"))
        #expect(!r.stderr.contains("A (edited)"))
        #expect(try s.text("inbox.json") == edited)
        // Still on the stack.
        #expect(try pending(s).first?.string("command") == "done")

        let forced = try s.tick("undo", "--force")
        #expect(forced.status == 0, "\(forced)")
        let a = try #require(try s.tasks("inbox.json").first)
        #expect(a.string("title") == "A")
        #expect(a.string("state") == "open")
        #expect(try pending(s).first?.string("command") == "add")
    }

    @Test("a git-pull-like change to another task in the same file is kept")
    func externalChangeToAnotherTask() throws {
        let s = try Sandbox()
        try s.add("A")
        try s.add("B")
        try s.ok("done", "1")
        // Another machine renamed B and added C; the file arrives whole, as git writes it.
        var file = try s.file("inbox.json")
        var pulledTasks = try #require(file["tasks"] as? [[String: Any]])
        pulledTasks[1]["title"] = "B from laptop"
        pulledTasks.append(["id": "0f0e0d0c-0b0a-4908-8706-050403020100", "title": "C from laptop", "state": "open",
                      "createdAt": "2026-11-21T08:00:00Z", "modifiedAt": "2026-11-21T08:00:00Z"])
        file["tasks"] = pulledTasks
        let data = try JSONSerialization.data(withJSONObject: file, options: [.prettyPrinted, .sortedKeys])
        try s.write("inbox.json", String(decoding: data, as: UTF8.self))
        #expect(try s.tasks("inbox.json").titles == ["A", "B from laptop", "C from laptop"])
        let r = try s.tick("undo")
        #expect(r.status == 0, "\(r)")
        let tasks = try s.tasks("inbox.json")
        #expect(tasks.titles == ["A", "B from laptop", "C from laptop"])
        #expect(tasks[0].string("state") == "open")
        #expect(tasks[0]["completedAt"] == nil)
    }

    @Test("a list deleted and created again is never overwritten, even with --force")
    func recreatedFile() throws {
        let s = try Sandbox()
        try s.ok("lists", "add", "Work")
        try s.add("A", "list:Work")
        try s.ok("lists", "rm", "Work", "--yes")
        try s.ok("lists", "add", "Work")
        try s.add("Z", "list:Work")
        // Undo the add of Z and the new list, then the rm: the path is free again.
        let blocked = try s.tick("undo", "3")
        #expect(blocked.status == 0, "\(blocked)")
        #expect(try s.json("list", "Work").titles == ["A"])

        // Now with a hand-made file in the way.
        try s.ok("lists", "rm", "Work", "--yes")
        try s.write("lists/work.json", "{\"name\": \"Work\", \"tasks\": [{\"title\": \"handmade\"}]}\n")
        let r = try s.tick("undo", "--force")
        #expect(r.status == 1)
        #expect(r.stderr.contains("lists/work.json): the file was deleted and created again"), "\(r)")
        #expect(try s.text("lists/work.json").contains("handmade"))
    }

    @Test("a corrupt journal line is skipped with a warning; the rest still undoes")
    func corruptJournalLine() throws {
        let s = try Sandbox()
        try s.add("A")
        try s.add("B")
        let path = journalPath(s)
        var text = try String(contentsOfFile: path, encoding: .utf8)
        text += "{\"v\":1,\"id\":\"trunc\n"
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        let r = try s.tick("undo")
        #expect(r.status == 0, "\(r)")
        #expect(r.stderr.contains("undo.jsonl:3: not a readable undo entry (skipped)"))
        #expect(try s.tasks("inbox.json").titles == ["A"])
    }

    @Test("concurrent adds each get their own entry; undo while another process adds loses nothing else")
    func concurrentWriters() throws {
        let s = try Sandbox()
        var running: [Sandbox.Running] = []
        for p in 1...4 {
            running.append(try s.start("/bin/sh", ["-c", "for i in $(seq 10); do \"$TICK\" add c-\(p)-$i >/dev/null || exit 1; done"]))
        }
        for r in running { #expect(try r.wait().status == 0) }
        #expect(try pending(s).count == 40)
        // Undo 20 while another process keeps adding: the other process's tasks survive.
        let adder = try s.start("/bin/sh", ["-c", "for i in $(seq 10); do \"$TICK\" add late-$i >/dev/null || exit 1; done"])
        let undo = try s.tick("undo", "20")
        #expect(undo.status == 0, "\(undo)")
        #expect(try adder.wait().status == 0)
        // Undo took the 20 newest entries at the moment it held the lock (some may
        // be late adds); everything else is there, each task once.
        let titles = try s.tasks("inbox.json").titles
        #expect(titles.count == 30)
        #expect(Set(titles).count == 30)
        #expect(titles.filter { $0.hasPrefix("c-") }.count >= 20)
        #expect(try pending(s).count == 30)
    }

    @Test("read commands write no journal entry; --help documents undo")
    func readCommandsAndHelp() throws {
        let s = try Sandbox()
        try s.add("A")
        for args in [["list"], ["today"], ["show", "1"], ["lists"], ["undo", "--list"]] { try s.tick(args) }
        #expect(try pending(s).count == 1)
        let help = try s.tick("undo", "--help")
        #expect(help.stdout.contains("EXAMPLES"))
        #expect(help.stdout.contains("--force"))
    }

    @Test("block add and block rm are undone byte for byte; a hand edit of blocks.json is refused unless --force")
    func commitments() throws {
        let s = try Sandbox()
        try s.ok("block", "add", "Standup", "09:00-09:15", "--days", "weekdays")
        let one = try s.text("blocks.json")
        try s.ok("block", "add", "Lunch", "12:00-13:00", "--days", "daily")
        #expect(try s.ok("undo", "--list").contains("block add: changed the commitments (blocks.json)"))
        #expect(try s.ok("undo").contains("Undid block add"))
        #expect(try s.text("blocks.json") == one)
        try s.ok("block", "rm", "1")
        #expect(!(try s.text("blocks.json")).contains("Standup"))
        try s.ok("undo")
        #expect(try s.text("blocks.json") == one)
        // Changed by hand since the first `block add`: refused, then forced.
        try s.write("blocks.json", one.replacingOccurrences(of: "Standup", with: "Daily standup"))
        let refused = try s.tick("undo")
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("commitments (blocks.json): changed since"), "\(refused.stderr)")
        #expect(try s.text("blocks.json").contains("Daily standup"), "nothing written on refusal")
        let forced = try s.tick("undo", "--force")
        #expect(forced.status == 0, "\(forced)")
        #expect(!s.exists("blocks.json"), "the first block add created the file; undo removes it")
    }
}
