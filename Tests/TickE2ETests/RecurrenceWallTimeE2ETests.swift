import Foundation
import Testing

/// Issue 46 with the built binary: a daily series completed day by day (TICK_NOW a
/// minute after each occurrence) across a spring-forward gap is moved forward in
/// the gap and back at its own time after it, in the zone `TZ` names.
@Suite("recurrence: the series' wall time across a DST gap (binary)")
struct RecurrenceWallTimeE2ETests {
    struct Case: Sendable, CustomStringConvertible {
        let zone: String
        /// The first occurrence, as typed.
        let due: String
        /// The series' time and the time the gap moves it to, as the listing shows them.
        let clock: String
        let moved: String
        /// The stored due of the first four occurrences (before, in, after the gap, and the day after).
        let stored: [String]
        var description: String { "\(zone) \(due)" }
    }

    // Gaps from `zdump -v ZONE -c 2027,2028`: New York 2027-03-14 02:00 -> 03:00,
    // Lord Howe 2027-10-03 02:00 -> 02:30, Santiago 2027-09-05 00:00 -> 01:00.
    static let cases = [
        Case(zone: "America/New_York", due: "due:2027-03-13@02:30", clock: "02:30", moved: "03:30",
             stored: ["2027-03-13T07:30:00Z", "2027-03-14T07:30:00Z", "2027-03-15T06:30:00Z", "2027-03-16T06:30:00Z"]),
        Case(zone: "Australia/Lord_Howe", due: "due:2027-10-02@02:15", clock: "02:15", moved: "02:45",
             stored: ["2027-10-01T15:45:00Z", "2027-10-02T15:45:00Z", "2027-10-03T15:15:00Z", "2027-10-04T15:15:00Z"]),
        Case(zone: "America/Santiago", due: "due:2027-09-04@00:30", clock: "00:30", moved: "01:30",
             stored: ["2027-09-04T04:30:00Z", "2027-09-05T04:30:00Z", "2027-09-06T03:30:00Z", "2027-09-07T03:30:00Z"]),
    ]

    /// `instant` plus a minute, as TICK_NOW.
    static func aMinuteAfter(_ instant: String) throws -> String {
        let format = ISO8601DateFormatter()
        let date = try #require(format.date(from: instant), "an ISO instant: \(instant)")
        return format.string(from: date.addingTimeInterval(60))
    }

    @Test("done day by day across the gap: the due is moved in the gap and back at the series' time after it", arguments: cases)
    func doneAcrossTheGap(_ c: Case) throws {
        guard FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/" + c.zone) else {
            Issue.record("tzdata is not installed (/usr/share/zoneinfo/\(c.zone))")
            return
        }
        let s = try Sandbox()
        let env: [String: String?] = ["TZ": c.zone]
        try s.ok("add", "Night job", c.due, "repeat:daily", now: "2027-01-01T00:00:00Z", env: env)
        var dues: [String] = []
        var gapTask: [String: Any]?
        for step in 0..<4 {
            let open = try s.tasks("inbox.json").filter { $0.string("state") == "open" }
            #expect(open.count == 1, "one open occurrence: \(open)")
            let task = try #require(open.first)
            let due = try #require(task.string("due"))
            dues.append(due)
            if step == 1 { gapTask = task }
            let now = try Self.aMinuteAfter(due)
            // What the listing shows while the occurrence is the open one.
            let listed = try s.ok("list", now: now, env: env)
            #expect(listed.contains(step == 1 ? c.moved : c.clock), "step \(step): \(listed)")
            #expect(!listed.contains(step == 1 ? c.clock : c.moved), "step \(step): \(listed)")
            try s.ok("done", String(try #require(task.string("id")).prefix(8)), now: now, env: env)
        }
        #expect(dues == c.stored)
        // The occurrence in the gap keeps the series' time in the file; the others carry nothing.
        #expect((gapTask?["repeatTimes"] as? [String: Any])?["due"] as? String == c.clock, "\(String(describing: gapTask))")
        let all = try s.tasks("inbox.json")
        #expect(all.filter { $0["repeatTimes"] != nil }.count == 1, "\(all)")
        #expect(all.count == 5)
    }
}
