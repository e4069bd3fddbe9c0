import Foundation
import Testing

/// Listings: list, inbox, today, upcoming, overdue, show; text and --json.
@Suite("views")
struct ViewTests {
    /// A store with dated tasks around "now" (Sat 2026-11-21 10:00 Berlin):
    ///
    /// Inbox: 1 Old thing (due 11-18, overdue), 2 Today thing (due today),
    /// 3 Tomorrow call (due tomorrow 17:00), 4 Sched past (scheduled 11-19),
    /// 5 In a week (due 11-28), 6 Far (due 11-29), 7 No date, Done old (done).
    /// Work: 9 Report (due 11-20, overdue), 10 Earlier today (due today 08:00, overdue),
    /// 11 Active one (active).
    static func fixture() throws -> Sandbox {
        let s = try Sandbox()
        try s.ok("lists", "add", "Work")
        let ids = [
            try s.add("Old", "thing", "due:2026-11-18", "pri:must"),
            try s.add("Today", "thing", "due:today"),
            try s.add("Tomorrow", "call", "due:tomorrow@17:00", "+phone"),
            try s.add("Sched", "past", "sched:2026-11-19"),
            try s.add("In", "a", "week", "due:2026-11-28"),
            try s.add("Far", "due:2026-11-29"),
            try s.add("No", "date"),
            try s.add("Done", "old", "due:2026-11-10"),
            try s.add("Report", "due:2026-11-20", "list:Work", "+work"),
            try s.add("Earlier", "today", "due:08:00", "list:Work"),
            try s.add("Active", "one", "list:Work"),
        ]
        #expect(ids == (1...11).map(String.init))
        try s.ok("done", "8")
        try s.ok("start", "11")
        return s
    }

    @Test("tick list groups pending tasks by list, inbox first, marking overdue with ! and Nd overdue")
    func listAll() throws {
        let s = try Self.fixture()
        let r = try s.tick("list")
        #expect(r.status == 0)
        #expect(r.stderr == "")
        #expect(r.stdout == """
        Inbox (7)
        !  1 [ ] Old thing  due Wed 18 Nov, 3d overdue  pri:must
           2 [ ] Today thing  due today
           3 [ ] Tomorrow call  due tomorrow 17:00  +phone
           4 [ ] Sched past  sched Thu 19 Nov
           5 [ ] In a week  due Sat 28 Nov
           6 [ ] Far  due Sun 29 Nov
           7 [ ] No date

        Work (3)
        !  9 [ ] Report  due yesterday, 1d overdue  +work
        ! 10 [ ] Earlier today  due today 08:00, overdue
          11 [>] Active one

        """)
        // `ls` is an alias.
        #expect(try s.tick("ls").stdout == r.stdout)
    }

    @Test("tick list --all shows done tasks with [x] and their UUID prefix")
    func listAllIncludingDone() throws {
        let s = try Self.fixture()
        let doneID = try #require(try s.tasks("inbox.json").task("Done old")?.string("id"))
        let prefix = String(doneID.prefix(8))
        let out = try s.ok("list", "inbox", "--all")
        #expect(out == """
        Inbox (8)
        !        1 [ ] Old thing  due Wed 18 Nov, 3d overdue  pri:must
                 2 [ ] Today thing  due today
                 3 [ ] Tomorrow call  due tomorrow 17:00  +phone
                 4 [ ] Sched past  sched Thu 19 Nov
                 5 [ ] In a week  due Sat 28 Nov
                 6 [ ] Far  due Sun 29 Nov
                 7 [ ] No date
          \(prefix) [x] Done old  due Tue 10 Nov  done today 10:00

        """)
    }

    @Test("--state and --tag filter; a list can be named by name or slug")
    func filters() throws {
        let s = try Self.fixture()
        #expect(try s.ok("list", "work", "--state", "active,done") == "Work (1)\n  11 [>] Active one\n")
        #expect(try s.ok("list", "--tag", "work") == "Work (1)\n! 9 [ ] Report  due yesterday, 1d overdue  +work\n")
        #expect(try s.ok("list", "--tag", "+phone") == "Inbox (1)\n  3 [ ] Tomorrow call  due tomorrow 17:00  +phone\n")
        #expect(try s.json("list", "--state", "done").titles == ["Done old"])
        #expect(try s.json("list", "--all").count == 11)
        #expect(try s.json("list", "Work").titles == ["Report", "Earlier today", "Active one"])
        #expect(try s.json("list", "WORK").titles == ["Report", "Earlier today", "Active one"])

        let bad = try s.tick("list", "--state", "finished")
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("--state: \"finished\" is not one of open, active, done"))

        let missing = try s.tick("list", "Nope")
        #expect(missing.status == 3)
        #expect(missing.stderr == "tick: error: no list named \"Nope\"; known lists: Work\n")
    }

    @Test("tick inbox is the inbox's pending tasks")
    func inbox() throws {
        let s = try Self.fixture()
        #expect(try s.json("inbox").titles == ["Old thing", "Today thing", "Tomorrow call", "Sched past", "In a week", "Far", "No date"])
        #expect(try s.json("inbox") .map { $0.string("file") } == Array(repeating: "inbox.json", count: 7))
        #expect(try s.ok("inbox") == (try s.ok("list", "inbox")))
    }

    @Test("tick today: due or scheduled today or earlier, overdue, or started; soonest first, undated started ones last")
    func today() throws {
        let s = try Self.fixture()
        let r = try s.tick("today")
        #expect(r.status == 0)
        #expect(r.stdout == """
        !  1 [ ] Old thing  @Inbox  due Wed 18 Nov, 3d overdue  pri:must
           4 [ ] Sched past  @Inbox  sched Thu 19 Nov
        !  9 [ ] Report  @Work  due yesterday, 1d overdue  +work
        ! 10 [ ] Earlier today  @Work  due today 08:00, overdue
           2 [ ] Today thing  @Inbox  due today
          11 [>] Active one  @Work

        """)
        let json = try s.json("today")
        #expect(json.titles == ["Old thing", "Sched past", "Report", "Earlier today", "Today thing", "Active one"])
        #expect(try s.json("today", "--tag", "work").titles == ["Report"])
    }

    @Test("tick upcoming: after today, 7 days by default, --days N")
    func upcoming() throws {
        let s = try Self.fixture()
        #expect(try s.ok("upcoming") == """
          3 [ ] Tomorrow call  @Inbox  due tomorrow 17:00  +phone
          5 [ ] In a week  @Inbox  due Sat 28 Nov

        """)
        #expect(try s.json("upcoming", "--days", "8").titles == ["Tomorrow call", "In a week", "Far"])
        #expect(try s.json("upcoming", "--days", "1").titles == ["Tomorrow call"])
        let bad = try s.tick("upcoming", "--days", "0")
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("tick: error: --days must be 1 or more"))
    }

    @Test("tick overdue: pending tasks whose due date or time has passed")
    func overdue() throws {
        let s = try Self.fixture()
        #expect(try s.ok("overdue") == """
        !  1 [ ] Old thing  @Inbox  due Wed 18 Nov, 3d overdue  pri:must
        !  9 [ ] Report  @Work  due yesterday, 1d overdue  +work
        ! 10 [ ] Earlier today  @Work  due today 08:00, overdue

        """)
        // Later the same day, nothing changes on disk but more is overdue.
        #expect(try s.json("overdue", now: "2026-11-22T20:00:00Z").titles
                == ["Old thing", "Report", "Earlier today", "Today thing", "Tomorrow call"])
    }

    @Test("empty views say so")
    func emptyViews() throws {
        let s = try Sandbox()
        #expect(try s.ok("list") == "No tasks. Add one with: tick add Something to do\n")
        #expect(try s.ok("today") == "Nothing due today: no tasks yet. Add one with: tick add Call the bank due:fri remind:9am\n")
        #expect(try s.ok("upcoming") == "Nothing due in the next 7 days.\n")
        #expect(try s.ok("overdue") == "Nothing overdue.\n")
        #expect(try s.ok("inbox") == "Inbox is empty.\n")
        #expect(try s.ok("list", "--json") == "[]\n")
        #expect(s.storeFiles().isEmpty, "reading must write nothing to the store")
    }

    @Test("--json has the file fields plus shortId, list (null for the inbox) and file")
    func jsonFields() throws {
        let s = try Self.fixture()
        let all = try s.json("list", "--all")
        let old = try #require(all.task("Old thing"))
        #expect(Set(old.keys) == ["shortId", "id", "title", "state", "due", "priority", "createdAt", "modifiedAt", "list", "file"])
        #expect(old.int("shortId") == 1)
        #expect(old.isNull("list"))
        #expect(old.string("file") == "inbox.json")
        #expect(old.string("due") == "2026-11-18")
        #expect(old.string("state") == "open")
        #expect(old.string("id") == (try s.tasks("inbox.json").task("Old thing")?.string("id")))

        let report = try #require(all.task("Report"))
        #expect(report.string("list") == "Work")
        #expect(report.string("file") == "lists/work.json")
        #expect(report.tagList == ["work"])

        let done = try #require(all.task("Done old"))
        #expect(done.isNull("shortId"))
        #expect(done.string("state") == "done")
        #expect(done.string("completedAt") == pinnedNow)

        #expect(all.task("Active one")?.string("state") == "active")
        // The JSON output itself is canonical: 2-space indent, one key per line.
        let raw = try s.ok("list", "Work", "--json")
        #expect(raw.hasPrefix("[\n  {\n    \"shortId\": 9,\n    \"id\": \""))
        #expect(raw.hasSuffix("    \"list\": \"Work\",\n    \"file\": \"lists/work.json\"\n  }\n]\n"))
    }

    @Test("tick show prints every field, in the table's order (TaskField.all); --json matches the file")
    func show() throws {
        let s = try Sandbox()
        try s.ok("add", "Call", "mom", "due:tomorrow@17:00", "remind:mon", "sched:tue", "+family", "pri:must",
                 "energy:low", "repeat:weekly", "--note", "ask about\nthe trip")
        let id = try #require(try s.tasks("inbox.json").first?.string("id"))
        #expect(try s.ok("show", "1") == """
        Call mom
          id         1  \(id)
          list       Inbox  inbox.json
          state      open
          due        tomorrow 17:00  2026-11-22T16:00:00Z
          remind     Mon 23 Nov 09:00  2026-11-23T08:00:00Z
          scheduled  Tue 24 Nov  2026-11-24
          priority   must
          energy     low
          repeat     weekly
          tags       +family
          created    today 10:00  2026-11-21T09:00:00Z
          modified   today 10:00  2026-11-21T09:00:00Z

          ask about
          the trip

        """)
        // Eight hex digits: always a UUID prefix (a shorter one needs a digit and a letter,
        // which a random UUID's first six need not have: CI once drew "ebedbd").
        let json = try s.showJSON(String(id.prefix(8)))
        #expect(json.int("shortId") == 1)
        #expect(json.string("id") == id)
        #expect(json.string("notes") == "ask about\nthe trip")
        #expect(json.isNull("list"))
        #expect(json.string("file") == "inbox.json")
        // Same fields as the file, plus the three added ones.
        var fromFile = try #require(try s.tasks("inbox.json").first)
        fromFile["shortId"] = 1
        fromFile["list"] = NSNull()
        fromFile["file"] = "inbox.json"
        #expect(try canonicalJSON(json) == (try canonicalJSON(fromFile)))
    }

    @Test("show of an unknown id is not-found")
    func showUnknown() throws {
        let s = try Sandbox()
        try s.add("One")
        let id = try #require(try s.tasks("inbox.json").first?.string("id"))
        let unused = id.hasPrefix("f") ? "0000" : "ffff"   // valid hex, matches no task
        for ref in ["2", "99", "zzzz", "abc", unused] {
            let r = try s.tick("show", ref)
            #expect(r.status == 3, "\(ref)")
            #expect(r.stderr == "tick: error: no task with id \"\(ref)\"; use a short id from a listing (e.g. `tick list`) or a prefix of the task's UUID (8 hex digits, or 4 with a digit and a letter)\n")
            #expect(r.stdout == "")
        }
    }
}
