import Foundation
import Testing

/// Issue 13's input grammar, with the built binary: one duration grammar, the WHEN words
/// users expect (pinned zone and clock next to a DST change), `tick edit`'s stray words,
/// literal titles, and zone-less times in the `$EDITOR` buffer.
@Suite("input grammar")
struct InputGrammarTests {
    /// New York springs forward on Sun 2026-03-08 at 02:00 EST -> 03:00 EDT; this is 01:45 EST.
    static let newYorkBeforeJump = "2026-03-08T06:45:00Z"
    static let newYork: [String: String?] = ["TZ": "America/New_York"]
    /// Berlin falls back on Sun 2026-10-25 at 03:00 CEST -> 02:00 CET; this is 00:30 CEST that Sunday.
    static let berlinBeforeFallBack = "2026-10-24T22:30:00Z"

    /// The one task of the inbox with `title`.
    func task(_ s: Sandbox, _ title: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        try #require(try s.tasks("inbox.json").task(title), sourceLocation: sourceLocation)
    }

    /// Expects exit 2 with one `tick: error:` line containing every one of `parts`, and no change to the store.
    func expectRefused(_ s: Sandbox, _ args: [String], now: String? = nil, env: [String: String?] = [:], _ parts: [String],
                       sourceLocation: SourceLocation = #_sourceLocation) throws {
        let before = try s.fingerprint()
        let r = try s.tick(args, now: now, env: env)
        #expect(r.status == 2, "\(r)", sourceLocation: sourceLocation)
        #expect(r.stderr.hasPrefix("tick: error: ") && r.stderr.filter { $0 == "\n" }.count == 1, "\(r)", sourceLocation: sourceLocation)
        for part in parts {
            #expect(r.stderr.contains(part), "\(part) in \(r.stderr)", sourceLocation: sourceLocation)
        }
        #expect(try s.fingerprint() == before, sourceLocation: sourceLocation)
    }

    // MARK: 1. One duration grammar

    @Test("remind:30m is thirty minutes from now (it was 30 months), across New York's spring-forward")
    func remindThirtyMinutes() throws {
        let s = try Sandbox()
        try s.ok("add", "Check", "oven", "remind:30m", "estimate:30m", now: Self.newYorkBeforeJump, env: Self.newYork)
        let t = try task(s, "Check oven")
        // 01:45 EST + 30 minutes of elapsed time = 03:15 EDT.
        #expect(t.string("remind") == "2026-03-08T07:15:00Z")
        #expect(t.int("estimate") == 30)
    }

    @Test("in 2h, +2h, 2h, in 120min and the --remind flag are the same instant", arguments: ["in 2h", "+2h", "2h", "in 120min", "in 2 hours"])
    func twoHours(_ when: String) throws {
        let s = try Sandbox()
        try s.ok("add", "Token", "remind:\(when)", now: Self.newYorkBeforeJump, env: Self.newYork)
        try s.ok("add", "Flag", "--remind", when, now: Self.newYorkBeforeJump, env: Self.newYork)
        // 01:45 EST plus two elapsed hours is 04:45 EDT.
        #expect(try task(s, "Token").string("remind") == "2026-03-08T08:45:00Z")
        #expect(try task(s, "Flag").string("remind") == "2026-03-08T08:45:00Z")
    }

    @Test("due:2h is a date-time, due:3mo a day; days and longer stay all-day dates")
    func dueUnits() throws {
        let s = try Sandbox()
        try s.ok("add", "A", "due:2h", now: Self.newYorkBeforeJump, env: Self.newYork)
        try s.ok("add", "B", "due:3mo", now: Self.newYorkBeforeJump, env: Self.newYork)
        try s.ok("add", "C", "sched:1w", now: Self.newYorkBeforeJump, env: Self.newYork)
        #expect(try task(s, "A").string("due") == "2026-03-08T08:45:00Z")
        #expect(try task(s, "B").string("due") == "2026-06-08")
        #expect(try task(s, "C").string("scheduled") == "2026-03-15")
    }

    @Test("ambiguous or unlikely durations are refused with the alternatives, and change nothing", arguments: [
        (["X", "remind:30M"], ["ambiguous", "30min", "30mo"]),
        (["X", "--remind", "30M"], ["ambiguous", "30min", "30mo"]),
        (["X", "sched:2h"], ["2 hours from now", "only a day"]),
        (["X", "sched:3m"], ["3 minutes", "3mo"]),
        (["X", "repeat:+1m"], ["minutes", "repeat:+1mo"]),
        (["X", "estimate:2d"], ["2 days", "minutes or hours"]),
    ])
    func refusedDurations(_ words: [String], _ parts: [String]) throws {
        let s = try Sandbox()
        try s.add("Keep")
        try expectRefused(s, ["add"] + words, parts)
    }

    @Test("--help of add and edit points to the grammar in Docs/CLI.md")
    func helpPointsToGrammar() throws {
        let s = try Sandbox()
        let add = try s.ok("add", "--help")
        #expect(add.contains("Docs/CLI.md"))
        #expect(add.contains("mo = months"))
        #expect(add.contains("min or m = minutes"))
        let edit = try s.ok("edit", "--help")
        #expect(edit.contains("Docs/CLI.md"))
        let root = try s.ok("--help")
        #expect(root.contains("mo = months"))
    }

    // MARK: 2. WHEN words

    @Test("WHEN words around Berlin's fall-back (Sun 2026-10-25, 00:30 CEST)", arguments: [
        (["due:now"], "due", "2026-10-24T22:30:00Z"),
        (["due:noon"], "due", "2026-10-25T11:00:00Z"),          // 12:00 CET, after the change
        (["due:eod"], "due", "2026-10-25"),
        (["due:sow"], "due", "2026-10-19"),
        (["due:som"], "due", "2026-10-01"),
        (["due:soy"], "due", "2026-01-01"),
        (["due:sonw"], "due", "2026-10-26"),
        (["due:eom"], "due", "2026-10-31"),
        (["due:eoy"], "due", "2026-12-31"),
        (["due:dec 24"], "due", "2026-12-24"),
        (["due:dec", "24"], "due", "2026-12-24"),
        (["due:24 dec"], "due", "2026-12-24"),
        (["due:24", "dec"], "due", "2026-12-24"),
        (["due:1st"], "due", "2026-11-01"),
        (["due:15th"], "due", "2026-11-15"),
        (["due:next monday"], "due", "2026-10-26"),
        (["due:next", "monday"], "due", "2026-10-26"),
        (["due:fri@17"], "due", "2026-10-30T16:00:00Z"),       // 17:00 CET
        (["remind:in 90min"], "remind", "2026-10-25T00:00:00Z"), // 90 elapsed minutes: 01:00 CET
        (["remind:in", "90min"], "remind", "2026-10-25T00:00:00Z"),
        (["remind:in 3h"], "remind", "2026-10-25T01:30:00Z"),   // 02:30 CET, the repeated hour's second pass
        (["remind:dec 24@noon"], "remind", "2026-12-24T11:00:00Z"),
        (["sched:next", "mon"], "scheduled", "2026-10-26"),
    ])
    func whenWords(_ tokens: [String], _ key: String, _ stored: String) throws {
        let s = try Sandbox()
        let r = try s.tick(["add", "Task"] + tokens + ["now"], now: Self.berlinBeforeFallBack)
        #expect(r.status == 0, "\(r)")
        let t = try task(s, "Task now")
        #expect(t.string(key) == stored, "\(tokens)")
    }

    @Test("noon and fri@17 the week before, in summer time, are an hour earlier in UTC")
    func beforeTheChange() throws {
        let s = try Sandbox()
        try s.ok("add", "A", "due:noon", "remind:sat@9", now: "2026-10-23T08:00:00Z")   // Fri 10:00 CEST
        #expect(try task(s, "A").string("due") == "2026-10-23T10:00:00Z")
        #expect(try task(s, "A").string("remind") == "2026-10-24T07:00:00Z")
    }

    @Test("multi-word WHEN values work on stdin lines and as one flag value")
    func multiWordOnStdinAndFlags() throws {
        let s = try Sandbox()
        let r = try s.tick(["add", "-"], stdin: "Buy tree due:dec 24 early\nCall Sam remind:in 2 hours\n", now: Self.berlinBeforeFallBack)
        #expect(r.status == 0, "\(r)")
        try s.ok("add", "Flag", "--due", "next monday", "--remind", "24 dec@noon", now: Self.berlinBeforeFallBack)
        #expect(try task(s, "Buy tree early").string("due") == "2026-12-24")
        #expect(try task(s, "Call Sam").string("remind") == "2026-10-25T00:30:00Z")   // two elapsed hours: 01:30 CET
        #expect(try task(s, "Flag").string("due") == "2026-10-26")
        #expect(try task(s, "Flag").string("remind") == "2026-12-24T11:00:00Z")
    }

    // MARK: 3. tick edit and stray words

    @Test("tick edit 1 2 due:fri is refused, naming the stray word (it renamed the task to \"2\")")
    func editStrayWord() throws {
        let s = try Sandbox()
        try s.add("Call the bank", "due:today")
        try expectRefused(s, ["edit", "1", "2", "due:fri"], ["stray word \"2\"", "--title \"2\""])
        try expectRefused(s, ["edit", "1", "New", "name", "--pri", "must"], ["\"New\", \"name\"", "--title \"New name\""])
        #expect(try task(s, "Call the bank").string("due") == "2026-11-21")
    }

    @Test("tick edit 27 due: fri is refused (it cleared the due date and renamed the task to \"fri\")")
    func editSeparatedValue() throws {
        let s = try Sandbox()
        try s.add("Call the bank", "due:today")
        try expectRefused(s, ["edit", "1", "due:", "fri"], ["due:fri", "due:none"])
        try expectRefused(s, ["add", "Pay", "due:", "fri"], ["due:fri"])
    }

    @Test("due: at the end or before a token clears, due:none clears, words alone rename")
    func editClearsAndRenames() throws {
        let s = try Sandbox()
        try s.add("A", "due:today", "remind:tomorrow", "pri:must")
        try s.ok("edit", "1", "due:", "+x")
        try s.ok("edit", "1", "remind:none", "pri:")
        try s.ok("edit", "1", "Call", "the", "bank")
        let t = try task(s, "Call the bank")
        #expect(t["due"] == nil && t["remind"] == nil && t["priority"] == nil)
        #expect(t.tagList == ["x"])
    }

    // MARK: 4. Literal titles

    @Test("prose with colons and pluses stays title text", arguments: [
        (["Remind: Sam about keys"], "Remind: Sam about keys"),
        (["Remind:", "Sam", "about", "keys"], "Remind: Sam about keys"),
        (["Email", "Anna", "at:home"], "Email Anna at:home"),
        (["Meet", "+1", "today"], "Meet +1 today"),
        (["Note:x", "and", "ratio", "16:9"], "Note:x and ratio 16:9"),
        (["--", "due:fri", "+tag", "is", "text"], "due:fri +tag is text"),
        (["Review", "\\due:", "dates"], "Review due: dates"),
    ])
    func literalTitles(_ words: [String], _ title: String) throws {
        let s = try Sandbox()
        let r = try s.tick(["add"] + words)
        #expect(r.status == 0, "\(r)")
        let t = try task(s, title)
        #expect(Set(t.keys) == ["id", "title", "state", "createdAt", "modifiedAt"], "\(t)")
    }

    @Test("a bad value of a known key says how to write it as text", arguments: [
        ["Lunch", "due:fribay"], ["Lunch", "at:25:00"], ["Lunch", "pri:urgent"],
    ])
    func badValueMentionsLiteral(_ words: [String]) throws {
        let s = try Sandbox()
        try s.add("Keep")
        try expectRefused(s, ["add"] + words, ["after `--`", "\\\(words[1])"])
    }

    // MARK: 5. Times in the $EDITOR buffer

    @Test("a time typed without a zone in $EDITOR is local time (it was read as UTC), and the header says so")
    func editorLocalTimes() throws {
        let s = try Sandbox()
        try s.add("A", now: "2026-03-07T17:00:00Z")
        let seen = s.root + "/seen.json"
        let editor = try s.script("editor.sh", """
        cp "$1" '\(seen)'
        sed -i 's/"state": "open",/"state": "open", "due": "2026-03-08T09:00", "remind": "2026-03-07T21:00:00", "completedAt": "2026-03-08T09:00:00Z",/' "$1"
        """)
        let r = try s.tick("edit", "1", now: "2026-03-07T17:00:00Z", env: ["EDITOR": editor, "TZ": "America/New_York"])
        #expect(r.status == 0, "\(r)")
        let t = try task(s, "A")
        #expect(t.string("due") == "2026-03-08T13:00:00Z")      // 09:00 EDT, after the jump
        #expect(t.string("remind") == "2026-03-08T02:00:00Z")   // 21:00 EST
        #expect(t.string("completedAt") == "2026-03-08T09:00:00Z")
        let header = String(decoding: FileManager.default.contents(atPath: seen) ?? Data(), as: UTF8.self)
        #expect(header.hasPrefix("// "))
        #expect(header.contains("without a zone") && header.contains("local zone, America/New_York"))
    }
}
