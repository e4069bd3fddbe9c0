import Foundation
import Testing

/// `repeat:` on add/edit and `tick done` creating the next occurrence, in the
/// file, with a deterministic id that survives a git merge of two machines.
@Suite("recurrence")
struct RecurrenceE2ETests {
    @Test("done on a recurring task: next occurrence right after it, same content, dates moved, printed")
    func doneCreatesNext() throws {
        let s = try Sandbox()
        try s.ok("lists", "add", "Home")
        try s.add("Pay rent", "due:2026-11-30", "sched:2026-11-28", "remind:2026-11-30@08:00", "repeat:monthly", "+bills", "pri:must", "energy:low", "estimate:20m", "list:Home")
        try s.add("Other", "list:Home")
        try s.ok("edit", "1", "--note", "IBAN DE00")
        let r = try s.tick("done", "1")
        #expect(r.status == 0, "\(r)")
        let prefix = String(try #require(try s.tasks("lists/home.json").first?.string("id")).prefix(8))
        let tasks = try s.tasks("lists/home.json")
        #expect(tasks.map { $0.string("title") } == ["Pay rent", "Pay rent", "Other"])
        let (done, next) = (tasks[0], tasks[1])
        #expect(done.string("state") == "done")
        #expect(next.string("state") == "open")
        #expect(next.string("due") == "2026-12-30")
        #expect(next.string("scheduled") == "2026-12-28")
        #expect(next.string("remind") == "2026-12-30T07:00:00Z")
        #expect(next.tagList == ["bills"])
        #expect(next.string("notes") == "IBAN DE00")
        #expect(next.string("priority") == "must" && next.string("energy") == "low" && next.string("repeat") == "monthly")
        #expect(next.int("estimate") == 20, "the estimate goes with the series: \(next)")
        // UUIDv5 of the predecessor (name "next-occurrence:<id>" in tick's namespace).
        let nextID = try #require(next.string("id"))
        #expect(nextID.dropFirst(14).first == "5", "a version 5 UUID: \(nextID)")
        // The done occurrence keeps 1 for a day (Docs/CLI.md §7): the next one gets the next free number.
        #expect(r.lines == ["Completed 1 (\(prefix)): Pay rent", "Next: 3 (\(nextID.prefix(8))) due Wed 30 Dec"])

        // Done again: nothing new. Reopen (which takes back the untouched next one) and done: one next occurrence again.
        let again = try s.tick("done", prefix)
        #expect(again.status == 0)
        #expect(again.stdout.contains("was already done"))
        try s.ok("reopen", prefix)
        let redo = try s.tick("done", prefix)
        #expect(redo.lines.count == 2 && redo.lines.first == "Completed 1 (\(prefix)): Pay rent", "\(redo)")
        #expect(redo.lines.last?.hasPrefix("Next: ") == true && redo.lines.last?.hasSuffix(" (\(nextID.prefix(8))) due Wed 30 Dec") == true, "the same next occurrence, back: \(redo)")
        #expect(try s.tasks("lists/home.json").count == 3)
    }

    @Test("month end, weekdays, +3d and every 2w through the CLI")
    func rules() throws {
        let s = try Sandbox()
        try s.add("Rent", "due:2026-10-31", "repeat:monthly")
        try s.add("Standup", "due:fri@09:30", "repeat:weekdays")
        try s.add("Water", "due:2026-11-10", "repeat:+3d")
        try s.add("Review", "due:2026-11-20", "repeat:every", "2w")
        try s.add("Gym", "repeat:every", "3", "days")
        try s.ok("done", "1", "2", "3", "4", "5")
        let byTitle = Dictionary(grouping: try s.tasks("inbox.json").filter { $0.string("state") == "open" }) { $0.string("title") ?? "" }
        #expect(byTitle["Rent"]?.first?.string("due") == "2026-11-30")
        #expect(byTitle["Rent"]?.first?.string("repeatAnchor") == "2026-10-31")
        #expect(byTitle["Standup"]?.first?.string("due") == "2026-11-30T08:30:00Z")   // Fri 27 -> Mon 30, 09:30 Berlin
        #expect(byTitle["Water"]?.first?.string("due") == "2026-11-24")               // completed Sat 21 + 3 days
        #expect(byTitle["Review"]?.first?.string("due") == "2026-12-04")
        #expect(byTitle["Gym"]?.first?.string("scheduled") == "2026-11-24")
        #expect(byTitle["Review"]?.first?.string("repeat") == "every 2w")
        #expect(byTitle["Gym"]?.first?.string("repeat") == "every 3 days")
        // The clamped Nov 30 is followed by Dec 31.
        try s.ok("done", try s.uuidPrefixOpen("Rent"))
        #expect(try s.tasks("inbox.json").filter { $0.string("title") == "Rent" && $0.string("state") == "open" }.first?.string("due") == "2026-12-31")
    }

    @Test("an invalid repeat rule is refused at add and edit with exit 2 and a clear message")
    func invalid() throws {
        let s = try Sandbox()
        let r = try s.tick("add", "Thing", "repeat:fortnightly")
        #expect(r.status == 2)
        #expect(r.stderr.contains("repeat: \"fortnightly\" is not a recurrence rule; use daily, weekdays, weekly, monthly, yearly"), "\(r.stderr)")
        let stored = s.exists("inbox.json") ? try s.tasks("inbox.json") : []
        #expect(stored.isEmpty)
        try s.add("Thing")
        let e = try s.tick("edit", "1", "--repeat", "every 0 days")
        #expect(e.status == 2)
        #expect(e.stderr.contains("--repeat: \"every 0 days\" is not a recurrence rule"), "\(e.stderr)")
        try s.ok("edit", "1", "--repeat", "mon,wed,fri")
        #expect(try s.tasks("inbox.json").first?.string("repeat") == "mon,wed,fri")
    }

    @Test("two machines complete the same occurrence: after the merge there is exactly one next occurrence")
    func gitMerge() throws {
        let m = try GitMachines { s in
            try s.ok("lists", "add", "Work")
            try s.add("Weekly report", "due:2026-11-20", "repeat:weekly", "list:Work")
            try s.add("Plants", "due:2026-11-20", "repeat:+3d", "list:Work")
        }
        let (a, b) = (m.a, m.b)
        let report = try a.uuidPrefix("Weekly report")
        let plants = try a.uuidPrefix("Plants")
        try a.ok("done", report, plants, now: "2026-11-21T10:00:00Z")
        try a.commitAll("A done")
        try a.git("push", "-q")
        // B completes the same occurrences a day later: +3d gives another date, same id.
        try b.ok("done", report, plants, now: "2026-11-22T18:00:00Z")
        try b.commitAll("B done")
        let pull = try b.git("pull", "-q", "--no-rebase", "--no-edit")
        #expect(pull.status == 0, "\(pull)")
        let tasks = try b.tasks("lists/work.json")
        #expect(tasks.filter { $0.string("title") == "Weekly report" }.count == 2)
        #expect(tasks.filter { $0.string("title") == "Plants" }.count == 2)
        let open = tasks.filter { $0.string("state") == "open" }
        #expect(open.count == 2)
        #expect(open.first { $0.string("title") == "Weekly report" }?.string("due") == "2026-11-27")
        #expect(Set(tasks.compactMap { $0.string("id") }).count == 4)
        #expect(try b.git("status", "--porcelain").stdout == "")
    }
}

extension Sandbox {
    /// The first 8 hex digits of the id of the open task with this title, in the inbox.
    func uuidPrefixOpen(_ title: String) throws -> String {
        let id = try tasks("inbox.json").first { $0.string("title") == title && $0.string("state") == "open" }?.string("id")
        return String(try #require(id).prefix(8))
    }

    @Test("reopen takes back the untouched next occurrence (one open task again); a touched one is kept and named; done again recreates it")
    func reopenTakesBackTheNextOccurrence() throws {
        let s = try Sandbox()
        try s.add("Water plants", "due:today", "repeat:daily")
        let original = try s.uuidPrefix("Water plants")
        try s.ok("done", original)
        #expect(try s.tasks("inbox.json").filter { $0.string("state") == "open" }.count == 1, "the next occurrence")
        let reopened = try s.ok("reopen", original)
        #expect(reopened.contains("removed its next occurrence"), "\(reopened)")
        var open = try s.tasks("inbox.json").filter { $0.string("state") == "open" }
        #expect(open.count == 1 && open.first?.string("due") == "2026-11-21", "one open task, the original: \(String(describing: open))")
        // Completing it again is a new completion: the next occurrence comes back.
        try s.ok("done", original)
        open = try s.tasks("inbox.json").filter { $0.string("state") == "open" }
        #expect(open.count == 1 && open.first?.string("due") == "2026-11-22", "\(String(describing: open))")
        // Touched since: kept, and the command says so.
        let next = try #require(open.first?.string("id"))
        try s.ok("edit", String(next.prefix(8)), "+soon")
        let kept = try s.ok("reopen", original)
        #expect(kept.contains("kept its next occurrence"), "\(kept)")
        #expect(try s.tasks("inbox.json").filter { $0.string("state") == "open" }.count == 2)
    }
}
