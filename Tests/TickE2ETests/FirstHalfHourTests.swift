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

    @Test("any filter goes before the command: /re/, plain words, ids, +tag, or")
    func filtersBeforeTheCommand() throws {
        let s = try Sandbox()
        _ = try s.add("Buy milk", "+errand")
        _ = try s.add("Email Bob")
        _ = try s.add("Milk the cow", "+farm")
        _ = try s.add("Feed hens", "+farm")
        #expect(try s.json("/milk/", "list").titles.sorted() == ["Buy milk", "Milk the cow"])
        #expect(try s.json("milk", "cow", "list").titles == ["Milk the cow"])
        #expect(try s.json("+farm", "or", "+errand", "list").titles.count == 3)
        #expect(try s.json("1-2", "list").titles.sorted() == ["Buy milk", "Email Bob"])
        let done = try s.tick("+errand", "done")
        #expect(done.status == 0, "\(done)")
        #expect(try s.json("list").titles.sorted() == ["Email Bob", "Feed hens", "Milk the cow"])
        try s.ok("hens", "done")
        #expect(try s.json("list").titles.sorted() == ["Email Bob", "Milk the cow"])
        // A plain word before no command is still an unknown command, with its suggestion.
        let typo = try s.tick("tody")
        #expect(typo.status == 2 && typo.stderr.contains("did you mean \"today\""), "\(typo)")
        let nothing = try s.tick("milk")
        #expect(nothing.status == 2 && nothing.stderr.contains("unknown command \"milk\""), "\(nothing)")
    }

    @Test("a done task is not started or edited through its short id; --reopen asks; its UUID prefix edits it as done")
    func doneTasksStayDone() throws {
        let s = try Sandbox()
        let water = try s.add("Water plants", "repeat:daily", "due:2026-11-21")
        try s.ok(water, "done")
        let next = try #require(try s.json("list").first { $0["title"] as? String == "Water plants" })
        let nextID = try #require(next["shortId"] as? Int)
        #expect(String(nextID) != water, "the occurrence has its own number")
        // `tick 1 start` on the number the done occurrence keeps: refused, nothing written.
        let before = try String(contentsOfFile: s.store + "/inbox.json", encoding: .utf8)
        let start = try s.tick(water, "start")
        #expect(start.status == 1 && start.stdout.isEmpty, "\(start)")
        #expect(start.stderr.hasPrefix("tick: error: \(water) is done (Water plants); nothing changed; `tick start --reopen \(water)`"), "\(start)")
        let edit = try s.tick("edit", water, "due:fri")
        #expect(edit.status == 1 && edit.stderr.contains("is done") && edit.stderr.contains("changes it as a done task"), "\(edit)")
        #expect(try String(contentsOfFile: s.store + "/inbox.json", encoding: .utf8) == before, "nothing was written")
        #expect(try s.json("list").filter { $0["title"] as? String == "Water plants" }.count == 1, "one open copy of the series")
        // Its UUID prefix edits it as a done task.
        let done = try #require(try s.json("list", "--all").first { $0["state"] as? String == "done" })
        let prefix = String(try #require(done["id"] as? String).prefix(8))
        try s.ok("edit", prefix, "+watered")
        #expect(try s.showJSON(prefix).string("state") == "done")
        // --reopen asks for it.
        try s.ok("start", "--reopen", water)
        #expect(try s.showJSON(water).string("state") == "active")
        try s.ok(water, "stop")
        #expect(try s.showJSON(water).string("state") == "open")
        let notActive = try s.tick("stop", water)
        #expect(notActive.status == 0 && notActive.stdout.contains("was not active"), "\(notActive)")
        // A second done says so and changes nothing.
        try s.ok(water, "done")
        let again = try s.tick(water, "done")
        #expect(again.status == 0 && again.stdout.contains("was already done"), "\(again)")
    }

    @Test("modify is edit; title: sets the title; wait after due warns; status and init say the right thing")
    func smallHabits() throws {
        let s = try Sandbox()
        let id = try s.add("Draft")
        try s.ok(id, "modify", "title:Final draft", "+work")
        #expect(try s.showJSON(id).string("title") == "Final draft")
        try s.ok("mod", id, "description:Last")
        #expect(try s.showJSON(id).string("title") == "Last")
        let late = try s.tick("add", "Late", "due:2026-12-01", "wait:2026-12-04")
        #expect(late.status == 0 && late.stderr.contains("waits until 2026-12-04, after it is due (2026-12-01)"), "\(late)")
        let fine = try s.tick("add", "Fine", "due:2026-12-01", "wait:2026-12-01")
        #expect(fine.status == 0 && !fine.stderr.contains("waits until"), "\(fine)")
        let edited = try s.tick("edit", id, "due:2026-12-01", "wait:2026-12-02")
        #expect(edited.stderr.contains("after it is due"), "\(edited)")
        // tick status before the store exists: nothing alarming.
        let fresh = try s.tick("status", env: ["TICK_STORE": nil, "XDG_DATA_HOME": s.root + "/data"])
        #expect(fresh.status == 0 && fresh.stdout.contains("not made yet"), "\(fresh)")
        #expect(!fresh.stdout.contains("probe failed") && fresh.stdout.contains("atomic exchange (renameat2)"), "\(fresh)")
        // tick init FILE names the right fix.
        FileManager.default.createFile(atPath: s.root + "/notes.txt", contents: Data("x".utf8))
        let initFile = try s.tick("init", s.root + "/notes.txt")
        #expect(initFile.status == 2 && initFile.stderr.contains("is a file, not a directory") && !initFile.stderr.contains("--store"), "\(initFile)")
        // Taskwarrior's reports name tick's nearest command.
        for (verb, form) in ["calendar": "tick upcoming", "burndown": "tick stats", "completion": "tick --generate-completion-script"] {
            let r = try s.tick(verb)
            #expect(r.status == 2 && r.stderr.contains("(Taskwarrior's); in tick: \(form)"), "\(verb): \(r)")
        }
    }

    @Test("project:/list: make the list on first use in add, edit, mv and context define; said once; one undo takes back both")
    func listsMadeOnFirstUse() throws {
        let s = try Sandbox()
        let milk = try s.tick("add", "Buy", "milk", "project:Home", "+errand")
        #expect(milk.status == 0 && milk.stderr == "Created list Home\n", "\(milk)")
        let eggs = try s.tick("add", "Eggs", "project:home")
        #expect(eggs.status == 0 && eggs.stderr.isEmpty, "the second time it exists: \(eggs)")
        #expect(try s.json("list", "list:Home").titles.sorted() == ["Buy milk", "Eggs"])
        // A typo of an existing list is refused with its name, and nothing is written.
        let before = try s.fingerprint()
        let typo = try s.tick("add", "Bread", "project:Hom")
        #expect(typo.status == 3 && typo.stderr.contains("did you mean \"Home\"?"), "\(typo)")
        #expect(try s.fingerprint() == before)
        // edit (Taskwarrior's modify project:) moves, making the list.
        let id = milk.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let edit = try s.tick(id, "modify", "project:Shop", "pri:must")
        #expect(edit.status == 0 && edit.stdout.contains("Created list Shop") && edit.stdout.contains("Moved \(id)"), "\(edit)")
        #expect(try s.showJSON(id).string("list") == "Shop" && s.showJSON(id).string("priority") == "must")
        try s.ok("undo")
        #expect(try s.showJSON(id).string("list") == "Home" && s.showJSON(id)["priority"] == nil, "one undo takes back the edit, the move and the list")
        #expect(!s.storeFiles().contains("lists/shop.json"))
        // mv.
        let mv = try s.tick("mv", id, "Garden")
        #expect(mv.status == 0 && mv.stdout.hasPrefix("Created list Garden\n"), "\(mv)")
        // context define.
        let context = try s.tick("context", "define", "work", "project:Work")
        #expect(context.status == 0 && context.stdout.contains("Created list Work"), "\(context)")
        try s.ok("context", "work")
        let report = try s.add("Report")
        #expect(try s.showJSON(report).string("list") == "Work")
        try s.ok("context", "none")
        // Taskwarrior's order is journaled like tick's: `tick 3 done` then `tick undo`.
        try s.ok(report, "done")
        try s.ok("undo")
        #expect(try s.showJSON(report).string("state") == "open")
    }

    @Test("make demo's clock: the sample store read at the Makefile's DEMO_NOW shows the README's tour (today's tasks, a few days overdue), on any day")
    func demoRunsAtTheSamplesDate() throws {
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let makefile = try String(contentsOf: repo.appendingPathComponent("Makefile"), encoding: .utf8)
        let line = try #require(makefile.split(separator: "\n").first { $0.hasPrefix("DEMO_NOW = ") })
        let demoNow = String(line.dropFirst("DEMO_NOW = ".count))
        #expect(makefile.contains("DEMO_ENV = TICK_NOW=$(DEMO_NOW) TZ=UTC"))
        #expect(makefile.contains("@$(DEMO_ENV) $(SWIFT) run --skip-build tick --store SampleData today"))
        let s = try Sandbox()
        let today = try s.tick("--store", repo.appendingPathComponent("SampleData").path, "today", env: ["TICK_NOW": demoNow, "TZ": "UTC", "NO_COLOR": "1"])
        #expect(today.status == 0, "\(today)")
        #expect(today.stdout.contains("Pick up dry cleaning  @Errands  due today 17:00"), "\(today.stdout)")
        let overdue = today.stdout.split(separator: "\n").compactMap { line -> Int? in
            guard let r = line.range(of: "d overdue") else { return nil }
            return Int(line[..<r.lowerBound].split(separator: " ").last ?? "")
        }
        #expect(!overdue.isEmpty && overdue.allSatisfy { $0 <= 4 }, "the tour's few overdue tasks, not the whole sample: \(overdue)")
    }
}
