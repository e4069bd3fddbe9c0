import Foundation
import Testing

/// Changing tasks: edit (flags, tokens, $EDITOR), start, done, reopen, rm, mv, reorder.
@Suite("editing tasks")
struct EditTests {
    static let later = "2026-11-22T08:00:00Z"
    static let evenLater = "2026-11-23T12:30:00Z"

    // MARK: tick edit with flags and tokens

    @Test("edit flags change exactly those fields and bump modifiedAt")
    func editFlags() throws {
        let s = try Sandbox()
        try s.add("A", "due:today", "remind:tomorrow", "sched:mon", "+x", "pri:must", "energy:low")
        let r = try s.tick("edit", "1", "--no-due", "--no-remind", "--no-sched", "--untag", "x", "--tag", "y",
                           "--pri", "flexible", "--energy", "any", "--note", "hi", "--title", "B", now: Self.later)
        #expect(r.status == 0)
        #expect(r.stderr == "")
        let t = try #require(try s.tasks("inbox.json").first)
        #expect(Set(t.keys) == ["id", "title", "state", "priority", "energy", "tags", "notes", "createdAt", "modifiedAt", "changed"])
        // Each changed field (and tag) records when it changed, for merges without a base.
        #expect(Set((t["changed"] as? [String: Any] ?? [:]).keys) == ["title", "due", "remind", "scheduled", "priority", "energy", "notes", "+x", "+y"])
        #expect(t.string("title") == "B")
        #expect(t.string("priority") == "flexible")
        #expect(t.string("energy") == "any")
        #expect(t.tagList == ["y"])
        #expect(t.string("notes") == "hi")
        #expect(t.string("createdAt") == pinnedNow)
        #expect(t.string("modifiedAt") == Self.later)

        try s.ok("edit", "1", "--due", "fri@17:00", "--remind", "5pm", "--sched", "2026-11-30", now: Self.evenLater)
        let t2 = try #require(try s.tasks("inbox.json").first)
        // "now" is Mon 2026-11-23 13:30 Berlin for that run.
        #expect(t2.string("due") == "2026-11-27T16:00:00Z")
        #expect(t2.string("remind") == "2026-11-23T16:00:00Z")
        #expect(t2.string("scheduled") == "2026-11-30")
        #expect(t2.string("modifiedAt") == Self.evenLater)
    }

    @Test("edit tokens: --title renames, key: clears a field, +tag adds")
    func editTokens() throws {
        let s = try Sandbox()
        try s.add("Old", "title", "due:today", "pri:must", "energy:low", "repeat:daily", "+keep")
        try s.ok("edit", "1", "--title", "New title", "due:", "pri:", "energy:", "repeat:", "+more", "sched:tue", now: Self.later)
        let t = try #require(try s.tasks("inbox.json").first)
        #expect(t.string("title") == "New title")
        #expect(t["due"] == nil && t["priority"] == nil && t["energy"] == nil && t["repeat"] == nil)
        #expect(t.tagList == ["keep", "more"])
        #expect(t.string("scheduled") == "2026-11-24")
        #expect(t.string("modifiedAt") == Self.later)
    }

    @Test("edit ID +work -home removes a tag (the `tick edit --help` example)")
    func untagToken() throws {
        let s = try Sandbox()
        try s.add("A", "+home")
        let r = try s.tick("edit", "1", "due:fri@17:00", "+work", "-home", now: Self.later)
        #expect(r.status == 0)
        #expect(r.stderr == "")
        let t = try #require(try s.tasks("inbox.json").first)
        #expect(t.tagList == ["work"])
        #expect(t.string("due") == "2026-11-27T16:00:00Z")
    }

    @Test("after -- every word is title text in edit too")
    func editDoubleDash() throws {
        let s = try Sandbox()
        try s.add("A", "due:today", "+home")
        try s.ok("edit", "1", "--", "due:", "is", "+literal", now: Self.later)
        let t = try #require(try s.tasks("inbox.json").first)
        #expect(t.string("title") == "due: is +literal")
        #expect(t.string("due") == "2026-11-21")
        #expect(t.tagList == ["home"])
    }

    @Test("an edit that changes nothing writes nothing")
    func editNoChange() throws {
        let s = try Sandbox()
        try s.add("Same", "pri:must")
        try setMtime(s.path("inbox.json"), 1_000_000_000)
        let before = try s.fingerprint()
        let prefix = try s.uuidPrefix("Same")
        let r = try s.tick("edit", "1", "--title", "Same", "pri:must", now: Self.later)
        #expect(r.status == 0)
        #expect(r.stdout == "1 (\(prefix)) unchanged: Same\n")
        #expect(try s.fingerprint() == before)
    }

    @Test("edit refuses bad input", arguments: [
        (["edit", "1", "--title", "  "], Int32(2), "tick: error: a task needs a title; e.g. tick add Buy milk due:tomorrow +errand\n"),
        (["edit", "1", "due:blah"], Int32(2), "tick: error: due: unrecognized date word \"blah\" in \"blah\"; try today, tomorrow, fri, next mon, dec 24, 15th, in 3d, in 2h, 2026-11-24, 17:00, fri@9am (all forms: tick add --help)\n"),
        (["edit", "1", "pri:urgent"], Int32(2), "tick: error: pri: \"urgent\" is not one of must, flexible\n"),
        (["edit", "1", "sched:9am"], Int32(2), "tick: error: sched: a time is not allowed here (\"9am\"); give a day only, e.g. tomorrow, fri, 2026-11-24\n"),
        (["edit", "7", "due:today"], Int32(3), "tick: error: no task with id \"7\"; use a short id from a listing (e.g. `tick list`) or a prefix of the task's UUID (8 hex digits, or 4 with a digit and a letter)\n"),
    ])
    func editBadInput(args: [String], status: Int32, stderr: String) throws {
        let s = try Sandbox()
        try s.add("A")
        let before = try s.fingerprint()
        let r = try s.tick(args, now: Self.later)
        #expect(r.status == status)
        #expect(r.stderr == stderr)
        #expect(try s.fingerprint() == before)
    }

    // MARK: tick edit with $EDITOR

    @Test("edit with no flags runs $EDITOR on the task's JSON and saves the result")
    func editorSaves() throws {
        let s = try Sandbox()
        try s.write("lists/work.json", """
        {"name": "Work", "x-owner": "sam", "tasks": [
          {"id": "0b0b0b0b-1111-4222-8333-444455556666", "title": "Draft", "state": "open",
           "createdAt": "2026-11-01T10:00:00Z", "modifiedAt": "2026-11-02T10:00:00Z", "x-estimate": 3}
        ]}
        """)
        let editor = try s.script("editor.sh", #"sed -i 's/"title": "Draft"/"title": "Final draft"/' "$1""#)
        let r = try s.tick("edit", "0b0b0b0b", now: Self.later, env: ["EDITOR": editor])
        #expect(r.status == 0)
        #expect(r.stderr == "")
        let file = try s.file("lists/work.json")
        #expect(file.string("x-owner") == "sam")
        let t = try #require(try s.tasks("lists/work.json").first)
        #expect(t.string("title") == "Final draft")
        #expect(t.int("x-estimate") == 3)
        #expect(t.string("createdAt") == "2026-11-01T10:00:00Z")
        #expect(t.string("modifiedAt") == Self.later)
        #expect(try FileManager.default.contentsOfDirectory(atPath: try EditorE2ETests.editsDirectory(s)) == [], "the scratch file is removed after a successful edit")
    }

    @Test("setting state done in $EDITOR adds completedAt")
    func editorCompletes() throws {
        let s = try Sandbox()
        try s.add("A")
        let editor = try s.script("editor.sh", #"sed -i 's/"state": "open"/"state": "done"/' "$1""#)
        try s.ok("edit", "1", now: Self.later, env: ["EDITOR": editor])
        let t = try #require(try s.tasks("inbox.json").first)
        #expect(t.string("state") == "done")
        #expect(t.string("completedAt") == Self.later)
        #expect(t.string("modifiedAt") == Self.later)
    }

    @Test("an editor that changes nothing: No changes., nothing written")
    func editorNoChange() throws {
        let s = try Sandbox()
        try s.add("A")
        let before = try s.fingerprint()
        let r = try s.tick("edit", "1", now: Self.later, env: ["EDITOR": "true"])
        #expect(r.status == 0)
        #expect(r.stdout == "No changes.\n")
        #expect(try s.fingerprint() == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: try EditorE2ETests.editsDirectory(s)) == [])
    }

    @Test("invalid JSON from $EDITOR: exit 4 with line:column, store unchanged, scratch file kept under the state directory and named")
    func editorInvalidJSON() throws {
        let s = try Sandbox()
        try s.add("A", "due:today")
        let before = try s.fingerprint()
        // Drop the comma after "state": the next key is then unexpected (line 4 of the task JSON).
        let editor = try s.script("editor.sh", #"sed -i 's/"state": "open",/"state": "open"/' "$1""#)
        let r = try s.tick("edit", "1", now: Self.later, env: ["EDITOR": editor])
        #expect(r.status == 4)
        #expect(try s.fingerprint() == before)
        let edits = try EditorE2ETests.editsDirectory(s)
        let kept = try FileManager.default.contentsOfDirectory(atPath: edits)
        #expect(kept.count == 1)
        let keptPath = edits + "/" + (kept.first ?? "?")
        #expect(kept.first?.hasPrefix("tick-edit-") == true)
        // Line 5 of the task JSON, after the buffer's four `//` header lines.
        #expect(r.stderr.contains("\(keptPath):9:3: error: expected ',' or '}' after the value of \"state\""))
        #expect(r.stderr.hasSuffix("tick: error: nothing was saved; your text is kept in \(keptPath)\n"))
        // The kept file has the user's (broken) text.
        let keptText = String(decoding: FileManager.default.contents(atPath: keptPath) ?? Data(), as: UTF8.self)
        #expect(keptText.contains("\"state\": \"open\"\n"))
    }

    @Test("changing the id in $EDITOR is refused")
    func editorChangesID() throws {
        let s = try Sandbox()
        try s.add("A")
        let before = try s.fingerprint()
        let editor = try s.script("editor.sh", #"sed -i 's/"id": "[0-9a-f]*-/"id": "00000000-/' "$1""#)
        let r = try s.tick("edit", "1", now: Self.later, env: ["EDITOR": editor])
        #expect(r.status == 4)
        #expect(r.stderr.contains("error: the id cannot be changed"))
        #expect(try s.fingerprint() == before)
    }

    @Test("a failing editor saves nothing (exit 1)")
    func editorFails() throws {
        let s = try Sandbox()
        try s.add("A")
        let before = try s.fingerprint()
        let r = try s.tick("edit", "1", now: Self.later, env: ["EDITOR": "false"])
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("tick: error: the editor \"false\" exited with status 1; nothing was saved (your text is in \(try EditorE2ETests.editsDirectory(s))/tick-edit-"))
        #expect(try s.fingerprint() == before)
    }

    @Test("a task changed on disk while in $EDITOR is not overwritten")
    func editorConflict() throws {
        let s = try Sandbox()
        try s.add("A")
        let editor = try s.script("editor.sh", #"""
        sed -i 's/"title": "A"/"title": "Changed elsewhere"/' "$TICK_STORE/inbox.json"
        sed -i 's/"title": "A"/"title": "Mine"/' "$1"
        """#)
        let r = try s.tick("edit", "1", now: Self.later, env: ["EDITOR": editor])
        #expect(r.status == 1)
        #expect(r.stderr.contains("the task changed on disk while you were editing; nothing was saved"))
        #expect(try s.tasks("inbox.json").first?.string("title") == "Changed elsewhere")
    }

    @Test("after an edit conflict the user's text is either removed or its kept path is named")
    func editorConflictNamesKeptFile() throws {
        let s = try Sandbox()
        try s.add("A")
        let editor = try s.script("editor.sh", #"""
        sed -i 's/"title": "A"/"title": "Changed elsewhere"/' "$TICK_STORE/inbox.json"
        sed -i 's/"title": "A"/"title": "Mine"/' "$1"
        """#)
        let r = try s.tick("edit", "1", now: Self.later, env: ["EDITOR": editor])
        #expect(r.status == 1)
        let edits = try EditorE2ETests.editsDirectory(s)
        let kept = try FileManager.default.contentsOfDirectory(atPath: edits)
        #expect(kept.count == 1)
        for name in kept {
            #expect(r.stderr.contains(edits + "/" + name))
        }
    }

    // MARK: State changes

    @Test("start, done, reopen set state, completedAt and modifiedAt")
    func stateChanges() throws {
        let s = try Sandbox()
        try s.add("A")
        try s.add("B")
        let idA = try #require(try s.tasks("inbox.json").task("A")?.string("id"))
        let (pA, pB) = (String(idA.prefix(8)), try s.uuidPrefix("B"))

        #expect(try s.ok("start", "1", now: "2026-11-21T10:00:00Z") == "Started 1 (\(pA)): A\n")
        var a = try #require(try s.tasks("inbox.json").task("A"))
        #expect(a.string("state") == "active")
        #expect(a["completedAt"] == nil)
        #expect(a.string("modifiedAt") == "2026-11-21T10:00:00Z")

        #expect(try s.ok("done", "1", "2", now: "2026-11-21T11:00:00Z") == "Completed 1 (\(pA)): A\nCompleted 2 (\(pB)): B\n")
        a = try #require(try s.tasks("inbox.json").task("A"))
        #expect(a.string("state") == "done")
        #expect(a.string("completedAt") == "2026-11-21T11:00:00Z")
        #expect(a.string("modifiedAt") == "2026-11-21T11:00:00Z")
        #expect(a.string("createdAt") == pinnedNow)

        // Done again: nothing changes, nothing is written.
        let before = try s.fingerprint()
        let again = try s.tick("done", String(idA.prefix(8)), now: "2026-11-21T12:00:00Z")
        #expect(again.status == 0)
        #expect(again.stdout == "\(pA) was already done: A\n")
        #expect(try s.fingerprint() == before)

        // A reopened task gets a short id again (the smallest free one).
        #expect(try s.ok("reopen", String(idA.prefix(8)), now: "2026-11-21T13:00:00Z") == "Reopened 1 (\(pA)): A\n")
        a = try #require(try s.tasks("inbox.json").task("A"))
        #expect(a.string("state") == "open")
        #expect(a["completedAt"] == nil)
        #expect(a.string("modifiedAt") == "2026-11-21T13:00:00Z")
        #expect(try s.json("list").titles == ["A"])
    }

    @Test("rm deletes tasks; delete is an alias")
    func remove() throws {
        let s = try Sandbox()
        for t in ["A", "B", "C"] { try s.add(t) }
        let (pA, pC) = (try s.uuidPrefix("A"), try s.uuidPrefix("C"))
        #expect(try s.ok("rm", "1", "3") == "Deleted 1 (\(pA)): A\nDeleted 3 (\(pC)): C\n")
        #expect(try s.tasks("inbox.json").titles == ["B"])
        try s.ok("delete", "2")
        #expect(try s.tasks("inbox.json").isEmpty)
        let r = try s.tick("rm", "2")
        #expect(r.status == 3)
        #expect(r.stderr.hasPrefix("tick: error: no task with id \"2\""))
    }

    @Test("mv moves the task object (same id, unknown keys) to the end of another list or the inbox")
    func move() throws {
        let s = try Sandbox()
        try s.ok("lists", "add", "Work")
        try s.write("inbox.json", """
        {"tasks": [{"id": "12345678-aaaa-4bbb-8ccc-000000000001", "title": "Mover", "x-estimate": 2,
                    "createdAt": "2026-11-01T10:00:00Z", "modifiedAt": "2026-11-01T10:00:00Z"},
                   {"title": "Stayer"}]}
        """)
        try s.add("Existing", "list:Work")
        let out = try s.ok("mv", "12345678", "Work", now: Self.later)
        #expect(out == "Moved 1 (12345678) to Work: Mover\n")
        #expect(try s.tasks("inbox.json").titles == ["Stayer"])
        let work = try s.tasks("lists/work.json")
        #expect(work.titles == ["Existing", "Mover"])
        let moved = try #require(work.task("Mover"))
        #expect(moved.string("id") == "12345678-aaaa-4bbb-8ccc-000000000001")
        #expect(moved.int("x-estimate") == 2)
        #expect(moved.string("createdAt") == "2026-11-01T10:00:00Z")
        #expect(moved.string("modifiedAt") == Self.later)

        try s.ok("mv", "12345678", "inbox")
        #expect(try s.tasks("inbox.json").titles == ["Stayer", "Mover"])
        #expect(try s.tasks("lists/work.json").titles == ["Existing"])

        let same = try s.tick("mv", "12345678", "inbox")
        #expect(same.status == 0)
        #expect(same.stdout == "1 (12345678) is already in Inbox: Mover\n")

        let nope = try s.tick("mv", "12345678", "Wrk")
        #expect(nope.status == 3)
        #expect(nope.stderr == "tick: error: no list named \"Wrk\" (did you mean \"Work\"?); a new list of that name is made with `tick lists add Wrk`\n")
    }

    @Test("reorder moves the task within the tasks array")
    func reorder() throws {
        let s = try Sandbox()
        for t in ["A", "B", "C", "D", "E"] { try s.add(t) }
        try s.ok("reorder", "5", "--top", now: Self.later)
        #expect(try s.tasks("inbox.json").titles == ["E", "A", "B", "C", "D"])
        // A reorder is not an edit: modifiedAt stays; the move has its own change time.
        #expect(try s.tasks("inbox.json").task("E")?.string("modifiedAt") == pinnedNow)
        #expect((try s.tasks("inbox.json").task("E")?["changed"] as? [String: Any])?["order"] as? String == Self.later)
        #expect(try s.tasks("inbox.json").task("A")?.string("modifiedAt") == pinnedNow)
        try s.ok("reorder", "1", "--bottom")
        #expect(try s.tasks("inbox.json").titles == ["E", "B", "C", "D", "A"])
        try s.ok("reorder", "4", "--before", "2")
        #expect(try s.tasks("inbox.json").titles == ["E", "D", "B", "C", "A"])
        try s.ok("reorder", "5", "--after", "3")
        #expect(try s.tasks("inbox.json").titles == ["D", "B", "C", "E", "A"])
        // The listing follows the file's order.
        #expect(try s.json("list").titles == ["D", "B", "C", "E", "A"])

        let already = try s.tick("reorder", "4", "--top")
        #expect(already.stdout == "4 (\(try s.uuidPrefix("D"))) is already there: D\n")

        let none = try s.tick("reorder", "4")
        #expect(none.status == 2)
        #expect(none.stderr.contains("give exactly one of --top, --bottom, --before ID, --after ID"))
    }

    @Test("reorder across lists is refused")
    func reorderAcrossLists() throws {
        let s = try Sandbox()
        try s.ok("lists", "add", "Work")
        try s.add("A")
        try s.add("B", "list:Work")
        let before = try s.fingerprint()
        let r = try s.tick("reorder", "1", "--before", "2")
        #expect(r.status == 2)
        #expect(r.stderr == "tick: error: 2 is in Work, not in Inbox; reorder works within one list (use `tick mv` to change lists)\n")
        #expect(try s.fingerprint() == before)
    }
}
