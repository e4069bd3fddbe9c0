import Foundation
import Testing

/// Dates tick could write but not read back are refused at input (exit 2, one
/// `tick: error:` line, nothing written), and a repeating series stops before one.
@Suite("date range")
struct DateRangeE2ETests {
    /// A store with one task, so there is a file that must stay as it is.
    static func store() throws -> Sandbox {
        let s = try Sandbox()
        try s.add("Keep")
        return s
    }

    /// stderr is exactly one line starting with `prefix`; stdout is empty.
    static func expectOneErrorLine(_ r: RunResult, prefix: String = "tick: error: ", containing text: String,
                                   sourceLocation: SourceLocation = #_sourceLocation) {
        let lines = r.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 1 && r.stderr.hasSuffix("\n"), "\(r)", sourceLocation: sourceLocation)
        #expect(r.stderr.hasPrefix(prefix), "\(r)", sourceLocation: sourceLocation)
        #expect(r.stderr.contains(text), "\(r)", sourceLocation: sourceLocation)
        #expect(r.stdout.isEmpty, "\(r)", sourceLocation: sourceLocation)
    }

    /// The store still loads: `tick list --all` exits 0 and shows `titles`.
    static func expectLoads(_ s: Sandbox, _ titles: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let r = try s.tick("list", "--all", "--json")
        #expect(r.status == 0, "\(r)", sourceLocation: sourceLocation)
        let tasks = try JSONSerialization.jsonObject(with: r.stdoutData) as? [[String: Any]] ?? []
        #expect(tasks.compactMap { $0["title"] as? String }.sorted() == titles.sorted(), sourceLocation: sourceLocation)
    }

    @Test("add refuses a date outside 1970-01-01...9999-12-31 and writes nothing", arguments: [
        ["X", "due:7974y"], ["X", "due:99999mo"], ["X", "sched:99999y"], ["X", "remind:0000-01-01@9am"],
        ["X", "--due", "7974y"], ["X", "due:1969-12-31"], ["X", "at:0001-01-01T10:00"],
    ])
    func addRefuses(_ words: [String]) throws {
        let s = try Self.store()
        let before = try s.fingerprint()
        let r = try s.tick(["add"] + words)
        #expect(r.status == 2, "\(r)")
        Self.expectOneErrorLine(r, containing: "outside the dates tick can store (1970-01-01 to 9999-12-31")
        #expect(try s.fingerprint() == before)
        try Self.expectLoads(s, ["Keep"])
    }

    @Test("a time late on 9999-12-31 west of UTC is already year 10000 in UTC: refused")
    func westernZone() throws {
        let s = try Self.store()
        let before = try s.fingerprint()
        let r = try s.tick("add", "X", "due:9999-12-31@23:00", env: ["TZ": "America/Los_Angeles"])
        #expect(r.status == 2, "\(r)")
        Self.expectOneErrorLine(r, containing: #"due: "9999-12-31@23:00" is outside the dates tick can store"#)
        #expect(try s.fingerprint() == before)
        // The same wall time in Berlin is in range.
        try s.add("Last", "due:9999-12-31@23:00")
        try Self.expectLoads(s, ["Keep", "Last"])
    }

    @Test("edit refuses an out-of-range date and writes nothing")
    func editRefuses() throws {
        let s = try Self.store()
        let before = try s.fingerprint()
        let r = try s.tick("edit", "1", "due:7974y")
        #expect(r.status == 2, "\(r)")
        Self.expectOneErrorLine(r, containing: #"tick: error: due: "7974y" is 10000-11-21, outside the dates tick can store (1970-01-01 to 9999-12-31)"#)
        #expect(try s.fingerprint() == before)
        try Self.expectLoads(s, ["Keep"])
    }

    @Test("an .ics DUE that is year 10000 in UTC is refused, naming the record; nothing is imported")
    func icsImport() throws {
        let s = try Self.store()
        let file = s.root + "/io/far.ics"
        try Data("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VTODO\r\nSUMMARY:Far away\r\nDUE:99991231T230000\r\nEND:VTODO\r\nEND:VCALENDAR\r\n".utf8)
            .write(to: URL(fileURLWithPath: file))
        let before = try s.fingerprint()
        let r = try s.tick("import", file, env: ["TZ": "America/Los_Angeles"])
        // Import errors keep their documented form: FILE:LINE: error: ...; exit 4.
        #expect(r.status == 4, "\(r)")
        Self.expectOneErrorLine(r, prefix: file + ":3: error: ",
                                containing: #"task "Far away": due 10000-01-01T07:00:00Z is outside the dates tick can store (1970-01-01 to 9999-12-31); nothing was imported"#)
        #expect(try s.fingerprint() == before)
        try Self.expectLoads(s, ["Keep"])
    }

    @Test("a CSV due with an offset past 9999 in UTC is refused; nothing is imported")
    func csvImport() throws {
        let s = try Self.store()
        let file = s.root + "/io/far.csv"
        try Data("title,due\nFar,9999-12-31T23:00:00-05:00\n".utf8).write(to: URL(fileURLWithPath: file))
        let before = try s.fingerprint()
        // --strict refuses the file; without it the row is skipped (exit 4 too), and nothing is imported either way.
        let r = try s.tick("import", file, "--strict")
        #expect(r.status == 4, "\(r)")
        Self.expectOneErrorLine(r, prefix: file + ":2: error: ", containing: "nothing was imported")
        #expect(try s.fingerprint() == before)
        let skipped = try s.tick("import", file)
        #expect(skipped.status == 4 && skipped.stderr.contains(file + ":2: error: ") && skipped.stderr.contains("the row was skipped"), "\(skipped)")
        #expect(try s.fingerprint() == before)
        try Self.expectLoads(s, ["Keep"])
    }

    @Test("completing a repeating task whose next occurrence would pass 9999-12-31 ends the series", arguments: [
        ["due:9999-12-31", "repeat:daily"], ["due:9999-06-01", "repeat:yearly"], ["sched:9999-12-31", "repeat:weekly"],
    ])
    func recurrenceStops(_ tokens: [String]) throws {
        let s = try Sandbox()
        let id = try s.tick(["add", "Forever"] + tokens).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let r = try s.tick("done", id)
        #expect(r.status == 0, "\(r)")
        #expect(r.stderr.contains("tick: warning: no next occurrence for "), "\(r)")
        #expect(r.stderr.contains("outside the dates tick can store (1970-01-01 to 9999-12-31); the series ends here"), "\(r)")
        #expect(!r.stdout.contains("Next:"), "\(r)")
        try Self.expectLoads(s, ["Forever"])
        #expect(try s.tasks("inbox.json").count == 1)
    }
}
