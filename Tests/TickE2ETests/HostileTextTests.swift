import Foundation
import Testing

/// Hostile text: terminal escapes and control characters in titles, notes and
/// list names never reach the terminal raw; command-line input refuses them;
/// list names are matched exactly, never by slug.
@Suite("hostile text")
struct HostileTextTests {
    /// Clear screen, clipboard write (OSC 52), window title (OSC 0), C1 CSI/OSC/ST, DEL, backspace, CR.
    static let payload = "\u{1b}[2J\u{1b}]52;c;cHduZWQ=\u{07}\u{1b}]0;pwned\u{07}\u{9b}31m\u{9d}0;x\u{9c}\u{7f}\u{08}\r"
    static let title = "Pay \(payload) rent\nDeleted list Work"
    static let listName = "Evil\u{1b}]0;title\u{07}\u{9b}2J"

    /// A string as a JSON string literal (quotes included).
    static func json(_ s: String) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: s, options: [.fragmentsAllowed]), as: UTF8.self)
    }

    /// Records an issue for every raw control character (tab and newline aside) in the output.
    static func expectVisible(_ r: RunResult, _ label: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for (stream, text) in [("stdout", r.stdout), ("stderr", r.stderr)] {
            let raw = text.unicodeScalars.filter { s in
                (s.value < 0x20 && s != "\n" && s != "\t") || (0x7F...0x9F).contains(s.value)
            }
            #expect(raw.isEmpty, "\(label): raw control characters \(raw.map { String($0.value, radix: 16) }) in \(stream):\n\(r)",
                    sourceLocation: sourceLocation)
        }
    }

    /// A store a human edited: a list with a hostile name holding a task with a hostile title and notes.
    static func hostileStore() throws -> Sandbox {
        let s = try Sandbox()
        try s.write("lists/evil.json", """
            {"name": \(try json(listName)), "tasks": [
              {"title": \(try json(title)), "notes": \(try json("first line\n\tindented \(payload)\nlast line"))}
            ]}
            """)
        return s
    }

    @Test("list, show, done and lists render control characters visibly; --json stays exact")
    func storeTextIsVisible() throws {
        let s = try Self.hostileStore()
        let list = try s.tick("list", "--all")
        #expect(list.status == 0, "\(list)")
        Self.expectVisible(list, "list")
        #expect(list.stdout.contains("^[[2J"), "\(list)")
        #expect(!list.lines.contains { $0.hasPrefix("Deleted list") }, "\(list)")

        let lists = try s.tick("lists")
        #expect(lists.status == 0, "\(lists)")
        Self.expectVisible(lists, "lists")

        let items = try s.json("list", "--all")
        #expect(items.first?.string("title") == Self.title)
        #expect(items.first?.string("list") == Self.listName)
        let id = try #require(items.first?.string("id")).prefix(8)

        let show = try s.tick("show", String(id))
        #expect(show.status == 0, "\(show)")
        Self.expectVisible(show, "show")
        // Notes keep their lines (and tabs); other controls are made visible.
        #expect(show.lines.contains("  first line"), "\(show)")
        #expect(show.lines.contains("  last line"), "\(show)")
        #expect(!show.lines.contains { $0.hasPrefix("Deleted list") }, "\(show)")

        let done = try s.tick("done", String(id))
        #expect(done.status == 0, "\(done)")
        Self.expectVisible(done, "done")
        #expect(done.lines.count == 1, "a newline in a title must not forge a line: \(done)")
    }

    @Test("error messages that quote a list name show its control characters visibly")
    func errorsAreVisible() throws {
        let s = try Self.hostileStore()
        // The unknown name is quoted, and the known (hostile) list names are listed.
        let r = try s.tick("list", "Nope\u{1b}]52;c;cHduZWQ=\u{07}\u{1b}[2J")
        #expect(r.status == 3, "\(r)")
        #expect(r.stderr.contains("no list named"), "\(r)")
        Self.expectVisible(r, "list NAME")
        let rm = try s.tick("lists", "rm", "x\u{9b}2J\u{1b}[2J", "--yes")
        #expect(rm.status == 3, "\(rm)")
        Self.expectVisible(rm, "lists rm NAME")
    }

    @Test("import --dry-run never shows raw control characters from CSV, iCalendar, todo.txt or Taskwarrior files", arguments: [
        ("tasks.csv", "title,list,notes\n\(HostileTextTests.csvQuoted(title)),\(HostileTextTests.csvQuoted(listName)),n\n"),
        ("tasks.ics", "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VTODO\r\nUID:x1\r\nSUMMARY:Pay \(payload) rent\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"),
        ("todo.txt", "Pay \(payload) rent +Evil\u{1b}[2J\n"),
        ("task.json", "[{\"description\": \"Pay \\u001b]52;c;cHduZWQ=\\u0007 \\u001b[2J \\u009b31m\", \"status\": \"pending\", \"project\": \"Evil\\u001b]0;x\\u0007\"}]\n"),
    ])
    func importDryRun(file: String, content: String) throws {
        let s = try Sandbox()
        try s.add("Existing")
        let before = try s.fingerprint()
        try s.write("../" + file, content)
        let r = try s.tick("import", s.root + "/" + file, "--dry-run")
        Self.expectVisible(r, "import --dry-run \(file)")
        let wet = try s.tick("import", s.root + "/" + file)
        Self.expectVisible(wet, "import \(file)")
        _ = before
    }

    static func csvQuoted(_ s: String) -> String { "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }

    @Test("the watcher's reminder fallback in a log is one line without the title or its controls, then tick's own bell")
    func watcherFallback() throws {
        let w = try ReminderE2ETests.World()
        try FileManager.default.createDirectory(atPath: w.s.home + "/.config/tick", withIntermediateDirectories: true)
        try Data("[reminders]\ncommand = [\"no-such-notifier-for-tick\", \"{summary}\"]\n".utf8)
            .write(to: URL(fileURLWithPath: w.s.home + "/.config/tick/config.toml"))
        try w.s.ok("add", "Placeholder", "due:today", "remind:10:00:01")
        let text = try w.s.text("inbox.json")
        try w.s.write("inbox.json", text.replacingOccurrences(of: "\"Placeholder\"", with: try Self.json("Bins \u{1b}[2J\n2026-11-21T09:00:00Z forged line")))
        let watcher = try w.watch()
        defer { watcher.stop() }
        // stderr is a pipe (a log): the line names the task by id, so neither
        // the title nor its controls can reach it.
        let line = watcher.waitForMessage(timeout: 10) { $0.hasPrefix("reminder for task") }
        #expect(line?.hasPrefix("reminder for task ") == true, "\(line ?? "none")\n\(watcher.log)")
        #expect(line?.contains("Bins") == false)
        #expect(line?.hasSuffix("\u{07}") == true)
        let r = watcher.stop()
        #expect(!r.stderr.contains("\nforged line") && !watcher.messages.contains { $0.hasPrefix("forged line") }, "\(r)")
        #expect(!r.stderr.contains("\u{1b}"), "\(r)")
    }

    // MARK: List lookup (item 10)

    @Test("lists rm 'W!!!' does not delete the list w: names match exactly, not by slug")
    func lookupIsExact() throws {
        let s = try Sandbox()
        try s.ok("lists", "add", "W")
        try s.add("Keep me", "list:W")
        let before = try s.fingerprint()
        let r = try s.tick("lists", "rm", "W!!!", "--yes")
        #expect(r.status == 3, "\(r)")
        #expect(r.stderr.contains("no list named"), "\(r)")
        #expect(try s.fingerprint() == before)
        // Exact names (any case, any Unicode normalization) and exact slugs still work.
        try s.ok("lists", "add", "Café Ideas")
        try s.add("One", "list:CAFE\u{301} IDEAS")
        try s.add("Two", "list:café-ideas")
        #expect(try s.tasks("lists/café-ideas.json").titles == ["One", "Two"])
        let slugish = try s.tick("add", "Three", "list:Café Ideas!")
        #expect(slugish.status == 3, "\(slugish)")
    }

    // MARK: Refusing control characters and overlong text (item 12)

    @Test("command-line titles, list names and notes with control characters or over the limits are refused with exit 2", arguments: [
        ["add", "Pay \u{1b}[2J rent"],
        ["add", "--", "two\nlines"],
        ["add", "tab\there"],
        ["add", String(repeating: "x", count: 1001)],
        ["add", "Fine", "--note", String(repeating: "n", count: 100_001)],
        ["lists", "add", "Evil\u{1b}]0;x\u{07}"],
        ["lists", "add", "Two\nlines"],
        ["lists", "add", String(repeating: "L", count: 201)],
        ["lists", "rename", "Work", "Bad\u{9b}name"],
        ["edit", "1", "--title", "Bad\u{7f}title"],
    ])
    func commandLineRefuses(args: [String]) throws {
        let s = try Sandbox()
        try s.ok("lists", "add", "Work")
        try s.add("Existing")
        let before = try s.fingerprint()
        let r = try s.tick(args)
        #expect(r.status == 2, "\(r)")
        #expect(r.stderr.hasPrefix("tick: error: ") && r.lines.isEmpty, "\(r)")
        #expect(r.stderr.split(separator: "\n").count == 1, "one line: \(r)")
        Self.expectVisible(r, args.joined(separator: " "))
        #expect(try s.fingerprint() == before)
    }

    @Test("the limits themselves are accepted; notes keep newlines and tabs")
    func limitsAccepted() throws {
        let s = try Sandbox()
        try s.ok("lists", "add", String(repeating: "L", count: 200))
        try s.add(String(repeating: "x", count: 1000))
        try s.ok("add", "Noted", "--note", "line one\n\tindented\n" + String(repeating: "n", count: 99_000))
        #expect(try s.json("list").count == 2)
    }

    @Test("an import record with a control character in its title or list, or NUL in its notes, is refused by its line", arguments: [
        ("bad.csv", "title,notes\nFine,ok\n\"Pay \u{1b}[2J rent\",n\n", "bad.csv:3: error: "),
        ("bad.csv", "title,list\nFine,Work\nAlso fine,\"Evil\u{9b}\"\n", "bad.csv:3: error: "),
        ("bad.csv", "title,notes\nFine,\"nul \u{0}here\"\n", "bad.csv:2: error: "),
        ("bad.txt", "Fine\nPay \u{1b}]52;c;eA==\u{07} rent\n", "bad.txt:2: error: "),
        ("bad.ics", "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VTODO\r\nUID:x1\r\nSUMMARY:Pay \u{1b}[2J\r\nEND:VTODO\r\nEND:VCALENDAR\r\n", "bad.ics:3: error: "),
        ("bad.json", "[{\"description\": \"ok\", \"status\": \"pending\"},\n{\"description\": \"Pay \\u001b[2J\", \"status\": \"pending\"}]\n", "bad.json:2: error: "),
    ])
    func importRefuses(file: String, content: String, prefix: String) throws {
        let s = try Sandbox()
        try s.add("Existing")
        let before = try s.fingerprint()
        try s.write("../" + file, content)
        let format = file.hasSuffix(".json") ? ["--format", "taskwarrior"] : []
        // --strict: the whole file is refused (without it a todo.txt line or CSV row is skipped, issue 45).
        let r = try s.tick(["import", s.root + "/" + file, "--strict"] + format)
        #expect(r.status == 4, "\(r)")
        #expect(r.stderr.contains(prefix), "\(r)")
        #expect(r.stderr.contains("nothing was imported"), "\(r)")
        Self.expectVisible(r, file)
        #expect(try s.fingerprint() == before)
    }
}
