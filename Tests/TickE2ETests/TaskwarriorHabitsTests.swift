import Foundation
import Testing

/// The habits Taskwarrior users bring (issue 35), on the built binary:
/// Taskwarrior's field words in add and edit, the keys tick does not take
/// refused with the literal form, `tick ID VERB`, Taskwarrior's commands
/// answered with tick's, and `tick list WORD` for a word that names no list.
/// (`list:<Tab>` in bash: CompletionTests.)
@Suite struct TaskwarriorHabitsTests {
    @Test("add and edit take project:, recur:, pri:H/M/L, priority:, and Taskwarrior's recur values")
    func taskwarriorFieldWords() throws {
        let s = try Sandbox()
        try s.ok("lists", "add", "Work")
        let id = try s.add("Fix", "bug", "project:Work", "recur:weekly", "due:2026-12-01", "pri:H")
        let task = try s.showJSON(id)
        #expect(task.string("title") == "Fix bug")
        #expect(task.string("list") == "Work")
        #expect(task.string("repeat") == "weekly")
        #expect(task.string("priority") == "must")
        let low = try s.add("Water", "plants", "priority:low", "recur:biweekly", "due:2026-12-01")
        #expect(try s.showJSON(low).string("priority") == "flexible")
        #expect(try s.showJSON(low).string("repeat") == "every 2w")
        try s.ok("edit", low, "pri:high")
        #expect(try s.showJSON(low).string("priority") == "must")
        // project: is list: in edit too: a move, as Taskwarrior's modify project: (issue 46).
        let move = try s.tick("edit", low, "project:Work")
        #expect(move.status == 0 && move.stdout.contains("Moved \(low)") && move.stdout.contains("to Work"), "\(move)")
        try s.ok("mv", low, "inbox")
        try s.ok("edit", low, "pri:L")
        #expect(try s.showJSON(low).string("priority") == "flexible")
        // The flag reads the same values.
        try s.ok("edit", low, "--pri", "H")
        #expect(try s.showJSON(low).string("priority") == "must")
        // The same words in a filter (one table).
        #expect(try s.json("list", "pri:H", "project:Work").titles == ["Fix bug"])
        // todo.txt's priority first, as todo.sh add takes it (one quoted word or several); past dates stay dates.
        let a = try s.add("(A) Call mum due:2d ago")
        #expect(try s.showJSON(a).string("title") == "Call mum")
        #expect(try s.showJSON(a).string("priority") == "must")
        #expect(try s.showJSON(a).string("due") == "2026-11-19")
        let b = try s.add("(B)", "Tidy", "desk")
        #expect(try s.showJSON(b).string("title") == "Tidy desk" && s.showJSON(b).string("priority") == "flexible")
    }

    @Test("until:, status:, t: and other keys tick does not take are refused with the literal form; nothing is written")
    func foreignKeysAreRefused() throws {
        let s = try Sandbox()
        let keep = try s.add("Keep")
        let before = try s.fingerprint()
        let until = try s.tick("add", "Fix", "bug", "until:eom")
        #expect(until.status == 2)
        #expect(until.stdout.isEmpty)
        #expect(until.stderr == "tick: error: until: is not a field tick sets here: tick has no expiry date (Taskwarrior's until:); use due: for a deadline; if \"until:eom\" is title text, put it after `--` or write \\until:eom\n")
        for word in ["status:done", "entry:2026-01-01", "start:9am", "t:2026-12-01", "rec:1w", "depends.any:x"] {
            let r = try s.tick("add", "Something", word)
            #expect(r.status == 2, "\(word): \(r)")
            #expect(r.stderr.hasPrefix("tick: error: ") && r.stderr.contains("write \\\(word)"), "\(word): \(r)")
        }
        let edit = try s.tick("edit", keep, "status:done")
        #expect(edit.status == 2)
        #expect(edit.stderr.contains("status: is not a field tick sets here: set the state with tick done"))
        #expect(try s.fingerprint() == before)
        // The literal forms the error names keep the word as title text.
        let literal = try s.add("Read", "\\until:eom")
        #expect(try s.showJSON(literal).string("title") == "Read until:eom")
        let dashes = try s.add("Read", "--", "status:done")
        #expect(try s.showJSON(dashes).string("title") == "Read status:done")
        // Prose that only looks like a key stays text.
        let prose = try s.add("Status:", "call", "Anna")
        #expect(try s.showJSON(prose).string("title") == "Status: call Anna")
    }

    @Test("tick ID VERB is tick VERB ID: done, edit, show, start, reopen, rm/delete, ranges; a plain word first is a filter")
    func idBeforeTheCommand() throws {
        let s = try Sandbox()
        let a = try s.add("Alpha")
        let b = try s.add("Beta")
        let c = try s.add("Gamma")
        let shown = try s.tick(a)
        #expect(shown.status == 0 && shown.stdout.hasPrefix("Alpha\n"), "\(shown)")
        #expect(try s.ok(a, "show").hasPrefix("Alpha\n"))
        try s.ok(a, "edit", "due:2026-12-01")
        #expect(try s.showJSON(a).string("due") == "2026-12-01")
        try s.ok(a, "start")
        #expect(try s.showJSON(a).string("state") == "active")
        try s.ok(a, "done")
        #expect(try s.showJSON(a).string("state") == "done")
        try s.ok(a, "reopen")
        #expect(try s.showJSON(a).string("state") == "open")
        try s.ok("\(b)-\(c)", "done")
        #expect(try s.showJSON(b).string("state") == "done" && s.showJSON(c).string("state") == "done")
        try s.ok(a, "delete", "--yes")
        #expect(try s.tick("show", a).status == 3)
        // Taskwarrior's modify is tick edit (issue 46); b is done, and its short id is refused.
        let modify = try s.tick(b, "modify", "due:fri")
        #expect(modify.status == 1 && modify.stderr.contains("is done"), "\(modify)")
        // A plain word before a command is a filter, as in Taskwarrior (issue 46): Beta is done already.
        let word = try s.tick("Beta", "done")
        #expect(word.status == 3)
        #expect(word.stderr.hasPrefix("tick: error: no pending task matches Beta"))
        let unknownVerb = try s.tick(b, "frobnicate")
        #expect(unknownVerb.status == 2)
        #expect(unknownVerb.stderr.contains("a task id goes after the command"))
    }

    @Test("Taskwarrior's commands are one error line naming tick's, exit 2")
    func taskwarriorCommands() throws {
        let s = try Sandbox()
        let expected: [String: String] = [
            "calendar": "tick upcoming", "info": "tick show ID", "next": "tick today", "burndown": "tick stats",
            "completion": "tick --generate-completion-script", "history": "tick stats", "timesheet": "tick stats",
            "denotate": "tick edit ID", "tags": "tick list +TAG", "projects": "tick lists", "log": "tick add TITLE, then tick done ID",
        ]
        for (verb, form) in expected {
            let r = try s.tick(verb, "1")
            #expect(r.status == 2, "\(verb): \(r)")
            #expect(r.stdout.isEmpty)
            let lines = r.stderr.split(separator: "\n")
            #expect(lines.count == 1, "\(verb): \(r)")
            #expect(r.stderr.hasPrefix("tick: error: unknown command \"\(verb)\" (Taskwarrior's); in tick: \(form)"), "\(verb): \(r)")
        }
        // A report named like a Taskwarrior command still wins (as CLI.md's table says of `task next`).
        try s.add("Ship it", "+work")
        try FileManager.default.createDirectory(atPath: s.home + "/.config/tick", withIntermediateDirectories: true)
        try "[reports.next]\nfilter = \"+work\"\n".write(toFile: s.home + "/.config/tick/config.toml", atomically: true, encoding: .utf8)
        let next = try s.tick("next")
        #expect(next.status == 0, "\(next)")
        #expect(next.stdout.contains("Ship it"))
    }

    @Test("tick list WORD: a list name lists it; another word matches the text with a note on stderr; no match at all is exit 3")
    func listWord() throws {
        let s = try Sandbox()
        try s.ok("lists", "add", "Books")
        try s.add("Read Dune", "list:Books")
        try s.add("Buy Dune poster")
        try s.add("Water plants")
        #expect(try s.json("list", "Books").titles == ["Read Dune"])
        let dune = try s.tick("list", "Dune")
        #expect(dune.status == 0, "\(dune)")
        #expect(dune.stderr == "tick: warning: no list named \"Dune\"; showing tasks whose text matches \"Dune\" (tick lists shows the lists)\n")
        #expect(dune.stdout.contains("Read Dune") && dune.stdout.contains("Buy Dune poster") && !dune.stdout.contains("Water"))
        let none = try s.tick("list", "Zeppelin")
        #expect(none.status == 3)
        #expect(none.stderr == "tick: error: no list named \"Zeppelin\"; known lists: Books\n")
    }
}
