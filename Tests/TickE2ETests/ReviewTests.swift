import Foundation
import Testing

/// `tick review`, driven through stdin: every answer, bad answers, end of
/// input, and the non-interactive --all-to and --list.
@Suite("tick review")
struct ReviewTests {
    /// Work: A (2 days overdue). Inbox: B (due today 17:00, remind 16:00), C (scheduled
    /// today, daily), D (due today), E (due next week, not under review).
    static func store() throws -> Sandbox {
        let s = try Sandbox()
        try s.ok("lists", "add", "Work")
        try s.add("A", "due:2026-11-19", "list:Work")
        try s.add("B", "due:today@17:00", "remind:today@16:00")
        try s.add("C", "sched:today", "repeat:daily")
        try s.add("D", "due:today")
        try s.add("E", "due:2026-11-28")
        return s
    }

    func task(_ s: Sandbox, _ title: String, in file: String = "inbox.json") throws -> [String: Any] {
        try #require(try s.tasks(file).first { $0.string("title") == title && $0.string("state") != "done" } ?? s.tasks(file).task(title))
    }

    @Test("on a terminal one key answers, without Enter; a date is typed as a line; Ctrl-C quits cleanly and the terminal echoes again")
    func oneKeyOnATerminal() throws {
        guard UITests.hasTmux else { Issue.record("tmux is not installed (scripts/ensure-deps.sh --test installs it)"); return }
        let s = try Self.store()
        let term = try UITerminal(s, command: ["review"], name: "review")
        defer { term.close() }
        try term.waitFor("[1/4]")
        try term.type("d")
        try term.waitFor("[2/4]")
        #expect(try s.tasks("lists/work.json").task("A")?.string("state") == "done", "d alone completed A")
        try term.type("x")
        try term.waitFor("Please answer d, t, p, i, s or q.")
        try term.type("t")
        try term.waitFor("[3/4]")
        #expect(try task(s, "B").string("due") == "2026-11-22T16:00:00Z")
        try term.type("p")
        try term.waitFor("Date (e.g.")
        try term.type("fri")
        try term.press("Enter")
        try term.waitFor("[4/4]")
        #expect(try task(s, "C").string("scheduled") == "2026-11-27")
        try term.press("C-c")
        let end = try term.waitFor("EXIT:0")
        #expect(end.contains("Reviewed 3 of 4: 1 done, 2 moved, 0 to inbox, 0 skipped (stopped: quit; 1 left as they are)."), "\(end)")
        #expect(try task(s, "D").string("due") == "2026-11-21", "D left as it was")
        // The terminal was given back as it was: a line typed now is echoed.
        try term.type("echo typed-back")
        try term.waitFor("echo typed-back")
    }

    @Test("every answer: done, tomorrow, pick a date (after a bad one), inbox; a bad answer asks again")
    func everyAnswer() throws {
        let s = try Self.store()
        let r = try s.tick("review", stdin: "x\nd\nt\np\nnonsense\nfri@9:00\ni\n")
        #expect(r.status == 0, "\(r)")
        #expect(r.lines.first == "Review: 4 tasks overdue, due or scheduled today. tick never moves a date by itself.")
        #expect(r.lines.filter { $0.hasPrefix("[") && $0.contains("/4] ") }.count == 4)
        #expect(r.stdout.contains("[1/4] ! 1 [ ] A  @Work  due Thu 19 Nov, 2d overdue\n"))
        #expect(r.stdout.contains("[q]uit? x\nPlease answer d, t, p, i, s or q.\n"))
        #expect(r.stdout.contains("Not a date: "))
        #expect(r.lines.last == "Reviewed 4 of 4: 1 done, 2 moved, 1 to inbox, 0 skipped.")
        // A done; B to tomorrow keeping 17:00 and its reminder's offset; C to Friday; D to the inbox without dates.
        #expect(try s.tasks("lists/work.json").task("A")?.string("state") == "done")
        let b = try task(s, "B")
        #expect(b.string("due") == "2026-11-22T16:00:00Z" && b.string("remind") == "2026-11-22T15:00:00Z")
        #expect(try task(s, "C").string("scheduled") == "2026-11-27")
        let d = try task(s, "D")
        #expect(d.string("due") == nil && d.string("scheduled") == nil && d.string("remind") == nil)
        #expect(try task(s, "E").string("due") == "2026-11-28")
        #expect(try s.tick("review", "--list").stdout == "Nothing to review: no open task is overdue, due or scheduled today.\n")
    }

    @Test("inbox moves a task out of its list into inbox.json, dates cleared; done on a recurring task makes the next one")
    func inboxAndRecurring() throws {
        let s = try Self.store()
        let r = try s.tick("review", stdin: "i\ns\nd\nq\n")
        #expect(r.status == 0, "\(r)")
        #expect(try s.tasks("lists/work.json").isEmpty)
        let a = try task(s, "A")
        #expect(a.string("due") == nil)
        #expect(r.stdout.contains("Sent 1 ("))
        #expect(r.stdout.contains("Skipped.\n"))
        // C (daily, scheduled today) is done and its next occurrence is scheduled tomorrow.
        let cs = try s.tasks("inbox.json").filter { $0.string("title") == "C" }
        #expect(cs.map { $0.string("state") } == ["done", "open"])
        #expect(cs.last?.string("scheduled") == "2026-11-22")
        #expect(r.stdout.contains("Next: "))
        #expect(r.lines.last == "Reviewed 3 of 4: 1 done, 0 moved, 1 to inbox, 1 skipped (stopped: quit; 1 left as they are).")
        #expect(try task(s, "D").string("due") == "2026-11-21")
    }

    @Test("end of input stops cleanly with a summary and changes nothing else")
    func endOfInput() throws {
        let s = try Self.store()
        let before = try s.text("inbox.json")
        let r = try s.tick("review", stdin: "s\n")
        #expect(r.status == 0, "\(r)")
        #expect(r.lines.last == "Reviewed 1 of 4: 0 done, 0 moved, 0 to inbox, 1 skipped (stopped: end of input; 3 left as they are).")
        #expect(try s.text("inbox.json") == before)
        let empty = try s.tick("review")
        #expect(empty.status == 0)
        #expect(empty.lines.last == "Reviewed 0 of 4: 0 done, 0 moved, 0 to inbox, 0 skipped (stopped: end of input; 4 left as they are).")
        // An empty answer to "pick a date" goes back to the question.
        let back = try s.tick("review", stdin: "p\n\ns\n")
        #expect(back.stdout.contains("empty to go back): \n[d]one"), "\(back.stdout)")
    }

    @Test("--all-to moves every task at once; --list shows them (text and JSON) without changing anything")
    func nonInteractive() throws {
        let s = try Self.store()
        let list = try s.tick("review", "--list")
        #expect(list.status == 0)
        #expect(list.lines.count == 4)
        #expect(list.lines.first?.contains("A  @Work  due Thu 19 Nov, 2d overdue") == true)
        let json = try s.json("review", "--list")
        #expect(json.compactMap { $0["title"] as? String } == ["A", "B", "C", "D"])
        let r = try s.tick("review", "--all-to", "mon")
        #expect(r.status == 0, "\(r)")
        #expect(r.lines.last == "Moved 4 tasks to Mon 23 Nov.")
        #expect(try task(s, "A", in: "lists/work.json").string("due") == "2026-11-23")
        #expect(try task(s, "B").string("due") == "2026-11-23T16:00:00Z")
        #expect(try task(s, "C").string("scheduled") == "2026-11-23")
        #expect(try task(s, "E").string("due") == "2026-11-28")
        let bad = try s.tick("review", "--all-to", "someday")
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("--all-to"))
        #expect(try s.tick("review", "--json").status == 2)
        let help = try s.tick("review", "--help")
        #expect(help.stdout.contains("tick never moves a date by itself"))
    }

    @Test("a task's slot moves with its day: review --all-to and the reminder's Tomorrow keep its time and length")
    func slotMovesWithTheDay() throws {
        let s = try Sandbox()
        try s.add("Placed", "sched:today", "at:10:00", "for:45m")
        #expect(try s.tasks("inbox.json").task("Placed")?["slot"] as? [String: Any] != nil)
        let r = try s.tick("review", "--all-to", "mon")
        #expect(r.status == 0, "\(r)")
        let placed = try #require(try s.tasks("inbox.json").task("Placed"))
        #expect(placed.string("scheduled") == "2026-11-23")
        let slot = try #require(placed["slot"] as? [String: Any], "the slot was dropped")
        #expect(slot.string("start") == "2026-11-23T10:00", "the slot stayed on the old day: \(slot)")
        #expect(slot.int("minutes") == 45)
    }
}
