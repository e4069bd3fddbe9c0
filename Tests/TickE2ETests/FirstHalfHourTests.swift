import Foundation
import Testing

/// What a Taskwarrior user still tripped on in the first half hour (issue
/// 46), on the built binary: Taskwarrior's date words, filters before the
/// command, lists made on first use, done tasks that stay done, and the
/// refusals and messages around them. (Sandbox: Sat 2026-11-21, Berlin.)
@Suite struct FirstHalfHourTests {
    @Test("sow/som/soy are this period's start, eow its end; due.before:eow includes Sunday")
    func taskwarriorsPeriodWords() throws {
        let s = try Sandbox()
        let sunday = try s.add("Sunday", "due:2026-11-22")
        _ = try s.add("Sunday evening", "due:2026-11-22T21:30")
        _ = try s.add("Next Monday", "due:2026-11-23")
        _ = try s.add("This Monday", "due:2026-11-16")
        #expect(try s.json("list", "due.before:eow").titles.sorted() == ["Sunday", "Sunday evening", "This Monday"])
        #expect(try s.json("list", "due.by:eow").titles.sorted() == ["Sunday", "Sunday evening", "This Monday"])
        #expect(try s.json("list", "due.after:eow").titles == ["Next Monday"])
        #expect(try s.json("list", "due.after:sow").titles.sorted() == ["Next Monday", "Sunday", "Sunday evening", "This Monday"])
        #expect(try s.json("list", "due.before:sow").titles.isEmpty)
        #expect(try s.json("list", "due:eow").titles.sorted() == ["Sunday", "Sunday evening"])
        // Set as dates: this week's Monday, this month's 1st, 1 January; sonw the next Monday.
        try s.ok("edit", sunday, "due:sow")
        #expect(try s.showJSON(sunday).string("due") == "2026-11-16")
        try s.ok("edit", sunday, "due:som")
        #expect(try s.showJSON(sunday).string("due") == "2026-11-01")
        try s.ok("edit", sunday, "due:soy")
        #expect(try s.showJSON(sunday).string("due") == "2026-01-01")
        try s.ok("edit", sunday, "due:sonw")
        #expect(try s.showJSON(sunday).string("due") == "2026-11-23")
        try s.ok("edit", sunday, "due:eoq")
        #expect(try s.showJSON(sunday).string("due") == "2026-12-31")
        // The help says so.
        #expect(try s.ok("help").contains("sow  som  soq  soy (this week's/month's/... start)"))
    }
}
