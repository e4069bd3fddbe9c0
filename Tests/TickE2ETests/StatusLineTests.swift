import Foundation
import Testing

/// `tick status-line` (every format and size) and `tick open`.
@Suite("status line")
struct StatusLineTests {
    /// Now is Sat 2026-11-21 10:00 Berlin.
    /// Two due today, one overdue: 1 Old thing (due 11-18, overdue), 2 Renew the passport… (due today 12:00),
    /// 3 Call the bank (due today), 4 Tomorrow thing (not today), 5 Done today (done).
    static func mixed() throws -> Sandbox {
        let s = try Sandbox()
        try s.add("Old", "thing", "due:2026-11-18")
        try s.add("Renew", "the", "passport", "before", "the", "trip", "to", "Lisbon", "due:today@12:00")
        try s.add("Call", "the", "bank", "due:today")
        try s.add("Tomorrow", "thing", "due:tomorrow")
        try s.add("Done", "today", "due:today")
        try s.ok("done", "5")
        return s
    }

    /// Only tasks due today, none overdue.
    static func onlyDue() throws -> Sandbox {
        let s = try Sandbox()
        try s.add("Renew", "the", "passport", "before", "the", "trip", "to", "Lisbon", "due:today@12:00")
        try s.add("Call", "the", "bank", "due:today")
        return s
    }

    /// Nothing due today (one task tomorrow, one without a date).
    static func clear() throws -> Sandbox {
        let s = try Sandbox()
        try s.add("Tomorrow", "thing", "due:tomorrow")
        try s.add("No", "date")
        return s
    }

    static let formats = ["plain", "json", "waybar", "i3blocks", "polybar", "tmux"]

    func out(_ s: Sandbox, _ format: String, _ size: String = "small") throws -> String {
        let r = try s.tick("status-line", "--format", format, "--size", size)
        #expect(r.status == 0, "\(r)")
        #expect(r.stderr == "")
        return r.stdout
    }

    @Test("due and overdue: every format, small")
    func mixedSmall() throws {
        let s = try Self.mixed()
        #expect(try s.ok("status-line") == "2 due · 1 overdue · Old thing\n")
        #expect(try out(s, "plain") == "2 due · 1 overdue · Old thing\n")
        #expect(try out(s, "json") == #"{"due": 2, "overdue": 1, "next": ["Old thing"]}"# + "\n")
        #expect(try out(s, "waybar") == #"{"text": "2 due · 1 overdue · Old thing", "tooltip": "Old thing\nRenew the passport before the trip to Lisbon\nCall the bank", "class": "overdue"}"# + "\n")
        #expect(try out(s, "i3blocks") == "2 due · 1 overdue · Old thing\n2 due · 1 overdue\n#ff5555\n")
        #expect(try out(s, "polybar") == "%{F#ff5555}2 due · 1 overdue · Old thing%{F-}\n")
        #expect(try out(s, "tmux") == "#[fg=red]2 due · 1 overdue · Old thing#[default]\n")
    }

    @Test("due and overdue: medium shows two titles, truncated at 40 characters")
    func mixedMedium() throws {
        let s = try Self.mixed()
        let text = "2 due · 1 overdue · Old thing · Renew the passport before the trip to L…"
        #expect(try out(s, "plain", "medium") == text + "\n")
        #expect(try out(s, "json", "medium") == #"{"due": 2, "overdue": 1, "next": ["Old thing", "Renew the passport before the trip to Lisbon"]}"# + "\n")
        #expect(try out(s, "i3blocks", "medium") == "\(text)\n2 due · 1 overdue\n#ff5555\n")
        #expect(try out(s, "polybar", "medium") == "%{F#ff5555}\(text)%{F-}\n")
        #expect(try out(s, "tmux", "medium") == "#[fg=red]\(text)#[default]\n")
    }

    @Test("only due: yellow, class due, small title truncated at 30 characters")
    func onlyDueFormats() throws {
        let s = try Self.onlyDue()
        let small = "2 due · Renew the passport before the…"
        #expect(try out(s, "plain") == small + "\n")
        #expect(try out(s, "plain", "medium") == "2 due · Renew the passport before the trip to L… · Call the bank\n")
        #expect(try out(s, "json") == #"{"due": 2, "overdue": 0, "next": ["Renew the passport before the trip to Lisbon"]}"# + "\n")
        #expect(try out(s, "waybar") == #"{"text": "\#(small)", "tooltip": "Renew the passport before the trip to Lisbon\nCall the bank", "class": "due"}"# + "\n")
        #expect(try out(s, "i3blocks") == "\(small)\n2 due\n#f1fa8c\n")
        #expect(try out(s, "polybar") == "%{F#f1fa8c}\(small)%{F-}\n")
        #expect(try out(s, "tmux") == "#[fg=yellow]\(small)#[default]\n")
    }

    @Test("nothing due: plain text, class clear, no color")
    func nothingDue() throws {
        let s = try Self.clear()
        for size in ["small", "medium"] {
            #expect(try out(s, "plain", size) == "nothing due\n")
            #expect(try out(s, "json", size) == #"{"due": 0, "overdue": 0, "next": []}"# + "\n")
            #expect(try out(s, "waybar", size) == #"{"text": "nothing due", "tooltip": "nothing due", "class": "clear"}"# + "\n")
            #expect(try out(s, "i3blocks", size) == "nothing due\nnothing due\n")
            #expect(try out(s, "polybar", size) == "nothing due\n")
            #expect(try out(s, "tmux", size) == "nothing due\n")
        }
        // An empty store is clear too.
        let empty = try Sandbox()
        try empty.ok("init")
        #expect(try out(empty, "plain") == "nothing due\n")
    }

    @Test("waybar output is one line of JSON with the right class")
    func waybarParses() throws {
        for (fixture, expected) in [(try Self.mixed(), "overdue"), (try Self.onlyDue(), "due"), (try Self.clear(), "clear")] {
            for size in ["small", "medium"] {
                let text = try out(fixture, "waybar", size)
                #expect(lines(text).count == 1)
                let o = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
                #expect(o.string("class") == expected)
                #expect(o.string("text") != nil)
                #expect(o.string("tooltip") != nil)
                #expect(o["percentage"] == nil)
            }
        }
    }

    @Test("json output parses")
    func jsonParses() throws {
        let o = try #require(try JSONSerialization.jsonObject(with: Data(try out(try Self.mixed(), "json", "medium").utf8)) as? [String: Any])
        #expect(o.int("due") == 2)
        #expect(o.int("overdue") == 1)
        #expect(o["next"] as? [String] == ["Old thing", "Renew the passport before the trip to Lisbon"])
    }

    @Test("no format prints ANSI escapes, even with color forced on")
    func noEscapes() throws {
        for s in [try Self.mixed(), try Self.onlyDue(), try Self.clear()] {
            for format in Self.formats {
                for size in ["small", "medium"] {
                    let r = try s.tick(["status-line", "--format", format, "--size", size], env: ["NO_COLOR": nil, "TERM": "xterm-256color"])
                    #expect(r.status == 0)
                    #expect(!r.stdout.contains("\u{1B}"), "\(format) \(size): \(r.stdout)")
                }
            }
        }
    }

    @Test("titles are escaped for each program's markup")
    func markupEscaping() throws {
        let s = try Sandbox()
        try s.add("Fix", "<b>", "&", "#1", "%{F-}", "due:today")
        #expect(try out(s, "plain") == "1 due · Fix <b> & #1 %{F-}\n")
        #expect(try out(s, "waybar") == #"{"text": "1 due · Fix &lt;b&gt; &amp; #1 %{F-}", "tooltip": "Fix &lt;b&gt; &amp; #1 %{F-}", "class": "due"}"# + "\n")
        #expect(try out(s, "tmux") == "#[fg=yellow]1 due · Fix <b> & ##1 %{F-}#[default]\n")
        #expect(try out(s, "polybar") == "%{F#f1fa8c}1 due · Fix <b> & #1 % {F-}%{F-}\n")
    }

    @Test("bad format or size is a usage error")
    func badOptions() throws {
        let s = try Self.clear()
        #expect(try s.tick("status-line", "--format", "xml").status == 2)
        #expect(try s.tick("status-line", "--size", "large").status == 2)
    }

    // MARK: tick open

    @Test("tick open ID prints the task like tick show")
    func openShows() throws {
        let s = try Self.mixed()
        let r = try s.tick("open", "1")
        #expect(r.status == 0)
        #expect(r.lines.first == "Old thing")
        #expect(r.stdout == (try s.ok("show", "1")))
    }

    @Test("tick open ID --edit runs $EDITOR like tick edit")
    func openEdits() throws {
        let s = try Self.mixed()
        let editor = try s.script("editor.sh", #"sed -i 's/"title": "Old thing"/"title": "New thing"/' "$1""#)
        let r = try s.tick("open", "1", "--edit", env: ["EDITOR": editor, "VISUAL": nil])
        #expect(r.status == 0, "\(r)")
        #expect(try s.tasks("inbox.json").titles.contains("New thing"))
        #expect(try !s.tasks("inbox.json").titles.contains("Old thing"))
        // No change: nothing written.
        let before = try s.bytes("inbox.json")
        let r2 = try s.tick("open", "1", "--edit", env: ["EDITOR": "true", "VISUAL": nil])
        #expect(r2.status == 0)
        #expect(r2.stdout == "No changes.\n")
        #expect(try s.bytes("inbox.json") == before)
    }

    @Test("tick open with an unknown id exits 3")
    func openUnknown() throws {
        let s = try Self.mixed()
        #expect(try s.tick("open", "99").status == 3)
        #expect(try s.tick("open", "99", "--edit", env: ["EDITOR": "true"]).status == 3)
    }
}
