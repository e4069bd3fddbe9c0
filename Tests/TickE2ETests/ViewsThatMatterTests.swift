import Foundation
import Testing

/// Issue 13, "Views that show what matters": the README's example, today's
/// view (reminders, started tasks, slot order), bare `tick`, unknown commands,
/// one confirmation style, terminal-cell alignment and fitting, search's exit status.
@Suite("views that show what matters")
struct ViewsThatMatterTests {
    /// Thursday 2026-11-26, 08:00 in Berlin (the README's morning).
    static let thursday = "2026-11-26T07:00:00Z"

    static let packageRoot: URL = {
        var dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while dir.path != "/", !FileManager.default.fileExists(atPath: dir.appendingPathComponent("Package.swift").path) {
            dir = dir.deletingLastPathComponent()
        }
        return dir
    }()

    /// Terminal output as lines: `\r\n` from the pty made `\n`, UUID prefixes in parentheses made `(UUID8)`.
    static func normalized(_ text: String) -> String {
        text.replacingOccurrences(of: "\r\n", with: "\n")
            .replacingOccurrences(of: #"\([0-9a-f]{8}\)"#, with: "(UUID8)", options: .regularExpression)
    }

    // MARK: 1. The README, and today's view

    @Test("the README's first example prints what it shows, run on a terminal", .enabled(if: CLITests.hasScript))
    func readmeExample() throws {
        let readme = try String(contentsOf: Self.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        // The first code block that starts with a `$ tick` command.
        let blocks = readme.components(separatedBy: "```")
        let block = try #require(blocks.first { $0.hasPrefix("\n$ tick ") })
        var steps: [(args: [String], expected: [String])] = []
        for line in block.split(separator: "\n", omittingEmptySubsequences: true) {
            if line.hasPrefix("$ tick ") {
                steps.append((line.dropFirst("$ tick ".count).split(separator: " ").map(String.init), []))
            } else {
                steps[steps.count - 1].expected.append(String(line))
            }
        }
        #expect(steps.count == 3)
        #expect(steps.first?.args.first == "add", "the README's example starts with an add")

        let s = try Sandbox()
        try s.ok("lists", "add", "Work")
        try s.ok("add", "Submit", "expense", "report", "list:Work", "due:yesterday", "pri:must", "+admin", now: Self.thursday)
        try s.ok("add", "Buy", "stamps", now: Self.thursday)
        try s.ok("add", "Plan", "holiday", "due:dec 20", now: Self.thursday)
        for step in steps {
            let r = try CLITests.onTTY(s, step.args, env: ["TICK_NOW": Self.thursday])
            #expect(r.status == 0, "\(step.args): \(r)")
            let expected = Self.normalized(step.expected.joined(separator: "\n") + "\n")
            #expect(Self.normalized(r.stdout) == expected, "tick \(step.args.joined(separator: " "))")
        }
    }

    @Test("today shows a task reminding today (not one reminding tomorrow or yesterday) and every started task")
    func todayShowsRemindersAndStartedTasks() throws {
        let s = try Sandbox()
        // Added the day before, reminding that afternoon: its day is over.
        try s.add("Reminded yesterday", "remind:15:00", now: "2026-11-20T09:00:00Z")
        try s.add("Remind me later today", "remind:15:00")
        try s.add("Remind me tomorrow", "remind:tomorrow@9am")
        try s.add("Started without a date")
        try s.add("Started but due next week", "due:2026-11-28")
        try s.add("Untouched")
        try s.ok("start", "4", "5")
        let titles = try s.json("today").titles
        #expect(titles == ["Remind me later today", "Started but due next week", "Started without a date"])
        // The next day, the other reminder is today's.
        #expect(try s.json("today", now: "2026-11-22T09:00:00Z").titles.contains("Remind me tomorrow"))
        // The status line's first titles agree with the view.
        let line = try s.ok("status-line", "--format", "json")
        let status = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let next = try #require(status["next"] as? [String], "\(status)")
        #expect(!next.isEmpty && titles.starts(with: next), "status line \(next) vs today \(titles)")
    }

    @Test("after plan --auto, today shows placed tasks in slot order, after unplaced overdue work and before the day's unplaced tasks")
    func todayInSlotOrder() throws {
        let s = try Sandbox()
        // Added in an order the planner will not keep: it places must-do work first, then by due date.
        try s.add("Flexible writing", "due:today", "estimate:1h", "pri:flexible")
        try s.add("Overdue thing", "due:2026-11-20", "estimate:45m")
        try s.add("Must call", "due:today", "estimate:30m", "pri:must")
        try s.ok("plan", "--auto", "--hours", "10:00-18:00", "--yes")
        // Added after planning, so not placed.
        try s.add("Unplaced overdue", "due:2026-11-19")
        try s.add("Unplaced today", "sched:today")
        let today = try s.json("today")
        let placed = today.filter { $0["slot"] is [String: Any] }
        #expect(placed.count == 3, "sanity check: plan --auto placed the three estimated tasks: \(today)")
        let starts = placed.compactMap { ($0["slot"] as? [String: Any])?["start"] as? String }
        #expect(starts.count == 3 && starts == starts.sorted(), "placed tasks in slot order: \(starts)")
        #expect(today.titles.first == "Unplaced overdue")
        #expect(today.titles.last == "Unplaced today")
        #expect(Array(today.titles.dropFirst().dropLast()) == placed.titles, "placed tasks together, between: \(today.titles)")
        // The check has teeth: the slot order is neither the list order nor the due order.
        #expect(placed.titles != ["Flexible writing", "Overdue thing", "Must call"], "sanity check: the planner reordered the tasks")
        #expect(placed.titles != ["Overdue thing", "Flexible writing", "Must call"], "sanity check: slot order is not due order")
        // The text view has the same order.
        let text = try s.ok("today")
        let positions = placed.titles.compactMap { text.range(of: $0)?.lowerBound }
        #expect(positions.count == 3 && positions == positions.sorted())
    }

    // MARK: 2. Bare tick, unknown commands

    @Test("bare tick shows today's view, not the help")
    func bareTickShowsToday() throws {
        let s = try Sandbox()
        try s.add("Due today", "due:today")
        try s.add("Someday")
        let bare = try s.tick([String]())
        #expect(bare.status == 0, "\(bare)")
        #expect(bare.stdout == (try s.ok("today")))
        #expect(bare.stdout.contains("Due today"))
        #expect(!bare.stdout.contains("USAGE"))
        let withStore = try s.tick(["--store", s.store], env: ["TICK_STORE": nil])
        #expect(withStore.stdout == bare.stdout, "\(withStore)")
    }

    @Test("an unknown command, also after help, exits 2 with `unknown command` and a did-you-mean", arguments: [
        (["tody"], #"unknown command "tody" (did you mean "today"?); see `tick help`"#),
        (["lsit"], #"unknown command "lsit" (did you mean "list"?); see `tick help`"#),
        (["upcomming"], #"unknown command "upcomming" (did you mean "upcoming"?)"#),
        (["delet", "1"], #"unknown command "delet" (did you mean "delete"?)"#),
        (["help", "nosuch"], #"unknown command "nosuch"; see `tick help`"#),
        (["help", "sarch"], #"unknown command "sarch" (did you mean "search"?)"#),
        (["help", "lists", "renam"], #"unknown command "lists renam" (did you mean "lists rename"?)"#),
        (["frobnicate"], #"unknown command "frobnicate"; see `tick help`"#),
    ])
    func unknownCommand(_ args: [String], _ message: String) throws {
        let s = try Sandbox()
        let r = try s.tick(args)
        #expect(r.status == 2, "\(r)")
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.hasPrefix("tick: error: unknown command"), "\(r)")
        #expect(r.stderr.contains(message), "\(r)")
        #expect(r.stderr.filter { $0 == "\n" }.count == 1, "\(r)")
    }

    // MARK: 3. One confirmation style

    @Test("every task write confirms as `Verb ID (UUID8)[ to|in LIST]: TITLE`, edit naming the fields it changed")
    func confirmations() throws {
        let s = try Sandbox()
        try s.ok("lists", "add", "Home")
        try s.add("Call the bank")
        try s.add("Water plants")
        let bank = try s.uuidPrefix("Call the bank")
        let plants = try s.uuidPrefix("Water plants")
        #expect(try s.ok("edit", "1", "due:fri", "+errand") == "Edited 1 (\(bank)): Call the bank (due, +errand)\n")
        #expect(try s.ok("edit", "1", "-errand", "pri:must", "remind:fri@9am") == "Edited 1 (\(bank)): Call the bank (remind, pri, -errand)\n")
        #expect(try s.ok("edit", "1", "Call", "the", "bank", "now") == "Edited 1 (\(bank)): Call the bank now (title)\n")
        #expect(try s.ok("mv", "2", "Home") == "Moved 2 (\(plants)) to Home: Water plants\n")
        #expect(try s.ok("start", "2") == "Started 2 (\(plants)): Water plants\n")
        #expect(try s.ok("done", "2") == "Completed 2 (\(plants)): Water plants\n")
        #expect(try s.ok("reopen", "2") == "Reopened 2 (\(plants)): Water plants\n")
        try s.add("Another", "list:Home")
        #expect(try s.ok("reorder", "3", "--top") == "Reordered 3 (\(try s.uuidPrefix("Another"))) in Home: Another\n")
        #expect(try s.ok("rm", "1") == "Deleted 1 (\(bank)): Call the bank now\n")
        #expect(try s.ok("lists", "rename", "Home", "House") == "Renamed list Home to House\n")
        #expect(try s.ok("undo").hasPrefix("Undid lists rename: "))
        // JSON output is not a confirmation line.
        let json = try s.json("add", "Seeds", "list:Home")
        #expect(json.titles == ["Seeds"])
    }

    @Test("add confirms in the same style on a terminal; piped, it prints the bare id", .enabled(if: CLITests.hasScript))
    func addConfirmation() throws {
        let s = try Sandbox()
        try s.ok("lists", "add", "Home")
        let r = try CLITests.onTTY(s, ["add", "Fix", "the", "tap", "list:Home"])
        #expect(r.stdout == "Added 1 (\(try s.uuidPrefix("Fix the tap"))) to Home: Fix the tap\r\n")
        #expect(try s.add("Piped") == "2")
    }

    // MARK: 4. Terminal cells

    /// Cells a test string takes: 2 for CJK and emoji (the only wide text used here), else 1.
    static func cells(_ text: String) -> Int {
        text.reduce(0) { sum, c in
            let v = c.unicodeScalars.first?.value ?? 0
            let wide = (0x3000...0x9FFF).contains(v) || (0xAC00...0xD7A3).contains(v) || (0xFF00...0xFF60).contains(v) || (0x1F300...0x1FAFF).contains(v)
            return sum + (wide ? 2 : 1)
        }
    }

    @Test("lists aligns its columns by terminal cells with CJK and emoji names")
    func listsAlignByCells() throws {
        let s = try Sandbox()
        for name in ["仕事", "🏠 Home", "Errands"] { try s.ok("lists", "add", name) }
        try s.add("x", "list:仕事")
        let lines = try s.ok("lists").split(separator: "\n").map(String.init)
        // The OPEN count column ends at the same cell on every row (the header's OPEN included).
        func openEnd(_ line: String) -> Int? {
            guard let r = line.range(of: #"^.*?\s{2,}\S+"#, options: .regularExpression) else { return nil }
            return Self.cells(String(line[r]))
        }
        let ends = lines.prefix(5).compactMap(openEnd)
        #expect(ends.count == 5, "\(lines)")
        #expect(Set(ends).count == 1, "columns misaligned by cells: \(lines)")
        #expect(lines.contains { $0.hasPrefix("仕事     ") }, "a 4-cell name padded to the widest (7 cells): \(lines)")
    }

    @Test("at 80 columns on a terminal, rows fit: long titles cut with …, details whole, never wrapped mid-word",
          .enabled(if: CLITests.hasScript))
    func rowsFitTheTerminal() throws {
        let s = try Sandbox()
        let long = "Write the quarterly report on infrastructure spending with all the appendices and the summary"
        #expect(try s.tick(["add"] + long.components(separatedBy: " ") + ["due:today", "+work", "pri:must"]).status == 0)
        let cjk = String(repeating: "会議の準備をする", count: 8)
        try s.add(cjk, "due:today")
        let tags = (1...12).map { "+tag\($0)verylong" }
        #expect(try s.tick(["add", "Short", "due:today", "remind:today@17:00", "estimate:1h", "energy:low"] + tags).status == 0)
        let r = try CLITests.onTTY(s, ["today"], env: ["COLUMNS": "80"])
        #expect(r.status == 0, "\(r)")
        let rows = r.stdout.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n").map(String.init)
        for row in rows {
            #expect(Self.cells(row) <= 80, "row wider than 80 cells (\(Self.cells(row))): \(row)")
        }
        let first = try #require(rows.first { $0.contains("Write the quarterly") })
        #expect(first.contains("…  @Inbox  due today  pri:must  +work"), "title cut, details kept: \(first)")
        let second = try #require(rows.first { $0.contains("会議") })
        #expect(second.contains("…  @Inbox  due today"), "\(second)")
        // The row whose details alone are too wide: continued under the title, each word whole.
        let text = rows.joined(separator: "\n")
        for tag in tags { #expect(text.contains(tag), "\(tag) broken or lost: \(text)") }
        #expect(rows.contains { $0.hasPrefix("        ") && $0.contains("+tag") }, "continuation rows: \(rows)")
        // A pipe gets whole rows.
        let piped = try s.ok("today")
        #expect(piped.contains(long))
        #expect(piped.contains(cjk))
    }

    // MARK: 5. search

    @Test("search exits 1 when nothing matches, as grep does, and 0 when something does")
    func searchExitStatus() throws {
        let s = try Sandbox()
        try s.add("Buy milk")
        let miss = try s.tick("search", "bread")
        #expect(miss.status == 1, "\(miss)")
        #expect(miss.stdout == "No matches.\n")
        #expect(miss.stderr.isEmpty)
        let missJSON = try s.tick("search", "bread", "--json")
        #expect(missJSON.status == 1)
        #expect(missJSON.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
        let hit = try s.tick("search", "milk")
        #expect(hit.status == 0)
        #expect(hit.stdout.contains("Buy milk"))
    }
}
