import Foundation
import Testing

/// Commitments (`tick block`, `tick blocks`), estimates and slots on tasks,
/// `tick plan` (timeline and --auto) and `tick suggest`.
///
/// Now is pinned to Sat 2026-11-21 10:00 Berlin unless a test passes `monday`.
@Suite("commitments, slots and the scheduler")
struct SchedulerTests {
    /// Mon 2026-11-23 09:00 in Berlin.
    static let monday = "2026-11-23T08:00:00Z"

    /// Standup on weekdays, Gym mon/wed/fri, a dentist visit on Tue 2026-11-24.
    static func withBlocks() throws -> Sandbox {
        let s = try Sandbox()
        try s.ok("block", "add", "Standup", "09:00-09:15", "--days", "weekdays")
        try s.ok("block", "add", "Gym", "17:00-18:00", "--days", "mon,wed,fri")
        try s.ok("block", "add", "Dentist", "2026-11-24@14:00-15:00")
        return s
    }

    func object(_ r: RunResult) throws -> [String: Any] {
        #expect(r.status == 0, "\(r)")
        return try #require(try JSONSerialization.jsonObject(with: r.stdoutData) as? [String: Any])
    }

    // MARK: Blocks

    @Test("block add, blocks, block ls DAY, --json, rm by number and by id prefix")
    func blocksLifecycle() throws {
        let s = try Self.withBlocks()
        #expect(try s.ok("blocks") == """
        1  09:00-09:15  Standup  weekdays
        2  17:00-18:00  Gym      mon,wed,fri
        3  14:00-15:00  Dentist  Tue 2026-11-24

        """)
        #expect(try s.ok("block", "ls", "2026-11-24") == """
        Tue 2026-11-24
        1  09:00-09:15  Standup  weekdays
        3  14:00-15:00  Dentist  Tue 2026-11-24

        """)
        #expect(try s.ok("block") == (try s.ok("blocks")), "ls is the default subcommand")
        #expect(try s.ok("blocks", "sat") == "No blocks on Sat 2026-11-28.\n")
        let json = try s.json("blocks")
        #expect(json.map { $0.int("n") } == [1, 2, 3])
        #expect(json.map { $0.string("schedule") } == ["weekdays", "mon,wed,fri", "2026-11-24"])
        #expect(json[2].string("date") == "2026-11-24")
        #expect(json[0]["days"] as? [String] == ["mon", "tue", "wed", "thu", "fri"])

        // The file: canonical, human-editable, in the store.
        let file = try s.file("blocks.json")
        #expect(file.int("version") == 1)
        let text = try s.text("blocks.json")
        #expect(text.contains("""
              "title": "Dentist",
              "date": "2026-11-24",
              "start": "14:00",
              "end": "15:00",
              "createdAt": "2026-11-21T09:00:00Z",
        """))

        let removed = try s.tick("block", "rm", "2")
        #expect(removed.status == 0, "\(removed)")
        #expect(removed.stdout.hasSuffix(": Gym  17:00-18:00  mon,wed,fri\n"))
        let dentistID = try #require(json[2].string("id"))
        #expect(try s.ok("block", "rm", String(dentistID.prefix(6))).contains("Dentist"))
        #expect(try s.ok("blocks") == "1  09:00-09:15  Standup  weekdays\n")
        let missing = try s.tick("block", "rm", "7")
        #expect(missing.status == 3)
        #expect(missing.stderr.contains("no block number 7; there is 1 block"))
        #expect(try s.ok("blocks") == "1  09:00-09:15  Standup  weekdays\n")
    }

    @Test("block add refuses bad input with exit 2 and a hint; tomorrow@ works")
    func blockAddInput() throws {
        let s = try Sandbox()
        let noDays = try s.tick("block", "add", "Standup", "09:00-09:15")
        #expect(noDays.status == 2)
        #expect(noDays.stderr.contains("give --days for a weekly block (e.g. --days weekdays), or a day for a one-off block (e.g. tomorrow@09:00-09:15)"))
        let backwards = try s.tick("block", "add", "X", "10:00-09:00", "--days", "daily")
        #expect(backwards.status == 2)
        let badDays = try s.tick("block", "add", "X", "10:00-11:00", "--days", "someday")
        #expect(badDays.status == 2)
        #expect(badDays.stderr.contains("--days: \"someday\" is not understood"))
        let both = try s.tick("block", "add", "X", "tomorrow@10:00-11:00", "--days", "daily")
        #expect(both.status == 2)
        #expect(!s.exists("blocks.json"), "nothing written on refusal")
        #expect(try s.ok("block", "add", "Call", "tomorrow@4pm-4:30pm") == "Added block 1: Call  16:00-16:30  2026-11-22\n")
        #expect(try s.ok("block", "add", "Lunch", "12:30-13:15", "--days", "every day").contains("daily"))
    }

    @Test("a blocks.json that does not parse is reported with line and column and never rewritten")
    func brokenBlocksFile() throws {
        let s = try Sandbox()
        try s.write("blocks.json", "{\"blocks\": [{\"title\": \"X\", \"start\": \"9\", \"end\": \"10:00\", \"days\": [\"mon\"]}]}\n")
        let before = try s.text("blocks.json")
        let r = try s.tick("block", "add", "Y", "10:00-11:00", "--days", "daily")
        #expect(r.status == 4)
        #expect(r.stderr.contains("blocks.json:1:37: error: \"start\" must be a wall-clock time like \"09:30\" (found \"9\")"), "\(r.stderr)")
        #expect(try s.text("blocks.json") == before)
        // Task commands do not care: blocks.json is not a list.
        try s.add("Task")
        #expect(try s.json("list").count == 1)
        #expect(!(try s.ok("lists")).contains("blocks"))
    }

    // MARK: Estimates and slots

    @Test("estimate and slot round-trip through add, edit and show --json; at: and estimate: clear")
    func estimateAndSlot() throws {
        let s = try Sandbox()
        let id = try s.add("Write", "report", "estimate:1h30m")
        var t = try s.showJSON(id)
        #expect(t.int("estimate") == 90)
        #expect(t["slot"] == nil)

        try s.ok("edit", id, "at:14:00")     // no scheduled day: today
        t = try s.showJSON(id)
        var slot = try #require(t["slot"] as? [String: Any])
        #expect(slot.string("start") == "2026-11-21T14:00")
        #expect(slot.int("minutes") == 90, "the length defaults to the estimate")
        #expect(t.string("scheduled") == "2026-11-21", "a slot sets the scheduled day")

        try s.ok("edit", id, "for:45m")
        slot = try #require(try s.showJSON(id)["slot"] as? [String: Any])
        #expect(slot.int("minutes") == 45)

        try s.ok("edit", id, "sched:2026-11-25")
        slot = try #require(try s.showJSON(id)["slot"] as? [String: Any])
        #expect(slot.string("start") == "2026-11-25T14:00", "moving the scheduled day moves the slot")

        try s.ok("edit", id, "at:2026-11-24@9:30")
        t = try s.showJSON(id)
        slot = try #require(t["slot"] as? [String: Any])
        #expect(slot.string("start") == "2026-11-24T09:30")
        #expect(slot.int("minutes") == 45, "a moved slot keeps its length")
        #expect(t.string("scheduled") == "2026-11-24")
        let shown = try s.ok("show", id)
        #expect(shown.contains("  estimate   1h30m\n"))
        #expect(shown.contains("  slot       Tue 24 Nov 09:30-10:15 (45m)  2026-11-24T09:30\n"))

        // The file stores it in canonical order, after energy and before tags.
        #expect(try s.text("inbox.json").contains("""
              "scheduled": "2026-11-24",
              "estimate": 90,
              "slot": {
                "start": "2026-11-24T09:30",
                "minutes": 45
              },
        """))

        try s.ok("edit", id, "at:", "estimate:")
        t = try s.showJSON(id)
        #expect(t["slot"] == nil && t["estimate"] == nil)
        #expect(t.string("scheduled") == "2026-11-24", "clearing the slot keeps the day")

        // Flags work too; the default length without an estimate is 30 minutes.
        let other = try s.add("Call", "--at", "tomorrow@16:00")
        slot = try #require(try s.showJSON(other)["slot"] as? [String: Any])
        #expect(slot.string("start") == "2026-11-22T16:00")
        #expect(slot.int("minutes") == 30)
        try s.ok("edit", other, "--no-slot")
        #expect(try s.showJSON(other)["slot"] == nil)
    }

    @Test("bad estimates and slots are usage errors (exit 2) and change nothing")
    func badSlotInput() throws {
        let s = try Sandbox()
        let id = try s.add("Task")
        let before = try s.text("inbox.json")
        for (args, message) in [
            (["edit", id, "estimate:soon"], "estimate: \"soon\" is not a duration; use minutes like 45m, 90 or hours like 1h30m"),
            (["edit", id, "at:25:00"], "at: \"25:00\" is not a start time"),
            (["edit", id, "for:30m"], "for: sets the length of a slot, and this task has none"),
            (["edit", id, "at:23:30", "for:1h"], "would run past midnight"),
        ] {
            let r = try s.tick(args)
            #expect(r.status == 2, "\(args): \(r)")
            #expect(r.stderr.contains(message), "\(args): \(r.stderr)")
        }
        #expect(try s.text("inbox.json") == before)
    }

    @Test("placing a task over a commitment is refused (exit 1) and writes nothing; over another task it warns")
    func placingOverCommitment() throws {
        let s = try Self.withBlocks()
        let refusedAdd = try s.tick("add", "Errand", "at:2026-11-24@14:30")
        #expect(refusedAdd.status == 1)
        #expect(refusedAdd.stderr == "tick: error: refusing to place the task at 14:30-15:00 on Tue 2026-11-24: it overlaps the commitment \"Dentist\" (14:00-15:00, 2026-11-24); nothing was written. Pick a free time (`tick plan 2026-11-24` shows them) or remove the block (`tick blocks`)\n")
        #expect(!s.exists("inbox.json"))

        let id = try s.add("Report", "estimate:30m")
        let before = try s.text("inbox.json")
        let refusedEdit = try s.tick("edit", id, "at:mon@8:50")    // 08:50-09:20 hits the weekday standup
        #expect(refusedEdit.status == 1)
        #expect(refusedEdit.stderr.contains("it overlaps the commitment \"Standup\" (09:00-09:15, weekdays)"))
        #expect(try s.text("inbox.json") == before)

        // Right after the standup is fine; a second task on top of it warns but is kept.
        try s.ok("edit", id, "at:mon@9:15")
        let second = try s.tick("add", "Mail", "at:mon@9:30")
        #expect(second.status == 0, "\(second)")
        #expect(second.stderr == "tick: warning: the slot 09:30-10:00 overlaps task \(id) (09:15-09:45); both are kept\n")
        // Saturday has no standup.
        #expect(try s.tick("edit", id, "at:sat@9:00").status == 0)
    }

    @Test("a new block over placed tasks warns and names them")
    func blockOverPlacedTask() throws {
        let s = try Sandbox()
        let id = try s.add("Report", "at:2026-11-24@10:00", "for:1h")
        let r = try s.tick("block", "add", "Review", "2026-11-24@10:30-11:00")
        #expect(r.status == 0)
        #expect(r.stderr == "tick: warning: 1 placed task(s) overlap this block: \(id) 2026-11-24 10:00-11:00; move them with `tick edit ID at:TIME`\n")
        #expect(try s.ok("plan", "2026-11-24").contains("task   \(id) Report  ! overlaps Review"))
    }

    // MARK: plan

    @Test("tick plan DAY prints the timeline: blocks, placed tasks, free time, durations")
    func planTimeline() throws {
        let s = try Self.withBlocks()
        let report = try s.add("Write", "report", "estimate:1h30m", "at:2026-11-24@10:00")
        try s.add("Mail", "at:2026-11-24@16:00", "for:15m")
        let out = try s.ok("plan", "2026-11-24")
        #expect(out == """
        Tue 2026-11-24  working hours 09:00-18:00
          09:00-09:15    15m  block  Standup
          09:15-10:00    45m  free
          10:00-11:30  1h30m  task   \(report) Write report
          11:30-14:00  2h30m  free
          14:00-15:00     1h  block  Dentist
          15:00-16:00     1h  free
          16:00-16:15    15m  task   2 Mail
          16:15-18:00  1h45m  free
          free 6h · 2 blocks · 2 tasks placed

        """)
        // Working hours from the option or the environment.
        let short = try s.ok("plan", "tue", "--hours", "08:30-12:00")
        #expect(short.hasPrefix("Tue 2026-11-24  working hours 08:30-12:00\n  08:30-09:00    30m  free\n  09:00-09:15    15m  block  Standup\n"))
        #expect(short.contains("  11:30-12:00    30m  free\n  14:00-15:00     1h  block  Dentist\n"))
        let env = try s.tick("plan", "tue", env: ["TICK_WORK_HOURS": "13:00-15:30"])
        #expect(env.stdout.contains("  13:00-14:00     1h  free\n  14:00-15:00     1h  block  Dentist\n  15:00-15:30    30m  free\n"))
        let bad = try s.tick("plan", "--hours", "18:00-09:00")
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("--hours: \"18:00-09:00\" is not a range like 08:30-17:00"))
    }

    @Test("tick plan today starts the free time now; --json has every entry")
    func planTodayAndJSON() throws {
        let s = try Self.withBlocks()
        // Monday 09:00: the standup is running, the free time starts after it.
        try s.add("Mail", "at:11:00", "for:30m", now: Self.monday)
        let out = try s.ok("plan", now: Self.monday)
        #expect(out.hasPrefix("Mon 2026-11-23  working hours 09:00-18:00 · now 09:00\n  09:00-09:15    15m  block  Standup\n  09:15-11:00  1h45m  free\n  11:00-11:30    30m  task   1 Mail\n"))
        let json = try object(try s.tick("plan", "--json", now: Self.monday))
        #expect(json.string("day") == "2026-11-23")
        #expect(json.string("hours") == "09:00-18:00")
        #expect(json.int("freeMinutes") == 105 + 330)
        let entries = try #require(json["entries"] as? [[String: Any]])
        #expect(entries.map { $0.string("kind") } == ["block", "free", "task", "free", "block"])
        #expect(entries.map { $0.string("start") } == ["09:00", "09:15", "11:00", "11:30", "17:00"])
        #expect((entries[2]["task"] as? [String: Any])?.int("shortId") == 1)
        #expect(entries[4].string("title") == "Gym")
    }

    /// Must-do report (1h), errand due Monday (no estimate), a big task, an undated task.
    static func autoFixture() throws -> Sandbox {
        let s = try Self.withBlocks()
        try s.add("Report", "pri:must", "estimate:1h")
        try s.add("Errand", "due:2026-11-24")
        try s.add("Big", "sched:2026-11-24", "estimate:6h")
        try s.add("Someday", "estimate:20m")
        return s
    }

    static let proposalForTuesday = """
    Proposed plan for Tue 2026-11-24  working hours 09:00-18:00
      09:15-10:15     1h  1 Report  must-do · 1h
      10:15-10:45    30m  2 Errand  due today · no estimate: 30m
      not placed: 3 Big  needs 6h, no free block that long

    """

    @Test("plan --auto: answering n, or end of input, writes nothing")
    func planAutoDeclined() throws {
        let s = try Self.autoFixture()
        let before = try s.fingerprint()
        let no = try s.tick("plan", "--auto", "tue", stdin: "n\n")
        #expect(no.status == 0, "\(no)")
        #expect(no.stdout == Self.proposalForTuesday + "Nothing was written.\n")
        #expect(no.stderr == "Write this plan? [y/N] ")
        let eof = try s.tick("plan", "--auto", "tue", stdin: "")
        #expect(eof.stdout.hasSuffix("Nothing was written.\n"))
        #expect(try s.fingerprint() == before)
    }

    @Test("plan --auto: answering y writes the slots through the store; the plan then shows them")
    func planAutoAccepted() throws {
        let s = try Self.autoFixture()
        let yes = try s.tick("plan", "--auto", "tue", stdin: "y\n")
        #expect(yes.status == 0, "\(yes)")
        #expect(yes.stdout == Self.proposalForTuesday + "Placed 2 tasks on Tue 2026-11-24.\n")
        let report = try s.showJSON("1")
        #expect((report["slot"] as? [String: Any])?.string("start") == "2026-11-24T09:15")
        #expect(report.string("scheduled") == "2026-11-24")
        // Made at the pinned clock, like the fixture's own changes of these
        // fields: stamped one second after them, never tied (FORMAT.md 4.1).
        #expect(report.string("modifiedAt") == "2026-11-21T09:00:01Z")
        #expect(try s.showJSON("3")["slot"] == nil)
        #expect(try s.ok("plan", "tue").contains("  09:15-10:15     1h  task   1 Report\n  10:15-10:45    30m  task   2 Errand\n"))
        // Planned tasks are not proposed again.
        let again = try s.tick("plan", "--auto", "tue", stdin: "y\n")
        #expect(again.stdout.contains("nothing to place"))
        #expect(again.stderr == "", "no question when there is nothing to write")
    }

    @Test("plan --auto --yes writes without asking; --all also places undated tasks; --json")
    func planAutoYes() throws {
        let s = try Self.autoFixture()
        let r = try s.tick("plan", "--auto", "tue", "--yes", "--all")
        #expect(r.status == 0)
        #expect(r.stderr == "")
        #expect(r.stdout.contains("  10:45-11:05    20m  4 Someday  20m\n"), "\(r)")
        #expect(r.stdout.hasSuffix("Placed 3 tasks on Tue 2026-11-24.\n"))
        #expect((try s.showJSON("4")["slot"] as? [String: Any])?.string("start") == "2026-11-24T10:45")

        let t = try Self.autoFixture()
        let before = try t.fingerprint()
        let json = try object(try t.tick("plan", "--auto", "tue", "--json"))
        #expect(json["written"] as? Bool == false)
        let placements = try #require(json["placements"] as? [[String: Any]])
        #expect(placements.map { $0.string("start") } == ["09:15", "10:15"])
        #expect(placements.map { $0["defaultLength"] as? Bool } == [false, true])
        #expect(try t.fingerprint() == before, "--json without --yes never writes")
        // Today, from now (Monday 09:00, standup until 09:15), and not in the past.
        let monday = try t.tick("plan", "--auto", "--yes", now: Self.monday)
        #expect(monday.stdout.contains("  09:15-10:15     1h  1 Report"), "\(monday)")
        let past = try t.tick("plan", "--auto", "2026-11-20")
        #expect(past.status == 2)
    }

    // MARK: suggest

    /// Five open tasks with priorities, energies, estimates and due dates.
    static func suggestFixture() throws -> Sandbox {
        let s = try Sandbox()
        try s.add("Deep", "work", "pri:must", "energy:high", "estimate:2h")
        try s.add("Expenses", "energy:low", "estimate:20m", "due:tomorrow")
        try s.add("Slides", "energy:high", "estimate:45m", "due:mon")
        try s.add("Tax", "form", "pri:must", "energy:low", "estimate:30m", "due:2026-11-20")
        try s.add("Water", "plants")
        try s.add("Placed", "pri:must", "at:15:00")
        return s
    }

    @Test("suggest puts what fits the block and the mood first, then must-do, energy, due soon, fit, and explains each")
    func suggestRanking() throws {
        let s = try Self.suggestFixture()
        // Only "Water plants" fits 30 minutes of high energy: the others are too long or need low energy.
        #expect(try s.ok("suggest", "--minutes", "30", "--mood", "focused") == """
        For a 30m block, high energy (focused):
          1. 5  Water plants  no estimate
          2. 1  Deep work     must-do · high energy · 2h, longer than 30m
          3. 4  Tax form      must-do · needs low energy · overdue 1d · 30m fits
          4. 3  Slides        high energy · due in 2d · 45m, longer than 30m
          5. 2  Expenses      needs low energy · due tomorrow · 20m fits

        """)
        // The case: low mood, 20 minutes: the 2-hour high-energy must-do is not first.
        #expect(try s.ok("suggest", "--minutes", "20", "--mood", "low", "--limit", "2") == """
        For a 20m block, low energy (low):
          1. 2  Expenses      low energy · due tomorrow · 20m fits
          2. 5  Water plants  no estimate

        """)
        #expect(try s.ok("suggest", "--minutes", "30", "--mood", "tired", "--limit", "2") == """
        For a 30m block, low energy (tired):
          1. 4  Tax form  must-do · low energy · overdue 1d · 30m fits
          2. 2  Expenses  low energy · due tomorrow · 20m fits

        """)
        let json = try object(try s.tick("suggest", "--energy", "low", "--minutes", "1h", "--json"))
        #expect(json.int("minutes") == 60)
        #expect(json.string("energy") == "low")
        let rows = try #require(json["suggestions"] as? [[String: Any]])
        #expect(rows.map { $0.string("title") } == ["Tax form", "Expenses", "Water plants", "Deep work", "Slides"])
        #expect(rows.map { $0.int("rank") } == [1, 2, 3, 4, 5])
        #expect(rows[0]["reasons"] as? [String] == ["must-do", "low energy", "overdue 1d", "30m fits"])
    }

    @Test("suggest without --minutes uses the free block from now; unknown moods are usage errors")
    func suggestDefaults() throws {
        let s = try Self.suggestFixture()
        // Now is 10:00; task 6 is placed at 15:00.
        let out = try s.ok("suggest", "--limit", "1")
        #expect(out == "For the free block 10:00-15:00 (5h):\n  1. 4  Tax form  must-do · overdue 1d · 30m fits\n")
        try s.ok("block", "add", "Call", "today@11:00-12:00")
        #expect(try s.ok("suggest", "--limit", "1").hasPrefix("For the free block 10:00-11:00 (1h):"))
        #expect(try s.ok("suggest", "--limit", "1", now: "2026-11-21T18:00:00Z")
            == "For any time (no free time left today within 09:00-18:00):\n  1. 4  Tax form  must-do · overdue 1d · 30m\n")
        let mood = try s.tick("suggest", "--mood", "grumpy")
        #expect(mood.status == 2)
        #expect(mood.stderr == "tick: error: --mood: \"grumpy\" is not one of focused, energetic, fresh, motivated, sharp, great, tired, low, drained, sleepy, exhausted, meh, ok, okay, neutral, fine\n")
        #expect(try s.tick("suggest", "--energy", "medium").status == 2)
        #expect(try s.ok("suggest", "--mood", "neutral", "--minutes", "30").hasPrefix("For a 30m block, any energy (neutral):"))
    }

    // MARK: Sync, git, export

    @Test("the merge driver merges blocks.json block by block; a broken side falls back to git's text merge")
    func mergeDriverBlocks() throws {
        let s = try Self.withBlocks()
        let base = try s.text("blocks.json")
        try s.ok("block", "rm", "2")
        let ours = try s.text("blocks.json")
        try s.write("blocks.json", base)
        try s.ok("block", "add", "Lunch", "12:30-13:15", "--days", "daily")
        let theirs = try s.text("blocks.json")
        let dir = s.root + "/driver"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for (name, text) in [("base", base), ("ours", ours), ("theirs", theirs)] {
            try Data(text.utf8).write(to: URL(fileURLWithPath: dir + "/" + name))
        }
        let r = try s.tick("merge-driver", dir + "/base", dir + "/ours", dir + "/theirs", "blocks.json", cwd: dir)
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout == "")
        #expect(r.stderr == "tick merge-driver: merged blocks.json: 1 block added, 0 updated, 0 deleted, 0 conflicts resolved\n")
        let merged = String(decoding: try Data(contentsOf: URL(fileURLWithPath: dir + "/ours")), as: UTF8.self)
        try s.write("blocks.json", merged)
        #expect(try s.json("blocks").map { $0.string("title") } == ["Standup", "Dentist", "Lunch"])

        try Data("{not json".utf8).write(to: URL(fileURLWithPath: dir + "/theirs"))
        try Data(ours.utf8).write(to: URL(fileURLWithPath: dir + "/ours"))
        let broken = try s.tick("merge-driver", dir + "/base", dir + "/ours", dir + "/theirs", "blocks.json", cwd: dir)
        #expect(broken.status != 0)
        #expect(broken.stderr.contains("not a valid blocks file on both sides; used git's text merge"))
    }

    @Test("tick resolve merges a Syncthing conflict copy of blocks.json and removes it")
    func resolveBlocksCopy() throws {
        let s = try Self.withBlocks()
        let copy = "blocks.sync-conflict-20261121-093512-ABCDEF7.json"
        try s.ok("block", "add", "Lunch", "12:30-13:15", "--days", "daily")
        let theirs = try s.text("blocks.json")
        try s.ok("block", "rm", "4")
        try s.ok("block", "add", "Call", "2026-11-25@10:00-10:30")
        try s.write(copy, theirs)
        #expect(try s.ok("blocks").contains("Call"))
        let r = try s.tick("resolve")
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout == "Merged the Syncthing conflict copy of store/blocks.json (two-way): 1 block added, 0 updated, 0 deleted, 0 conflicts resolved\n  removed the copy\n", "paths are relative to the current directory (the sandbox)")
        #expect(!s.exists(copy))
        #expect(try s.json("blocks").map { $0.string("title") } == ["Standup", "Gym", "Dentist", "Call", "Lunch"])
        #expect(try s.ok("resolve") == "No conflicts to resolve\n")
    }

    @Test("estimates and slots survive a JSON export and import")
    func exportImportRoundTrip() throws {
        let s = try Self.withBlocks()
        try s.add("Report", "estimate:45m", "at:2026-11-24@10:00")
        let export = try s.tick("export")
        #expect(export.status == 0)
        #expect(!export.stdout.contains("Standup"), "blocks.json is not a list and is not exported as one")
        try s.write("../backup.json", export.stdout)
        let copy = s.root + "/copy"
        try s.ok("init", copy)
        #expect(try s.tick("--store", copy, "import", s.root + "/backup.json").status == 0)
        let r = try s.tick("--store", copy, "show", "1", "--json")
        let t = try object(r)
        #expect(t.int("estimate") == 45)
        #expect((t["slot"] as? [String: Any])?.string("start") == "2026-11-24T10:00")
        #expect((t["slot"] as? [String: Any])?.int("minutes") == 45)
    }

    @Test("estimates and slots survive an iCalendar export and import")
    func icsRoundTrip() throws {
        let s = try Sandbox()
        try s.add("Report", "estimate:45m", "at:2026-11-24@10:00", "for:1h")
        let ics = try s.tick("export", "--format", "ics")
        #expect(ics.status == 0)
        #expect(ics.stdout.contains("X-TICK-ESTIMATE:45\r\n"))
        #expect(ics.stdout.contains("X-TICK-SLOT:2026-11-24T10:00/60\r\n"))
        try s.write("../tasks.ics", ics.stdout)
        let copy = s.root + "/copy"
        try s.ok("init", copy)
        #expect(try s.tick("--store", copy, "import", s.root + "/tasks.ics").status == 0)
        let t = try object(try s.tick("--store", copy, "show", "1", "--json"))
        #expect(t.int("estimate") == 45)
        #expect((t["slot"] as? [String: Any])?.string("start") == "2026-11-24T10:00")
        #expect((t["slot"] as? [String: Any])?.int("minutes") == 60)
    }

    @Test("blocks.json and a conflict copy of it break nothing: listings, status, reindex, views")
    func blocksFileIsNotAList() throws {
        let s = try Self.withBlocks()
        try s.add("Task", "at:2026-11-24@10:00")
        try s.write("blocks.sync-conflict-20261121-093512-ABCDEF7.json", try s.text("blocks.json"))
        #expect(try s.json("list").map { $0.string("title") } == ["Task"])
        #expect(try s.ok("lists").contains("Inbox"))
        #expect(!(try s.ok("lists")).contains("blocks"))
        let status = try s.tick("status")
        #expect(status.status == 0)
        #expect(status.stdout.contains("conflicts 1 pending (run `tick resolve`):\n          blocks.sync-conflict-20261121-093512-ABCDEF7.json (Syncthing conflict copy of blocks.json)\n"), "\(status)")
        #expect(try s.tick("reindex").status == 0)
        #expect(try s.ok("upcoming").contains("Task"))
        #expect(try s.ok("list").contains("at Tue 24 Nov 10:00-10:30"))
    }
}
