import Foundation
import Testing

/// Changes by filter (done/start/rm/mv/edit with a filter, the confirmation
/// above `[bulk] confirm`, one undo entry), contexts and reports, end to end.
@Suite("changes by filter, contexts, reports")
struct BulkAndContextTests {
    /// A store with four errands at home, one at work, and one unrelated task.
    func errands() throws -> Sandbox {
        let s = try Sandbox()
        try s.ok("lists", "add", "Home")
        try s.ok("lists", "add", "Work")
        for t in ["Post letter", "Buy bulbs", "Return book", "Pick up parcel"] {
            try s.ok("add", t, "+errand", "--list", "Home")
        }
        try s.ok("add", "Print slides", "+errand", "--list", "Work")
        try s.ok("add", "Write report", "+work", "--list", "Work")
        return s
    }

    func states(_ s: Sandbox) throws -> [String: String] {
        var out: [String: String] = [:]
        for file in ["lists/home.json", "lists/work.json"] {
            for t in try s.tasks(file) { out[t["title"] as? String ?? ""] = t["state"] as? String }
        }
        return out
    }

    @Test("done FILTER completes exactly the tasks the filter selects; more than [bulk] confirm needs --yes in a script; undo reverts all in one step")
    func doneByFilter() throws {
        let s = try errands()
        // Four at home: more than 3, no terminal, no --yes: refused, nothing written.
        let before = try s.fingerprint()
        let refused = try s.tick("done", "+errand", "list:Home")
        #expect(refused.status == 1)
        #expect(refused.stderr.hasPrefix("tick: error: refusing to complete 4 tasks matching +errand list:Home without confirmation"))
        #expect(try s.fingerprint() == before)
        // [bulk] confirm = 5 lets four through without asking.
        try FileManager.default.createDirectory(atPath: s.home + "/.config/tick", withIntermediateDirectories: true)
        try "[bulk]\nconfirm = 5\n".write(toFile: s.home + "/.config/tick/config.toml", atomically: true, encoding: .utf8)
        let out = try s.ok("done", "+errand", "list:Home")
        #expect(out.split(separator: "\n").count == 4)
        var st = try states(s)
        #expect(["Post letter", "Buy bulbs", "Return book", "Pick up parcel"].allSatisfy { st[$0] == "done" })
        #expect(st["Print slides"] == "open" && st["Write report"] == "open")
        try s.ok("undo")
        st = try states(s)
        #expect(st.values.allSatisfy { $0 == "open" }, "one undo entry reverts the whole change: \(st)")
        // --yes in a script, with the default threshold.
        try FileManager.default.removeItem(atPath: s.home + "/.config/tick/config.toml")
        try s.ok("done", "+errand", "--yes")
        #expect(try states(s).filter { $0.value == "done" }.count == 5)
        // reopen FILTER looks at done tasks.
        try s.ok("reopen", "list:Work", "+errand")
        #expect(try states(s)["Print slides"] == "open")
    }

    @Test("ids keep their strict meaning: a missing id is exit 3; 4 hex letters alone are a word, as in a filter; ranges and lists work")
    func idsStayIDs() throws {
        let s = try errands()
        let missing = try s.tick("done", "99")
        #expect(missing.status == 3)
        let beef = try s.tick("done", "beef")
        #expect(beef.status == 3, "\(beef)")
        #expect(beef.stderr == "tick: error: no pending task matches beef\n", "a word of text, as `tick list beef +errand` reads it")
        #expect(try states(s).values.allSatisfy { $0 == "open" })
        let listed = try s.json("list", "+errand")
        let ids = listed.compactMap { $0["shortId"] as? Int }.sorted()
        try s.ok("done", "\(ids[0])-\(ids[1]),\(ids[3])")
        #expect(try states(s).filter { $0.value == "done" }.count == 3)
        let nothing = try s.tick("rm", "+nosuchtag")
        #expect(nothing.status == 3)
        #expect(nothing.stderr == "tick: error: no pending task matches +nosuchtag\n")
    }

    @Test("edit FILTER -- CHANGES changes every selected task; edit ID -- words still renames; mv FILTER LIST moves")
    func editAndMoveByFilter() throws {
        let s = try errands()
        try s.ok("edit", "+errand", "list:Work", "--", "sched:mon", "-errand", "+office")
        let work = try s.tasks("lists/work.json")
        let slides = try #require(work.first { $0["title"] as? String == "Print slides" })
        #expect(slides["scheduled"] as? String == "2026-11-23")
        #expect(slides["tags"] as? [String] == ["office"])
        let report = try #require(work.first { $0["title"] as? String == "Write report" })
        #expect(report["scheduled"] == nil)
        // The old form: one id, tokens, then a literal title after --.
        let id = try #require(try s.json("list", "+work").first?["shortId"] as? Int)
        try s.ok("edit", "\(id)", "--", "sched:mon", "is", "a", "title")
        #expect(try s.tasks("lists/work.json").contains { $0["title"] as? String == "sched:mon is a title" })
        // A rename by filter is refused.
        let rename = try s.tick("edit", "+office", "--", "New", "name")
        #expect(rename.status == 2)
        try s.ok("mv", "+office", "Home")
        #expect(try s.tasks("lists/home.json").contains { $0["title"] as? String == "Print slides" })
        #expect(try !s.tasks("lists/work.json").contains { $0["title"] as? String == "Print slides" })
    }

    @Test("on a real terminal (tmux), a change to more than 3 tasks asks: n changes nothing, y changes them all")
    func confirmationOnATerminal() throws {
        let s = try errands()
        let env = s.environment().map { "\($0.key)=\(Self.shellQuoted($0.value))" }.sorted().joined(separator: " ")
        let socket = s.root + "/tmux.sock"
        defer { _ = try? s.sh("tmux -S \(Self.shellQuoted(socket)) kill-server") }
        func session(_ name: String) throws -> (String) throws -> String {
            let command = "env -i \(env) \(Self.shellQuoted(TickBinary.path)) done +errand list:Home; echo EXIT:$?; sleep 600"
            // The tmux server outlives this call: started with only stdin/out/err open
            // (Python closes the rest), so it does not hold the descriptor by which
            // Foundation's Process learns that its child ended.
            let r = try s.run("/usr/bin/env", ["python3", "-c", "import subprocess, sys; sys.exit(subprocess.call(sys.argv[1:], close_fds=True))",
                                               "tmux", "-S", socket, "new-session", "-d", "-s", name, "-x", "150", "-y", "40", command])
            #expect(r.status == 0, "\(r)")
            return { _ in try s.sh("tmux -S \(Self.shellQuoted(socket)) capture-pane -p -t \(name)").stdout }
        }
        func waitFor(_ text: String, _ capture: (String) throws -> String) throws -> String {
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline {
                let screen = try capture("")
                if screen.contains(text) { return screen }
                usleep(50_000)
            }
            Issue.record("the terminal never showed \(text): \(try capture(""))")
            return ""
        }
        let no = try session("no")
        let asked = try waitFor("Complete these 4 tasks? [y/N]", no)
        #expect(asked.contains("Post letter") && asked.contains("Pick up parcel"), "the question lists the tasks: \(asked)")
        _ = try s.sh("tmux -S \(Self.shellQuoted(socket)) send-keys -t no n Enter")
        let cancelled = try waitFor("EXIT:1", no)
        #expect(cancelled.contains("cancelled; nothing was changed"))
        #expect(try states(s).values.allSatisfy { $0 == "open" })
        let yes = try session("yes")
        _ = try waitFor("Complete these 4 tasks? [y/N]", yes)
        _ = try s.sh("tmux -S \(Self.shellQuoted(socket)) send-keys -t yes y Enter")
        _ = try waitFor("EXIT:0", yes)
        #expect(try states(s).filter { $0.value == "done" }.count == 4)
    }

    static func shellQuoted(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    @Test("on a real terminal (tmux), a long listing waits in less (the default pager) until q; a short one is printed and less exits by itself",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/less"), "less is not installed (the default pager)"))
    func pagerOnATerminal() throws {
        let s = try Sandbox()
        try s.add("Short list")
        try s.ok("lists", "add", "Long")
        for i in 1...60 { try s.add("Long task \(i)", "list:Long") }
        var environment = s.environment(["TICK_PAGER": nil, "TERM": "xterm"])
        environment["PAGER"] = nil
        let env = environment.map { "\($0.key)=\(Self.shellQuoted($0.value))" }.sorted().joined(separator: " ")
        let socket = s.root + "/tmux.sock"
        defer { _ = try? s.sh("tmux -S \(Self.shellQuoted(socket)) kill-server") }
        func session(_ name: String, _ args: String) throws -> () throws -> String {
            let command = "env -i \(env) \(Self.shellQuoted(TickBinary.path)) \(args); echo EXIT:$?; sleep 600"
            let r = try s.run("/usr/bin/env", ["python3", "-c", "import subprocess, sys; sys.exit(subprocess.call(sys.argv[1:], close_fds=True))",
                                               "tmux", "-S", socket, "new-session", "-d", "-s", name, "-x", "100", "-y", "20", command])
            #expect(r.status == 0, "\(r)")
            return { try s.sh("tmux -S \(Self.shellQuoted(socket)) capture-pane -p -t \(name)").stdout }
        }
        func waitFor(_ text: String, _ capture: () throws -> String) throws -> String {
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline {
                let screen = try capture()
                if screen.contains(text) { return screen }
                usleep(50_000)
            }
            Issue.record("the terminal never showed \(text): \(try capture())")
            return ""
        }
        let short = try session("short", "inbox")
        let printed = try waitFor("EXIT:0", short)
        #expect(printed.contains("1 [ ] Short list"), "\(printed)")
        let long = try session("long", "list Long")
        let paged = try waitFor("Long task 1", long)
        #expect(!paged.contains("EXIT:"), "the pager waits for the reader: \(paged)")
        _ = try s.sh("tmux -S \(Self.shellQuoted(socket)) send-keys -t long q")
        _ = try waitFor("EXIT:0", long)
    }

    @Test("a context narrows every listing, the status line and changes by filter, says it is on, lives outside the store, and keeps config.toml's other lines")
    func contexts() throws {
        let s = try errands()
        try s.ok("add", "Call mom", "due:today")
        try s.ok("add", "Fix sink", "due:today", "+home", "--list", "Home")
        let config = s.home + "/.config/tick/config.toml"
        try FileManager.default.createDirectory(atPath: s.home + "/.config/tick", withIntermediateDirectories: true)
        try "# my settings\n[plan]\nhours = \"09:00-17:00\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        let storeBefore = try s.fingerprint()
        try s.ok("context", "define", "home", "list:Home or +home")
        let text = try String(contentsOfFile: config, encoding: .utf8)
        #expect(text.hasPrefix("# my settings\n[plan]\nhours = \"09:00-17:00\"\n"))
        #expect(text.contains("[contexts]\nhome = \"list:Home or +home\"\n"))
        try s.ok("context", "home")
        #expect(try s.fingerprint() == storeBefore, "defining and switching contexts never touches the store")
        let listing = try s.ok("list")
        #expect(listing.contains("Post letter") && listing.contains("Fix sink"))
        #expect(!listing.contains("Write report") && !listing.contains("Call mom"))
        #expect(listing.hasSuffix("(context home is active (list:Home or +home); tick context none shows everything)\n"))
        let json = try s.tick("today", "--json")
        #expect(json.stderr == "tick: context home is active (list:Home or +home); tick context none shows everything\n")
        let titles = (try JSONSerialization.jsonObject(with: json.stdoutData) as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
        #expect(titles == ["Fix sink"])
        #expect(try s.ok("status-line") == "[home] 1 due · Fix sink\n")
        // TICK_CONTEXT=none for one command; the active one stays.
        let all = try s.ok("list", env: ["TICK_CONTEXT": "none"])
        #expect(all.contains("Call mom"))
        // Changes by filter stay inside the context: +errand here means the home errands only.
        try s.ok("done", "+errand", "--yes")
        #expect(try states(s)["Print slides"] == "open")
        #expect(try states(s)["Post letter"] == "done")
        try s.ok("context", "none")
        #expect(try s.ok("list").contains("Call mom"))
        let unknown = try s.tick("context", "hom")
        #expect(unknown.status == 3)
        #expect(unknown.stderr.contains("did you mean home?"))
        // A list one letter from an existing one is a typo: refused (a new name is made, issue 46).
        let bad = try s.tick("context", "define", "x", "list:Hme")
        #expect(bad.status == 3 && bad.stderr.contains("did you mean \"Home\"?"), "\(bad)")
        #expect(try !String(contentsOfFile: config, encoding: .utf8).contains("x ="))
    }

    @Test("a report from config.toml runs as tick NAME with its filter, sort and limit; more words narrow it")
    func reports() throws {
        let s = try errands()
        try s.ok("add", "Pay rent", "due:2026-11-25", "pri:must")
        try s.ok("add", "Book flights", "due:2026-11-23", "pri:must")
        try s.ok("add", "Renew passport", "due:2026-11-30", "pri:must", "+travel")
        try FileManager.default.createDirectory(atPath: s.home + "/.config/tick", withIntermediateDirectories: true)
        try "[reports.next]\nfilter = \"pri:must\"\nsort = \"due\"\nlimit = 2\ndescription = \"Next up\"\n"
            .write(toFile: s.home + "/.config/tick/config.toml", atomically: true, encoding: .utf8)
        let next = try s.json("next")
        #expect(next.compactMap { $0["title"] as? String } == ["Book flights", "Pay rent"])
        let travel = try s.json("next", "+travel")
        #expect(travel.compactMap { $0["title"] as? String } == ["Renew passport"])
        #expect(try s.ok("report").contains("next  Next up"))
        try "[reports.next]\nfilter = \"pri:must\"\nsort = \"due\"\ncolumns = [\"title\", \"due\"]\n"
            .write(toFile: s.home + "/.config/tick/config.toml", atomically: true, encoding: .utf8)
        #expect(try s.ok("next") == """
            TITLE           DUE
            Book flights    Mon 23 Nov
            Pay rent        Wed 25 Nov
            Renew passport  Mon 30 Nov

            """)
    }
}
