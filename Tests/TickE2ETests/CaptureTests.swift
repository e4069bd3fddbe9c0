import Foundation
import Testing

/// `tick capture` with fake prompt programs (zenity, kdialog, rofi, dmenu) and a
/// fake notify-send on PATH, and the terminal prompt through a real pty.
@Suite struct CaptureTests {
    final class World {
        let s: Sandbox
        let fakes: FakePrograms
        init() throws {
            s = try Sandbox()
            fakes = try FakePrograms(in: s)
            try fakes.install("notify-send")
        }

        /// Installs a fake program that records its argv and prints `answer` (exit `status`).
        func fake(_ name: String, answer: String, status: Int = 0) throws {
            try fakes.install(name)
            try fakes.answer(name, answer, status: status)
        }

        /// The argv of every call to `name`.
        func calls(_ name: String) -> [[String]] { fakes.argv(name) }

        var env: [String: String?] { ["PATH": fakes.path(then: "/usr/bin:/bin"), "DISPLAY": ":0", "WAYLAND_DISPLAY": nil] }

        func capture(_ args: String...) throws -> RunResult { try s.tick(["capture"] + args, env: env) }
    }

    @Test func zenityLineBecomesAnInboxTaskAndANotificationConfirmsIt() throws {
        let w = try World()
        try w.fake("zenity", answer: "Buy milk due:tomorrow +errand")
        try w.fake("rofi", answer: "not me")
        let r = try w.capture()
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout == "Added 1 (\(try w.s.uuidPrefix("Buy milk"))) to Inbox: Buy milk\n")
        let task = try #require(try w.s.tasks("inbox.json").task("Buy milk"))
        #expect(task.string("due") == "2026-11-22")
        #expect(task["tags"] as? [String] == ["errand"])
        #expect(w.calls("zenity").first?.prefix(2) == ["--entry", "--title=tick"])
        #expect(w.calls("rofi").isEmpty)
        #expect(w.calls("notify-send") == [["--app-name=tick", "--", "Added 'Buy milk' to Inbox", "tick 1"]])
    }

    @Test func promptsAreTriedInOrder_kdialogThenRofiThenDmenu() throws {
        let w = try World()
        try w.fake("dmenu", answer: "from dmenu")
        #expect(try w.capture().status == 0)
        try w.fake("rofi", answer: "from rofi")
        #expect(try w.capture().status == 0)
        try w.fake("kdialog", answer: "from kdialog")
        #expect(try w.capture().status == 0)
        #expect(try w.s.tasks("inbox.json").compactMap { $0.string("title") } == ["from dmenu", "from rofi", "from kdialog"])
        #expect(w.calls("rofi").first?.prefix(2) == ["-dmenu", "-p"])
        #expect(w.calls("kdialog").first?.contains("--inputbox") == true)
        // --prompt picks one even when others come first.
        #expect(try w.capture("--prompt", "dmenu").status == 0)
        #expect(w.calls("dmenu").count == 2)
    }

    @Test func aLineNamingAListGoesThere() throws {
        let w = try World()
        try w.s.ok("lists", "add", "Travel")
        try w.fake("zenity", answer: "Book train list:travel")
        #expect(try w.capture().status == 0)
        #expect(try w.s.tasks("lists/travel.json").task("Book train") != nil)
        #expect(w.calls("notify-send").first?.contains("Added 'Book train' to Travel") == true)
    }

    @Test func cancelAddsNothingAndExitsOne() throws {
        let w = try World()
        try w.fake("zenity", answer: "", status: 1)
        let r = try w.capture()
        #expect(r.status == 1)
        #expect(r.stderr.contains("cancelled"))
        #expect(!w.s.exists("inbox.json"))
        #expect(w.calls("notify-send").isEmpty)
    }

    @Test func aBadLineIsReportedInANotificationAndExitsTwo() throws {
        let w = try World()
        try w.fake("zenity", answer: "Call Bob due:someday-maybe")
        let r = try w.capture()
        #expect(r.status == 2, "\(r)")
        #expect(!w.s.exists("inbox.json"))
        let note = try #require(w.calls("notify-send").first)
        #expect(note[2] == "tick: task not added")
        #expect(note[3].contains("someday-maybe"))
    }

    @Test func withoutDisplayOrTerminalItSaysWhatToInstall() throws {
        let w = try World()
        try w.fake("zenity", answer: "never asked")
        let r = try w.s.tick(["capture"], env: ["PATH": w.fakes.path(then: "/usr/bin:/bin"), "DISPLAY": nil, "WAYLAND_DISPLAY": nil])
        #expect(r.status == 1)
        #expect(r.stderr.contains("no prompt found: install zenity, kdialog, rofi or dmenu"))
        #expect(w.calls("zenity").isEmpty)
    }

    @Test func theTerminalPromptWorksThroughAPty() throws {
        let w = try World()
        // script(1) gives tick a pseudo-terminal; its stdin is typed into it.
        let r = try w.s.run("/usr/bin/script", ["-qec", "\(TickBinary.path) capture", "/dev/null"],
                            stdin: "Read Dune +books\n",
                            env: ["PATH": w.fakes.path(then: "/usr/bin:/bin"), "DISPLAY": nil, "WAYLAND_DISPLAY": nil])
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("New task: "))
        #expect(r.stdout.contains("Added 1 (\(try w.s.uuidPrefix("Read Dune"))) to Inbox: Read Dune"))
        #expect(try w.s.tasks("inbox.json").task("Read Dune")?["tags"] as? [String] == ["books"])
        #expect(w.calls("notify-send").isEmpty, "no notification when the terminal already shows the result")
    }
}

/// `tick status-line --follow` prints a new line when the store changes.
@Suite struct StatusLineFollowTests {
    @Test func printsALinePerChangeAndNoDuplicates() throws {
        let s = try Sandbox()
        try s.ok("add", "First", "due:today")
        let running = try s.start(TickBinary.path, ["status-line", "--follow"])
        defer {
            kill(running.process.processIdentifier, SIGTERM)
            _ = try? running.wait()
        }
        func lines() -> [String] {
            String(decoding: FileManager.default.contents(atPath: running.outPath) ?? Data(), as: UTF8.self)
                .split(separator: "\n").map(String.init)
        }
        #expect(eventually(timeout: 30) { lines() == ["1 due · First"] })
        try s.ok("add", "Late one", "due:yesterday")
        #expect(eventually(timeout: 30) { lines().count == 2 }, "a change shows a line")
        #expect(lines().last == "1 due · 1 overdue · Late one")
        // A change that does not alter the summary prints nothing new: the
        // next line to come is the one for the change after it.
        try s.ok("add", "Someday")
        // A hand edit counts too.
        try s.write("lists/extra.json", "{\"version\": 1, \"tasks\": [{\"title\": \"By hand\", \"due\": \"2026-11-01\"}]}\n")
        #expect(eventually(timeout: 30) { lines().last == "1 due · 2 overdue · By hand" })
        #expect(lines() == ["1 due · First", "1 due · 1 overdue · Late one", "1 due · 2 overdue · By hand"],
                "no line for the change that left the summary as it was")
    }
}
