import Foundation
import Testing

/// Past dates where the past is meant (issue 35): `tick stats --since` and
/// `completed`/`created`/`modified` filters read `7d`, `7d ago`, `-7d`,
/// `last week`, `nov 19` and weekday names backwards, and refuse a date that
/// would select nothing. Pinned today: Saturday 2026-11-21, Berlin.
@Suite("past dates")
struct PastDatesE2ETests {
    func firstBar(_ s: Sandbox, since: String) throws -> String? {
        let r = try s.tick("stats", "--period", "day", "--since", since)
        #expect(r.status == 0, "\(r)")
        return r.lines.dropFirst().first
    }

    @Test("stats --since 7d, 7d ago, -7d, last week, nov 19, fri: the chart starts in the past")
    func since() throws {
        let s = try StatsTests.store()
        #expect(try firstBar(s, since: "7d")?.hasPrefix("  Sat 14 Nov") == true)
        #expect(try firstBar(s, since: "7d ago")?.hasPrefix("  Sat 14 Nov") == true)
        #expect(try firstBar(s, since: "-7d")?.hasPrefix("  Sat 14 Nov") == true)
        #expect(try firstBar(s, since: "last week")?.hasPrefix("  Mon 9 Nov") == true)
        #expect(try firstBar(s, since: "nov 19")?.hasPrefix("  Thu 19 Nov") == true)
        #expect(try firstBar(s, since: "fri")?.hasPrefix("  Fri 20 Nov") == true)
        let r = try s.tick("stats", "--since=-2w", "--period", "day")
        #expect(r.lines.dropFirst().first?.hasPrefix("  Sat 7 Nov") == true, "\(r)")
    }

    @Test("stats --since a future day is one error line saying why and what to write")
    func sinceFuture() throws {
        let s = try StatsTests.store()
        let r = try s.tick("stats", "--since", "in 3d")
        #expect(r.status == 2, "\(r)")
        #expect(r.stderr == "tick: error: --since: \"in 3d\" is 2026-11-24, not in the past, so --since would match nothing; "
            + "give a past date, e.g. 7d ago, -2w, yesterday, last week, last month, nov 19, 2026-11-01\n", "\(r)")
        #expect(r.stdout.isEmpty)
    }

    @Test("completed.after: 7d ago, -7d, fri and last week match what was done since; a future one is refused")
    func completedFilters() throws {
        let s = try StatsTests.store()
        // Done: W2 Mon 16 Nov, W3 Thu 19, W4 Fri 20, W5 Sat 21 (today); I3 Thu 12 Nov.
        #expect(Set(try s.json("list", "completed.after:-7d").titles) == ["W2", "W3", "W4", "W5"])
        #expect(Set(try s.json("list", "completed.after:7d ago").titles) == ["W2", "W3", "W4", "W5"])
        #expect(Set(try s.json("list", "completed.after:fri").titles) == ["W5"])
        #expect(Set(try s.json("list", "completed.after:last week").titles) == ["W1", "I3", "W2", "W3", "W4", "W5"])
        #expect(Set(try s.json("list", "completed:\"nov 19\"").titles) == ["W3"])
        #expect(Set(try s.json("list", "completed:nov 19").titles) == ["W3"], "one shell word, unquoted")
        #expect(try s.json("list", "created.after:yesterday").count >= 1, "everything was created today")
        for term in ["completed.after:today", "completed.after:\"in 2d\"", "created:\"dec 24 2026\"", "modified.after:\"next week\""] {
            let r = try s.tick("list", term)
            #expect(r.status == 2, "\(term): \(r)")
            #expect(r.stderr.contains("not in the past, so") && r.stderr.contains("give a past date"), "\(term): \(r)")
        }
        // Due dates still look ahead.
        try s.add("Ahead", "due:fri")
        #expect(try s.json("list", "due:2026-11-27").titles == ["Ahead"])
        #expect(try s.json("list", "due:fri").titles == ["Ahead"])
    }
}
