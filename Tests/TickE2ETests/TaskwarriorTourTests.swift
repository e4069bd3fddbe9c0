import Foundation
import Testing

/// Issue 35's "done when": the README's "Coming from Taskwarrior" table,
/// typed with a Taskwarrior user's habits (`task` → `tick`, words in
/// Taskwarrior's order), on the built binary. Every command either works as
/// that user means it or is refused, in one line with exit 2 or 3, with the
/// form that works; nothing is silently taken for something else.
@Suite("the README's Taskwarrior table, typed as a Taskwarrior user would")
struct TaskwarriorTourTests {
    /// A refusal: one error line, the exit status, naming `form`, nothing written.
    func refused(_ s: Sandbox, _ args: [String], status: Int32 = 2, naming form: String,
                 sourceLocation: SourceLocation = #_sourceLocation) throws {
        let before = s.storeFiles().map { ($0, try? String(contentsOfFile: s.store + "/" + $0, encoding: .utf8)) }
        let r = try s.tick(args)
        #expect(r.status == status, "tick \(args.joined(separator: " ")): \(r)", sourceLocation: sourceLocation)
        #expect(r.stderr.split(separator: "\n").count == 1 && r.stderr.contains(form), "tick \(args.joined(separator: " ")): \(r)", sourceLocation: sourceLocation)
        let after = s.storeFiles().map { ($0, try? String(contentsOfFile: s.store + "/" + $0, encoding: .utf8)) }
        #expect(before.map(\.0) == after.map(\.0) && zip(before, after).allSatisfy { $0.1 == $1.1 }, "nothing written", sourceLocation: sourceLocation)
    }

    @Test("task add … project: priority: due:, FILTER list, ID done/modify/start/stop/annotate/delete, contexts, undo, next, projects, tags, log, until:")
    func theTableTypedAsTaskwarrior() throws {
        let s = try Sandbox()
        // project: names a list that does not exist yet: made on first use, as Taskwarrior does (issue 46).
        let milk = try s.add("Buy", "milk", "project:Home", "+errand", "due:fri")
        #expect(try s.showJSON(milk).string("list") == "Home" && s.showJSON(milk).string("title") == "Buy milk")
        let bank = try s.add("Call", "the", "bank", "priority:H")
        #expect(try s.showJSON(bank).string("priority") == "must")
        // Filters before the command, as Taskwarrior takes them.
        #expect(try s.json("+errand", "list").titles == ["Buy milk"])
        #expect(try s.json("project:Home", "list").titles == ["Buy milk"])
        // Ids before the command.
        try s.ok(bank, "start")
        #expect(try s.showJSON(bank).string("state") == "active")
        // stop and modify simply work (issue 46).
        try s.ok(bank, "stop")
        #expect(try s.showJSON(bank).string("state") == "open")
        try s.ok(bank, "modify", "due:mon")
        #expect(try s.showJSON(bank).string("due") == "2026-11-23")
        // annotate appends a dated line; a second one keeps the first.
        try s.ok(bank, "annotate", "ask", "for", "Sam", now: "2026-11-24T10:00:00Z")
        try s.ok("annotate", bank, "then", "call", "back", now: "2026-11-24T11:30:00Z")
        #expect(try s.showJSON(bank).string("notes") == "2026-11-24 11:00 ask for Sam\n2026-11-24 12:30 then call back")
        try refused(s, [bank, "info"], naming: "tick show")
        try s.ok(milk, "done")
        #expect(try s.showJSON(milk).string("state") == "done")
        // Contexts: what is added under one lands in it.
        try s.ok("context", "define", "work", "+work")
        try s.ok("context", "work")
        let report = try s.add("Report")
        #expect(try s.showJSON(report)["tags"] as? [String] == ["work"])
        #expect(try s.json("list").titles == ["Report"])
        try s.ok("context", "none")
        try s.ok("undo")
        #expect(try s.tick("show", report).status == 3, "undo removed the last add")
        // Commands tick names differently.
        try refused(s, ["next"], naming: "tick today")
        try refused(s, ["projects"], naming: "tick lists")
        try refused(s, ["tags"], naming: "tick list +TAG")
        try refused(s, ["log", "Old", "thing"], naming: "tick add TITLE, then tick done ID")
        try refused(s, ["summary"], naming: "tick stats")
        // Attributes tick has no field for: refused with the literal form.
        try refused(s, ["add", "Fix", "bug", "until:eom"], naming: "\\until:eom")
        try refused(s, ["add", "Fix", "bug", "status:pending"], naming: "tick done")
        // A filter first before a word that is no command: where the filter goes.
        try refused(s, ["+errand", "frob"], naming: "tick list +errand")
        // And the ones that simply work.
        let plants = try s.add("Water", "plants", "recur:weekly", "due:fri", "pri:L")
        #expect(try s.showJSON(plants).string("repeat") == "weekly" && s.showJSON(plants).string("priority") == "flexible")
        try s.ok(bank, "delete", "--yes")
        #expect(try s.tick("show", bank).status == 3)
    }
}
