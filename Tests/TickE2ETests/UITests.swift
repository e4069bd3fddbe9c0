import Foundation
import Testing

/// `tick ui` end to end in a real terminal (tmux): the screen and the store files.
@Suite("tick ui on a real terminal", .serialized)
struct UITests {
    /// tmux is a test dependency (scripts/ensure-deps.sh --test installs it).
    static var hasTmux: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") }

    func titles(_ s: Sandbox, _ file: String) throws -> [String] {
        try s.tasks(file).map { $0["title"] as? String ?? "" }
    }

    func state(_ s: Sandbox, _ file: String, _ title: String) throws -> String? {
        try s.tasks(file).first { $0["title"] as? String == title }?["state"] as? String
    }

    /// The row of the screen that shows `text`.
    func row(_ screen: String, _ text: String) -> String? {
        screen.split(separator: "\n").map(String.init).first { $0.contains(text) }
    }

    @Test("typing and Enter captures a task (due today in Today) into the file and onto the screen; Space twice starts then completes it")
    func captureAndCycle() throws {
        guard Self.hasTmux else { Issue.record("tmux is not installed (scripts/ensure-deps.sh --test installs it)"); return }
        let s = try Sandbox()
        // Hooks that note the command each write is made as (`command:done`), passing the task through.
        let hooks = s.home + "/.config/tick/hooks"
        let log = s.root + "/hooks.log"
        try FileManager.default.createDirectory(atPath: hooks, withIntermediateDirectories: true)
        for name in ["on-add.log", "on-modify.log"] {
            try "#!/bin/sh\nfor a in \"$@\"; do case \"$a\" in command:*) echo \"$a\" >> \(UITerminal.quoted(log));; esac; done\ntail -n 1\n"
                .write(toFile: hooks + "/" + name, atomically: true, encoding: .utf8)
            _ = try s.sh("chmod +x \(UITerminal.quoted(hooks + "/" + name))")
        }
        let ui = try UITerminal(s)
        defer { ui.close() }
        let first = try ui.waitFor("add ›")
        #expect(first.contains("Today") && first.contains("Inbox") && first.contains("Upcoming"), "the view tabs: \(first)")
        try ui.type("Buy oat milk +errand")
        try ui.waitFor("add › Buy oat milk +errand")
        try ui.press("Enter")
        let added = try ui.waitFor("the new row") { row($0, "[ ] Buy oat milk") != nil }
        #expect(row(added, "[ ] Buy oat milk")?.contains("+errand") == true, "the row carries the CLI's marks: \(added)")
        #expect(added.contains("Added 1"), "the status line confirms as tick add does: \(added)")
        // A line tick add would refuse: the CLI's error, and the text stays to fix.
        try ui.type("Pay rent due:someday")
        try ui.press("Enter")
        let refused = try ui.waitFor("tick: error:")
        #expect(refused.contains("add › Pay rent due:someday"), "the refused text stays on the line: \(refused)")
        #expect(try s.tasks("inbox.json").count == 1)
        try ui.press("C-u")
        let task = try #require(try s.tasks("inbox.json").first)
        #expect(task["title"] as? String == "Buy oat milk")
        #expect(task["due"] as? String == "2026-11-21", "captured in Today: due today")
        #expect(task["tags"] as? [String] == ["errand"])
        try ui.press("Tab")
        try ui.press("Space")
        try ui.waitFor("[>] Buy oat milk")
        #expect(try state(s, "inbox.json", "Buy oat milk") == "active")
        try ui.press("Space")
        let done = try ui.waitFor("Completed 1")
        #expect(try state(s, "inbox.json", "Buy oat milk") == "done")
        #expect(row(done, "[ ] Buy oat milk") == nil && row(done, "[>] Buy oat milk") == nil, "a done task leaves Today: \(done)")
        let commands = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(commands == ["command:add", "command:start", "command:done"], "the hooks are told each write's own command")
    }

    @Test("x completes the selected task at once and u undoes it; a status message longer than the screen is read whole on wrapped bars")
    func xCompletesAndLongMessagesWrap() throws {
        guard Self.hasTmux else { Issue.record("tmux is not installed (scripts/ensure-deps.sh --test installs it)"); return }
        let s = try Sandbox()
        try s.ok("lists", "add", "Work")
        try s.add("Call mum", "due:today")
        try s.add("Report", "list:Work", "due:today")
        let ui = try UITerminal(s, width: 80, height: 24)
        defer { ui.close() }
        try ui.waitFor("[ ] Report")
        try ui.press("Tab")
        // J in Today past a task of another list: the explanation, whole, on an 80-column screen.
        try ui.type("J")
        let told = try ui.waitFor("the whole message") { screen in
            screen.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
                .contains("J/K move a task past one of the same list and date here; reorder freely in its list's tab.")
        }
        #expect(!told.contains("its …"), "\(told)")
        // x: done in one key.
        try ui.type("x")
        let done = try ui.waitFor("Completed 1")
        #expect(try state(s, "inbox.json", "Call mum") == "done")
        #expect(row(done, "[ ] Call mum") == nil && row(done, "[x] Call mum") == nil, "a done task leaves Today: \(done)")
        try ui.type("u")
        try ui.waitFor("[ ] Call mum")
        #expect(try state(s, "inbox.json", "Call mum") == "open")
    }

    @Test("J moves the selected task down in the list file's array, K up; u undoes; the selection stays on the task")
    func reorderAndUndo() throws {
        guard Self.hasTmux else { Issue.record("tmux is not installed (scripts/ensure-deps.sh --test installs it)"); return }
        let s = try Sandbox()
        try s.ok("lists", "add", "Work")
        for t in ["Alpha", "Bravo", "Charlie"] { try s.add(t, "list:Work") }
        let ui = try UITerminal(s)
        defer { ui.close() }
        try ui.waitFor("add ›")
        try ui.press("Tab")
        try ui.press("4")
        try ui.waitFor("the Work list") { row($0, "[ ] Charlie") != nil && $0.contains("Work · 3 tasks") }
        try ui.press("J")
        try UITerminal.eventually("Alpha after Bravo in lists/work.json") { try titles(s, "lists/work.json") == ["Bravo", "Alpha", "Charlie"] }
        let moved = try ui.waitFor("Alpha below Bravo") { screen in
            let lines = screen.split(separator: "\n").map(String.init)
            guard let a = lines.firstIndex(where: { $0.contains("Alpha") }), let b = lines.firstIndex(where: { $0.contains("Bravo") }) else { return false }
            return b < a
        }
        #expect(moved.contains("Reordered"), "the status line confirms as tick reorder does: \(moved)")
        try ui.press("J")
        try UITerminal.eventually("Alpha last") { try titles(s, "lists/work.json") == ["Bravo", "Charlie", "Alpha"] }
        try ui.press("K")
        try UITerminal.eventually("Alpha back in the middle") { try titles(s, "lists/work.json") == ["Bravo", "Alpha", "Charlie"] }
        try ui.press("u")
        try UITerminal.eventually("undo puts Alpha last again") { try titles(s, "lists/work.json") == ["Bravo", "Charlie", "Alpha"] }
        try ui.waitFor("Undid")
    }

    @Test("a change made outside (sed -i on a list file) appears on the screen without a key press, the selection staying on its task")
    func externalChange() throws {
        guard Self.hasTmux else { Issue.record("tmux is not installed (scripts/ensure-deps.sh --test installs it)"); return }
        let s = try Sandbox()
        try s.ok("lists", "add", "Home")
        for t in ["Water plants", "Fix sink", "Call plumber"] { try s.add(t, "list:Home") }
        let ui = try UITerminal(s)
        defer { ui.close() }
        try ui.waitFor("add ›")
        try ui.press("Tab", "4", "j")
        try ui.waitFor("Home · 3 tasks")
        let r = try s.sh("sed -i 's/Water plants/Water the ferns/' \(UITerminal.quoted(s.store + "/lists/home.json"))")
        #expect(r.status == 0, "\(r)")
        let after = try ui.waitFor("Water the ferns")
        #expect(!after.contains("Water plants"))
        // The selected row (Fix sink) is still the one shown selected: Enter opens its details.
        try ui.press("Enter")
        let details = try ui.waitFor("the details pane") { $0.contains("─") }
        #expect(details.contains("Home · open"), "\(details)")
        let pane = details.components(separatedBy: "─").last ?? ""
        #expect(pane.contains("Fix sink"), "the selection stayed on Fix sink: \(details)")
    }

    @Test("the details pane shows every field the table labels and the declared fields, as tick show does")
    func detailsShowEveryField() throws {
        guard Self.hasTmux else { Issue.record("tmux is not installed (scripts/ensure-deps.sh --test installs it)"); return }
        let s = try UserFieldsE2ETests().sandbox()
        try s.ok("lists", "add", "Home")
        try s.add("Fix sink", "list:Home", "estimate:90", "at:2026-11-23@9:30", "for:45m", "client:Acme", "spent:20m", "+plumbing")
        let ui = try UITerminal(s)
        defer { ui.close() }
        try ui.waitFor("add ›")
        try ui.press("Tab", "4", "j")
        try ui.waitFor("Home · 1 task")
        try ui.press("Enter")
        let details = try ui.waitFor("the details pane") { $0.contains("─") && $0.contains("Home · open") }
        let pane = details.components(separatedBy: "─").last ?? ""
        for part in ["estimate 1h30m", "slot Mon 23 Nov 09:30-10:15 (45m)", "Client Acme", "spent 20m", "+plumbing"] {
            #expect(pane.contains(part), "\(part): \(details)")
        }
    }

    @Test("a write refused because a file is unreadable shows the CLI's error on the status line, and the UI keeps running")
    func refusedWrite() throws {
        guard Self.hasTmux else { Issue.record("tmux is not installed (scripts/ensure-deps.sh --test installs it)"); return }
        let s = try Sandbox()
        try s.ok("lists", "add", "Home")
        try s.add("Fix sink", "list:Home")
        let ui = try UITerminal(s)
        defer { ui.close() }
        try ui.waitFor("add ›")
        try ui.press("Tab", "4")
        try ui.waitFor("[ ] Fix sink")
        let path = s.store + "/lists/home.json"
        let good = try String(contentsOfFile: path, encoding: .utf8)
        try (good + "\n{ not json").write(toFile: path, atomically: true, encoding: .utf8)
        try ui.waitFor("the warning about the file") { $0.contains("home.json") }
        try ui.press("Space")
        let refused = try ui.waitFor("an error line") { $0.contains("error:") }
        #expect(refused.contains("home.json"), "\(refused)")
        #expect(try String(contentsOfFile: path, encoding: .utf8).hasSuffix("{ not json"), "tick never rewrites a file it cannot parse")
        try good.write(toFile: path, atomically: true, encoding: .utf8)
        try ui.press("Space")
        try ui.waitFor("[>] Fix sink")
        #expect(try state(s, "lists/home.json", "Fix sink") == "active")
    }

    @Test("80×24 and 60 columns: every row fits, long titles are cut with …, wide characters keep their cells, q quits cleanly")
    func smallTerminals() throws {
        guard Self.hasTmux else { Issue.record("tmux is not installed (scripts/ensure-deps.sh --test installs it)"); return }
        let s = try Sandbox()
        try s.add("A very long title that goes on and on about the quarterly planning meeting", "due:today", "+planning", "+work")
        try s.add("买牛奶 🥛 and bread", "due:today")
        for (width, height) in [(80, 24), (60, 20)] {
            let ui = try UITerminal(s, width: width, height: height, name: "w\(width)")
            defer { ui.close() }
            let screen = try ui.waitFor("both tasks at \(width) columns") { $0.contains("买牛奶 🥛") && $0.contains("A very long") }
            let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            #expect(lines.count >= height - 1, "\(screen)")
            let long = row(screen, "A very long") ?? ""
            #expect(long.contains("…") && long.contains("due today"), "the long title is cut so its due date stays on the row: \(screen)")
            #expect(long.contains("A very long title that goes on"), "the tags and list gave way to the title first: \(screen)")
            #expect(row(screen, "买牛奶")?.contains("买牛奶 🥛 and bread  @Inbox  due today") == true, "wide characters drawn as text: \(screen)")
            #expect(lines.last { !$0.isEmpty }?.hasPrefix("add ›") == true, "the input line is at the bottom: \(screen)")
            try ui.press("Tab", "q")
            try ui.waitFor("EXIT:0")
        }
    }

    @Test("at 80×24 a long title in Today shows far more than its first word: its tags, list and minor fields give way first")
    func titleFirstAt80() throws {
        guard Self.hasTmux else { Issue.record("tmux is not installed (scripts/ensure-deps.sh --test installs it)"); return }
        let s = try Sandbox()
        try s.ok("lists", "add", "Errands")
        let title = "Groceries for the weekend: oat milk and eggs"
        try s.add(title, "list:Errands", "due:today", "sched:today", "energy:low", "pri:flexible", "+groceries", "+town", "+saturday")
        try s.add("Call the dentist", "due:2026-11-19", "pri:must", "+health")
        let ui = try UITerminal(s, width: 80, height: 24)
        defer { ui.close() }
        let screen = try ui.waitFor("both tasks in Today") { row($0, "Groceries") != nil && row($0, "Call the dentist") != nil }
        let groceries = try #require(row(screen, "Groceries"))
        #expect(groceries.contains(title), "the whole title, not its first word: \(screen)")
        #expect(groceries.contains("due today"), "the due date stays: \(screen)")
        #expect(!groceries.contains("+saturday") && !groceries.contains("energy:"), "tags and minor fields gave way: \(screen)")
        // A short title with room to spare keeps every field.
        #expect(row(screen, "Call the dentist")?.contains("due Thu 19 Nov, 2d overdue  pri:must  +health") == true, "\(screen)")
        // Every row fits the width.
        for line in screen.split(separator: "\n") { #expect(line.count <= 80, "\(line)") }
    }

    @Test("e edits the task in the input line (a removed tag is removed, the due date kept), m moves it with completion, d deletes, u brings it back")
    func editMoveDelete() throws {
        guard Self.hasTmux else { Issue.record("tmux is not installed (scripts/ensure-deps.sh --test installs it)"); return }
        let s = try Sandbox()
        try s.ok("lists", "add", "Work")
        try s.ok("lists", "add", "Home")
        try s.add("Call the bank", "due:2026-11-27", "+phone", "list:Work")
        let ui = try UITerminal(s)
        defer { ui.close() }
        try ui.waitFor("add ›")
        // Lists come after Upcoming in name order: 4 Home, 5 Work.
        try ui.press("Tab", "5")
        try ui.waitFor("[ ] Call the bank")
        try ui.press("e")
        try ui.waitFor("edit › Call the bank due:2026-11-27 +phone")
        try ui.press("C-w")
        try ui.type("+money 账单")
        try ui.press("Enter")
        try ui.waitFor("Edited")
        let edited = try #require(try s.tasks("lists/work.json").first)
        #expect(edited["title"] as? String == "Call the bank 账单")
        #expect(edited["tags"] as? [String] == ["money"])
        #expect(edited["due"] as? String == "2026-11-27")
        try ui.press("m")
        try ui.type("ho")
        try ui.press("Tab")
        try ui.waitFor("move to › Home")
        try ui.press("Enter")
        try ui.waitFor("Moved")
        #expect(try titles(s, "lists/home.json") == ["Call the bank 账单"])
        #expect(try titles(s, "lists/work.json").isEmpty)
        // The UI's changes are journaled under their commands' names, newest first.
        let journal = try JSONSerialization.jsonObject(with: Data(try s.ok("undo", "--list", "--json").utf8)) as? [[String: Any]] ?? []
        #expect(journal.prefix(2).map { $0["command"] as? String } == ["mv", "edit"], "\(journal)")
        try ui.press("4")
        try ui.waitFor("[ ] Call the bank 账单")
        try ui.press("d")
        try ui.waitFor("Deleted")
        #expect(try titles(s, "lists/home.json").isEmpty)
        try ui.press("u")
        try ui.waitFor("Undid")
        try ui.waitFor("[ ] Call the bank 账单")
        #expect(try titles(s, "lists/home.json") == ["Call the bank 账单"])
    }

    @Test("the mouse: a click selects, a drag onto another row reorders the file, a drop on the Inbox tab moves the task there")
    func mouse() throws {
        guard Self.hasTmux else { Issue.record("tmux is not installed (scripts/ensure-deps.sh --test installs it)"); return }
        let s = try Sandbox()
        try s.ok("lists", "add", "Work")
        for t in ["Alpha", "Bravo", "Charlie"] { try s.add(t, "list:Work") }
        let ui = try UITerminal(s)
        defer { ui.close() }
        try ui.waitFor("add ›")
        try ui.press("Tab", "4")
        try ui.waitFor("Work · 3 tasks")
        // Rows start on screen row 2: Alpha 2, Bravo 3, Charlie 4.
        try ui.drag(from: (5, 3), to: (5, 3))
        try ui.press("Enter")
        let details = try ui.waitFor("the details of the clicked task") { $0.contains("─") }
        #expect((details.components(separatedBy: "─").last ?? "").contains("Bravo"), "\(details)")
        try ui.press("Enter")
        try ui.drag(from: (5, 2), to: (5, 4))
        try ui.waitFor("Reordered")
        #expect(try titles(s, "lists/work.json") == ["Bravo", "Charlie", "Alpha"], "Alpha dragged below Charlie")
        let screen = try ui.waitFor("Alpha last on screen") { row($0, "Alpha") != nil && row($0, "Charlie") != nil
            && $0.components(separatedBy: "Alpha")[0].contains("Charlie") }
        let inbox = try #require(screen.split(separator: "\n").first.flatMap { $0.range(of: "Inbox") }).lowerBound
        let x = screen.split(separator: "\n")[0].distance(from: screen.split(separator: "\n")[0].startIndex, to: inbox)
        try ui.drag(from: (5, 2), to: (x, 0))
        // "Moved" is on the screen once the move's two writes (the inbox first) are both done.
        try ui.waitFor("Moved")
        #expect(try titles(s, "inbox.json") == ["Bravo"])
        #expect(try titles(s, "lists/work.json") == ["Charlie", "Alpha"])
    }

    @Test("colors come from the terminal's palette (red overdue on the default background); NO_COLOR leaves only bold and reverse video")
    func colors() throws {
        guard Self.hasTmux else { Issue.record("tmux is not installed (scripts/ensure-deps.sh --test installs it)"); return }
        let s = try Sandbox()
        try s.add("Late thing", "due:2026-11-01")
        let colored = try UITerminal(s, env: ["NO_COLOR": nil], name: "color")
        defer { colored.close() }
        try colored.waitFor("Late thing")
        let withColor = try colored.screen(escapes: true)
        let lateRow = withColor.split(separator: "\n").first { $0.contains("Late thing") }.map(String.init) ?? ""
        #expect(lateRow.contains("31m") || lateRow.contains(";31"), "the overdue row is red: \(lateRow.debugDescription)")
        let background = try NSRegularExpression(pattern: "\u{1B}\\[[0-9;]*4[0-8][;m]")
        #expect(background.numberOfMatches(in: withColor, range: NSRange(withColor.startIndex..., in: withColor)) == 0,
                "no background color is set (49, the default, only): \(withColor.debugDescription)")
        let plain = try UITerminal(s, name: "plain")
        defer { plain.close() }
        try plain.waitFor("Late thing")
        let noColor = try plain.screen(escapes: true)
        let sgr = try NSRegularExpression(pattern: "\u{1B}\\[[0-9;]*3[0-7][;m]")
        #expect(sgr.numberOfMatches(in: noColor, range: NSRange(noColor.startIndex..., in: noColor)) == 0,
                "no foreground color with NO_COLOR: \(noColor.debugDescription)")
        #expect(noColor.contains("\u{1B}[1m") || noColor.contains("\u{1B}[7m") || noColor.contains(";1m"), "bold or reverse remain: \(noColor.debugDescription)")
    }

    @Test("E edits the task's JSON in $EDITOR and the screen comes back with the change")
    func externalEditor() throws {
        guard Self.hasTmux else { Issue.record("tmux is not installed (scripts/ensure-deps.sh --test installs it)"); return }
        let s = try Sandbox()
        try s.add("Fix sink", "due:today")
        let editor = s.root + "/editor.sh"
        try "#!/bin/sh\nsed -i 's/Fix sink/Fix the sink (from the editor)/' \"$1\"\n".write(toFile: editor, atomically: true, encoding: .utf8)
        _ = try s.sh("chmod +x \(UITerminal.quoted(editor))")
        let ui = try UITerminal(s, env: ["EDITOR": editor, "VISUAL": nil])
        defer { ui.close() }
        try ui.waitFor("[ ] Fix sink")
        try ui.press("Tab", "E")
        let back = try ui.waitFor("Back from the editor")
        #expect(back.contains("[ ] Fix the sink (from the editor)"), "\(back)")
        #expect(back.contains("add ›"), "the screen is drawn again: \(back)")
        #expect(try titles(s, "inbox.json") == ["Fix the sink (from the editor)"])
    }

    @Test("the status line counts sync conflicts waiting for tick resolve")
    func conflictsPending() throws {
        guard Self.hasTmux else { Issue.record("tmux is not installed (scripts/ensure-deps.sh --test installs it)"); return }
        let s = try Sandbox()
        try s.ok("lists", "add", "Home")
        try s.add("Fix sink", "list:Home")
        let ui = try UITerminal(s)
        defer { ui.close() }
        let clean = try ui.waitFor("live")
        #expect(!clean.contains("conflict"), "\(clean)")
        try FileManager.default.copyItem(atPath: s.store + "/lists/home.json",
                                         toPath: s.store + "/lists/home.sync-conflict-20261121-090000-ABCDEF7.json")
        try ui.press("Tab", "r")
        try ui.waitFor("1 sync conflict pending (tick resolve)")
    }

    @Test("a resize lays the screen out again: the input line moves to the new bottom row, rows are cut to the new width")
    func resize() throws {
        guard Self.hasTmux else { Issue.record("tmux is not installed (scripts/ensure-deps.sh --test installs it)"); return }
        let s = try Sandbox()
        try s.add("A long title about the quarterly planning meeting", "due:today", "+planning")
        let ui = try UITerminal(s)
        defer { ui.close() }
        let wide = try ui.waitFor("the whole title at 100 columns") { row($0, "A long title")?.contains("meeting  @Inbox  due today  +planning") == true }
        #expect(wide.contains("add ›"))
        try ui.resize(width: 60, height: 15)
        // tmux itself keeps the bottom rows and cuts lines at once on a resize,
        // so the layout is tick's only once the row is cut with "…".
        let narrow = try ui.waitFor("the 60×15 layout") { screen in
            let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            return lines.count >= 15 && lines[14].hasPrefix("add ›") && row(screen, "A long title")?.contains("…") == true
        }
        let long = row(narrow, "A long title") ?? ""
        #expect(long.contains("due today") && !long.contains("+planning"), "the tag gave way, then the title was cut: \(narrow)")
        #expect(long.count <= 60)
    }

    @Test("without a terminal (a script, a pipe) tick ui is a usage error with one line, and writes nothing")
    func notATerminal() throws {
        let s = try Sandbox()
        try s.add("Keep me")
        let before = try s.fingerprint()
        let r = try s.tick("ui")
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr == "tick: error: tick ui needs a terminal on stdin and stdout; in scripts use tick list, today or --json\n")
        #expect(try s.fingerprint() == before)
    }

    @Test("when its terminal goes away (the tmux server is killed), tick ui exits instead of spinning")
    func terminalGone() throws {
        guard Self.hasTmux else { Issue.record("tmux is not installed (scripts/ensure-deps.sh --test installs it)"); return }
        let s = try Sandbox()
        let ui = try UITerminal(s)
        defer { ui.close() }
        try ui.waitFor("add ›")
        let pid = try #require(ui.pid)
        #expect(kill(pid, 0) == 0, "tick ui runs")
        ui.close()
        try UITerminal.eventually("tick ui (pid \(pid)) exited") { kill(pid, 0) != 0 }
    }
}
