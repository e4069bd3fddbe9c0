import Foundation
import Testing

/// Issue 36 item 2 with the built binary: local time from the zone files, `TZ` read
/// as the C library reads it (name, `:name`, path, POSIX string, empty, garbage),
/// DST gaps and overlaps, dates past the zone file's table, and iCalendar TZIDs.
@Suite("local time from the zone files")
struct LocalTimeZoneTests {
    /// 2026-07-01T06:00Z: 08:00 CEST in Berlin, 02:00 EDT in New York.
    static let summerMorning = "2026-07-01T06:00:00Z"

    func due(_ s: Sandbox, _ title: String) throws -> String? {
        try #require(try s.tasks("inbox.json").task(title)).string("due")
    }

    @Test("TZ as a name, :name, a path or a POSIX string gives the zone's 09:00; empty and garbage are UTC", arguments: [
        ("Europe/Berlin", "2026-07-01T07:00:00Z"),
        (":Europe/Berlin", "2026-07-01T07:00:00Z"),
        ("/usr/share/zoneinfo/Europe/Berlin", "2026-07-01T07:00:00Z"),
        ("CET-1CEST,M3.5.0,M10.5.0/3", "2026-07-01T07:00:00Z"),
        ("<+0330>-3:30", "2026-07-01T05:30:00Z"),
        ("EST5EDT,M3.2.0,M11.1.0", "2026-07-01T13:00:00Z"),
        // Read as glibc reads them (issue 46): a colon, no end rule, a trailing comma or
        // space, a path through "..", a DST name whose changes come from posixrules.
        (":EST5EDT,M3.2.0,M11.1.0", "2026-07-01T13:00:00Z"),
        ("EST5EDT,M3.2.0", "2026-07-01T13:00:00Z"),
        ("EST5EDT,M3.2.0,M11.1.0,", "2026-07-01T13:00:00Z"),
        ("EST5EDT,M3.2.0,M11.1.0 ", "2026-07-01T13:00:00Z"),
        ("../zoneinfo/Europe/Berlin", "2026-07-01T07:00:00Z"),
        (":../zoneinfo/Europe/Berlin", "2026-07-01T07:00:00Z"),
        ("AAA5BBB", "2026-07-01T13:00:00Z"),
        ("", "2026-07-01T09:00:00Z"),
        ("No/Such_Zone", "2026-07-01T09:00:00Z"),
        ("../../etc/passwd", "2026-07-01T09:00:00Z"),
    ])
    func zoneForms(_ tz: String, _ expected: String) throws {
        guard FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/Europe/Berlin") else {
            Issue.record("tzdata is not installed (/usr/share/zoneinfo/Europe/Berlin)")
            return
        }
        let s = try Sandbox()
        try s.ok("add", "Call", "due:today@9am", now: Self.summerMorning, env: ["TZ": tz])
        #expect(try due(s, "Call") == expected, "TZ=\(tz)")
    }

    @Test("glibc's own readings through the binary: a trailing space ends summer time at midnight; AAA3BBB changes when date says (issue 46)")
    func glibcQuirks() throws {
        let s = try Sandbox()
        // `TZ='EST5EDT,M3.2.0,M11.1.0 ' date -d '2026-11-01 00:30'`: 05:30Z (EST: summer time ended at 00:00).
        try s.ok("add", "Late", "due:2026-11-01@00:30", now: "2026-10-25T12:00:00Z", env: ["TZ": "EST5EDT,M3.2.0,M11.1.0 "])
        #expect(try due(s, "Late") == "2026-11-01T05:30:00Z")
        // `TZ=AAA3BBB date -d '2026-03-08 05:30'`: 08:30Z (posixrules' change, moved as glibc moves it).
        try s.ok("add", "Early", "due:2026-03-08@05:30", now: "2026-03-01T12:00:00Z", env: ["TZ": "AAA3BBB"])
        #expect(try due(s, "Early") == "2026-03-08T08:30:00Z")
    }

    @Test("a time in the spring-forward gap moves forward by the gap; one in the fall-back overlap is its first occurrence")
    func gapAndOverlap() throws {
        let s = try Sandbox()
        let ny: [String: String?] = ["TZ": "America/New_York"]
        // 2026-03-08 02:00 EST -> 03:00 EDT: 02:30 is 03:30 EDT.
        try s.ok("add", "Gap", "due:2026-03-08@2:30am", now: "2026-03-01T12:00:00Z", env: ny)
        #expect(try due(s, "Gap") == "2026-03-08T07:30:00Z")
        // 2026-11-01 02:00 EDT -> 01:00 EST: 01:30 happens twice; the first is 01:30 EDT.
        try s.ok("add", "Overlap", "due:2026-11-01@1:30am", now: "2026-10-25T12:00:00Z", env: ny)
        #expect(try due(s, "Overlap") == "2026-11-01T05:30:00Z")
        // The listing shows it on that day, at 01:30.
        let out = try s.ok("list", "--all", now: "2026-10-31T12:00:00Z", env: ny)
        #expect(out.contains("01:30"), "\(out)")
    }

    @Test("dates past the file's transition table follow its footer rule (summer and winter of 2090)")
    func pastTheTable() throws {
        let s = try Sandbox()
        try s.ok("add", "Summer", "due:2090-07-01@9am", env: ["TZ": "Europe/Berlin"])
        try s.ok("add", "Winter", "due:2090-12-01@9am", env: ["TZ": "Europe/Berlin"])
        #expect(try due(s, "Summer") == "2090-07-01T07:00:00Z")
        #expect(try due(s, "Winter") == "2090-12-01T08:00:00Z")
    }

    @Test("half-hour and 45-minute zones: today's bounds and times follow the zone")
    func oddOffsets() throws {
        let s = try Sandbox()
        // 2026-07-01T18:20Z is 00:05 on July 2 in Kathmandu (+05:45).
        try s.ok("add", "Late", "due:today", now: "2026-07-01T18:20:00Z", env: ["TZ": "Asia/Kathmandu"])
        #expect(try due(s, "Late") == "2026-07-02")
        try s.ok("add", "Chai", "due:today@5pm", now: "2026-07-01T06:00:00Z", env: ["TZ": "Asia/Kolkata"])
        #expect(try due(s, "Chai") == "2026-07-01T11:30:00Z")
    }

    @Test("an iCalendar TZID is read from the zone files; an unknown TZID falls back to the local zone")
    func icalendarTZID() throws {
        let s = try Sandbox()
        let file = s.root + "/io/tz.ics"
        let text = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//test//EN\r
        BEGIN:VTODO\r
        UID:tz-1@example.com\r
        SUMMARY:Sydney call\r
        DUE;TZID=Australia/Sydney:20260115T090000\r
        END:VTODO\r
        BEGIN:VTODO\r
        UID:tz-2@example.com\r
        SUMMARY:Unknown zone\r
        DUE;TZID=Mars/Olympus_Mons:20260115T090000\r
        END:VTODO\r
        END:VCALENDAR\r

        """
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        try s.ok("import", file, now: "2026-01-01T12:00:00Z", env: ["TZ": "Europe/Berlin"])
        let tasks = try s.json("list", "--all", now: "2026-01-01T12:00:00Z")
        let sydney = try #require(tasks.first { $0.string("title") == "Sydney call" })
        let unknown = try #require(tasks.first { $0.string("title") == "Unknown zone" })
        // 09:00 AEDT (+11) is 22:00Z the day before; 09:00 in Berlin (+1) is 08:00Z.
        #expect(sydney.string("due") == "2026-01-14T22:00:00Z")
        #expect(unknown.string("due") == "2026-01-15T08:00:00Z")
    }
}
