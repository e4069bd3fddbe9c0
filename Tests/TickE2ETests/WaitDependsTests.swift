import Foundation
import Testing

/// `wait:` (hidden until then) and `depends:` (blocked until done), with the
/// built binary. The pinned clock is 2026-11-21 10:00 in Berlin (Saturday).
@Suite("waiting and dependencies")
struct WaitDependsTests {
    static let tomorrow = "2026-11-22T09:00:00Z"

    static func titles(_ s: Sandbox, _ args: String..., now: String? = nil) throws -> [String] {
        let r = try s.tick(args + ["--json"], now: now)
        #expect(r.status == 0 || (args.first == "search" && r.status == 1), "\(r)")
        let array = try JSONSerialization.jsonObject(with: r.stdoutData) as? [[String: Any]] ?? []
        return array.compactMap { $0["title"] as? String }
    }

    @Test("a waiting task is hidden from every view, status line and search until its day; --all and show show it")
    func waitingIsHidden() throws {
        let s = try Sandbox()
        try s.add("Visible task", "due:today", "+home")
        let id = try s.add("Hidden until tomorrow", "due:today", "+home", "wait:tomorrow")
        for view in ["list", "today", "inbox"] {
            #expect(try s.json(view).titles == ["Visible task"], "\(view)")
            #expect(try s.json(view, "--all").titles.contains("Hidden until tomorrow"), "\(view) --all")
        }
        #expect(try s.json("upcoming", now: "2026-11-20T09:00:00Z").titles == ["Visible task"])
        #expect(try s.json("list").titles == ["Visible task"])
        #expect(try s.json("today").titles == ["Visible task"])
        #expect(try Self.titles(s, "search", "task") == ["Visible task"])
        #expect(try s.tick("search", "Hidden").status == 1, "no match while it waits")
        // --all shows it, with its wait.
        #expect(try s.json("list", "--all").titles == ["Visible task", "Hidden until tomorrow"])
        #expect(try Self.titles(s, "search", "Hidden", "--all") == ["Hidden until tomorrow"])
        let listed = try s.ok("list", "--all")
        #expect(listed.contains("wait tomorrow"), "\(listed)")
        #expect(try s.showJSON(id).string("wait") == "2026-11-22")
        let shown = try s.ok("show", id)
        #expect(shown.contains("wait") && shown.contains("2026-11-22") && shown.contains("hidden from views"), "\(shown)")
        // The status line counts and names only what the today view shows.
        #expect(try s.ok("status-line") == "1 due · Visible task\n")

        // Tomorrow (local midnight has passed) it is back, and overdue like the other.
        #expect(try s.json("list", now: Self.tomorrow).titles == ["Visible task", "Hidden until tomorrow"])
        #expect(try s.json("overdue", now: Self.tomorrow).titles == ["Visible task", "Hidden until tomorrow"])
        #expect(try s.ok("status-line", now: Self.tomorrow).hasPrefix("2 overdue"))

        // wait: clears it; --wait sets it again.
        try s.ok("edit", id, "wait:")
        #expect(try s.json("today").titles.contains("Hidden until tomorrow"))
        try s.ok("edit", id, "--wait", "2026-11-25")
        #expect(!(try s.json("today").titles.contains("Hidden until tomorrow")))
        #expect(try s.showJSON(id).string("wait") == "2026-11-25")
        #expect(try s.tasks("inbox.json").task("Hidden until tomorrow")?["changed"].flatMap { $0 as? [String: Any] }?["wait"] != nil,
                "the change time of wait is recorded")
    }

    @Test("a blocked task is marked [b] and blocked:true, sorted after the others, and unblocked when its dependency is done")
    func blockedIsMarkedAndSortedLast() throws {
        let s = try Sandbox()
        let paint = try s.add("Buy paint", "due:today")
        let wall = try s.add("Paint the wall", "due:today", "depends:\(paint)")
        try s.add("Water plants", "due:today")
        // Manual order is paint, wall, plants: the blocked one moves after plants.
        #expect(try s.json("list").titles == ["Buy paint", "Water plants", "Paint the wall"])
        let today = try s.json("today")
        #expect(today.titles.last == "Paint the wall")
        #expect(today.task("Paint the wall")?["blocked"] as? Bool == true)
        #expect(today.task("Buy paint")?["blocked"] == nil)
        let text = try s.ok("list")
        let wallLine = try #require(lines(text).first { $0.contains("Paint the wall") })
        #expect(wallLine.contains("[b]") && wallLine.contains("blocked"), "\(wallLine)")
        #expect(lines(text).first { $0.contains("Buy paint") }?.contains("[ ]") == true)
        // Stored by UUID.
        let stored = try #require(try s.tasks("inbox.json").task("Paint the wall"))
        let paintID = try #require(try s.tasks("inbox.json").task("Buy paint")?.string("id"))
        #expect(stored["depends"] as? [String] == [paintID])
        let shown = try s.ok("show", "\(wall)")
        #expect(shown.contains("depends") && shown.contains("\(paint) (open)") && shown.contains("blocked"), "\(shown)")

        try s.ok("done", paint)
        let after = try s.json("list")
        #expect(after.titles == ["Paint the wall", "Water plants"])
        #expect(after.task("Paint the wall")?["blocked"] == nil)
    }

    @Test("suggest and plan --auto never propose a blocked task")
    func blockedIsNeverProposed() throws {
        let s = try Sandbox()
        let first = try s.add("Unblocked first", "pri:must", "estimate:30m")
        try s.add("Blocked must-do", "pri:must", "estimate:30m", "due:today", "depends:\(first)")
        let suggest = try s.ok("suggest", "--limit", "10")
        #expect(suggest.contains("Unblocked first"), "\(suggest)")
        #expect(!suggest.contains("Blocked must-do"), "\(suggest)")
        let plan = try s.tick("plan", "--auto", "--all", "--json")
        #expect(plan.status == 0, "\(plan)")
        #expect(plan.stdout.contains("Unblocked first"), "\(plan.stdout)")
        #expect(!plan.stdout.contains("Blocked must-do"), "\(plan.stdout)")
        // Once its dependency is done, it is proposed.
        try s.ok("done", first)
        #expect(try s.ok("suggest", "--limit", "10").contains("Blocked must-do"))
    }

    @Test("depends: takes short ids and UUID prefixes; -ID removes one, none clears; --depends does the same")
    func dependsInput() throws {
        let s = try Sandbox()
        let a = try s.add("Task A")
        let b = try s.add("Task B")
        let c = try s.add("Task C")
        let aPrefix = try s.uuidPrefix("Task A")
        try s.ok("edit", c, "depends:\(aPrefix),\(b)")
        let ids = { (title: String) throws -> String in try #require(try s.tasks("inbox.json").task(title)?.string("id")) }
        #expect(try s.tasks("inbox.json").task("Task C")?["depends"] as? [String] == [try ids("Task A"), try ids("Task B")])
        try s.ok("edit", c, "depends:-\(a)")
        #expect(try s.tasks("inbox.json").task("Task C")?["depends"] as? [String] == [try ids("Task B")])
        try s.ok("edit", c, "depends:none")
        #expect(try s.tasks("inbox.json").task("Task C")?["depends"] == nil)
        try s.ok("edit", c, "--depends", "\(a),\(b)")
        #expect((try s.tasks("inbox.json").task("Task C")?["depends"] as? [String])?.count == 2)
        // A dependency that names no task is the lookup error `tick done` gives.
        let missing = try s.tick("edit", c, "depends:99")
        #expect(missing.status != 0)
        #expect(missing.stderr.hasPrefix("tick: error:"), "\(missing)")
    }

    @Test("a cycle and a task depending on itself are refused with one error line, exit 2, nothing written")
    func cyclesAreRefused() throws {
        let s = try Sandbox()
        let a = try s.add("Task A")
        let b = try s.add("Task B")
        let c = try s.add("Task C")
        try s.ok("edit", b, "depends:\(a)")
        try s.ok("edit", c, "depends:\(b)")
        let before = try s.fingerprint()
        let cycle = try s.tick("edit", a, "depends:\(c)")
        #expect(cycle.status == 2, "\(cycle)")
        #expect(lines(cycle.stderr).count == 1, "\(cycle)")
        #expect(cycle.stderr.hasPrefix("tick: error: depends:") && cycle.stderr.contains("cycle"), "\(cycle)")
        #expect(cycle.stderr.contains("\(a) -> \(c) -> \(b) -> \(a)"), "\(cycle)")
        let own = try s.tick("edit", a, "depends:\(a)")
        #expect(own.status == 2, "\(own)")
        #expect(own.stderr == "tick: error: depends: task \(a) cannot depend on itself\n", "\(own)")
        #expect(try s.fingerprint() == before)
        // Removing the edge that closes the loop in the same edit is not a cycle.
        try s.ok("edit", c, "depends:-\(b),\(a)")
        #expect(try s.tasks("inbox.json").task("Task C")?["depends"] as? [String] == [try #require(try s.tasks("inbox.json").task("Task A")?.string("id"))])
    }

    @Test("removing a task drops the dependencies on it, with one warning naming the dependent by id")
    func removedDependencyIsDropped() throws {
        let s = try Sandbox()
        let a = try s.add("Secret dependency")
        let b = try s.add("Secret dependent", "depends:\(a)")
        let r = try s.tick("rm", a)
        #expect(r.status == 0, "\(r)")
        let warnings = lines(r.stderr)
        #expect(warnings.count == 1, "\(r)")
        #expect(warnings.first?.hasPrefix("tick: warning: task \(b):") == true, "\(r)")
        #expect(!r.stderr.contains("Secret"), "no titles in the warning: \(r)")
        #expect(try s.tasks("inbox.json").task("Secret dependent")?["depends"] == nil)
        // One undo puts both back.
        try s.ok("undo")
        #expect((try s.tasks("inbox.json").task("Secret dependent")?["depends"] as? [String])?.count == 1)
    }

    @Test("a dependency on a task that is gone (deleted elsewhere) is dropped by the next edit of the task, with a warning")
    func goneDependencyIsDroppedOnEdit() throws {
        let s = try Sandbox()
        let b = try s.add("Dependent")
        // Written by hand (or merged in): a dependency on a task that is not in the store.
        var text = try s.text("inbox.json")
        let id = try #require(try s.tasks("inbox.json").task("Dependent")?.string("id"))
        text = text.replacingOccurrences(of: "\"id\": \"\(id)\",", with: "\"id\": \"\(id)\",\n      \"depends\": [\"0e4f3c2a-5b6d-4e7f-8a9b-0c1d2e3f4a5b\"],")
        try s.write("inbox.json", text)
        #expect((try s.tasks("inbox.json").task("Dependent")?["depends"] as? [String]) == ["0e4f3c2a-5b6d-4e7f-8a9b-0c1d2e3f4a5b"])
        // A missing task blocks nothing.
        #expect(try s.json("list").task("Dependent")?["blocked"] == nil)
        let r = try s.tick("edit", b, "+home")
        #expect(r.status == 0, "\(r)")
        #expect(r.stderr == "tick: warning: task \(b): dropped its dependency on 0e4f3c2a, a task that no longer exists\n", "\(r)")
        #expect(try s.tasks("inbox.json").task("Dependent")?["depends"] == nil)
    }

    @Test("on a generated store, blocked and waiting in tick's answers match a straightforward scan of the files")
    func generatedStoreMatchesAScan() throws {
        let s = try Sandbox()
        // A seeded store: 3 files, 240 tasks, random states, waits and dependencies
        // (some on tasks in other files, some on ids no task has).
        var seed: UInt64 = 0x5eed
        func next(_ n: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(n))
        }
        let ids = (0..<240).map { String(format: "00000000-0000-4000-8000-%012x", $0 + 1) }
        let ghost = "00000000-0000-4000-8000-0000000fffff"
        var objects: [[String: Any]] = []
        for (i, id) in ids.enumerated() {
            var t: [String: Any] = ["id": id, "title": "Task \(i)", "state": ["open", "open", "active", "done"][next(4)],
                                    "createdAt": "2026-11-01T08:00:00Z", "modifiedAt": "2026-11-01T08:00:00Z"]
            if t["state"] as? String == "done" { t["completedAt"] = "2026-11-02T08:00:00Z" }
            if next(4) == 0 { t["wait"] = ["2026-11-20", "2026-11-21", "2026-11-22", "2026-11-21T08:59:59Z", "2026-11-21T09:00:01Z"][next(5)] }
            if next(3) == 0 { t["depends"] = Array(Set((0..<(1 + next(3))).map { _ in next(10) == 0 ? ghost : ids[next(ids.count)] }).subtracting([id])).sorted() }
            if next(2) == 0 { t["due"] = "2026-11-\(String(format: "%02d", 15 + next(12)))" }
            objects.append(t)
        }
        let files = [("inbox.json", nil as String?), ("lists/a.json", "A"), ("lists/b.json", "B")]
        try FileManager.default.createDirectory(atPath: s.path("lists"), withIntermediateDirectories: true)
        for (n, (path, name)) in files.enumerated() {
            var file: [String: Any] = ["version": 1, "tasks": Array(objects[(n * 80)..<((n + 1) * 80)])]
            if let name { file["name"] = name }
            try s.write(path, String(decoding: try JSONSerialization.data(withJSONObject: file), as: UTF8.self))
        }
        // The scan: pinned now is 2026-11-21T09:00:00Z, 10:00 in Berlin.
        let state = Dictionary(uniqueKeysWithValues: objects.map { ($0["id"] as? String ?? "", $0["state"] as? String ?? "") })
        func waiting(_ t: [String: Any]) -> Bool {
            guard let w = t["wait"] as? String else { return false }
            return w.count == 10 ? w > "2026-11-21" : w > "2026-11-21T09:00:00Z"
        }
        func blocked(_ t: [String: Any]) -> Bool {
            (t["depends"] as? [String] ?? []).contains { state[$0].map { $0 != "done" } ?? false }
        }
        let pendingShown = objects.filter { $0["state"] as? String != "done" && !waiting($0) }
        let listed = try s.json("list")
        #expect(Set(listed.compactMap { $0.string("id") }) == Set(pendingShown.compactMap { $0["id"] as? String }))
        #expect(Set(listed.filter { $0["blocked"] as? Bool == true }.compactMap { $0.string("id") })
                == Set(pendingShown.filter(blocked).compactMap { $0["id"] as? String }))
        #expect(!listed.isEmpty && listed.contains { $0["blocked"] as? Bool == true } && listed.contains { $0["blocked"] == nil },
                "the generated store has both kinds")
        // Within each list, every unblocked task comes before every blocked one.
        for file in ["inbox.json", "lists/a.json", "lists/b.json"] {
            let flags = listed.filter { $0.string("file") == file }.map { $0["blocked"] as? Bool == true }
            #expect(flags == flags.sorted { !$0 && $1 }, "\(file)")
        }
        let all = try s.json("list", "--all")
        #expect(all.count == objects.count)
        #expect(Set(all.filter { $0["blocked"] as? Bool == true }.compactMap { $0.string("id") })
                == Set(objects.filter { blocked($0) && $0["state"] as? String != "done" }.compactMap { $0["id"] as? String }),
                "a done task is never blocked")
        let overdue = try s.json("overdue")
        #expect(Set(overdue.compactMap { $0.string("id") })
                == Set(pendingShown.filter { ($0["due"] as? String ?? "9999") < "2026-11-21" }.compactMap { $0["id"] as? String }))
    }

    @Test("with real git: machine A sets a wait, machine B adds a dependency; after tick sync on both, both survive")
    func gitMergeKeepsWaitAndDepends() throws {
        let m = try GitMachines { s in
            try s.ok("lists", "add", "Work")
            for t in ["T1", "T2", "T3"] { try s.add(t, "list:Work") }
        }
        let (a, b) = (m.a, m.b)
        try a.ok("edit", try a.uuidPrefix("T1"), "wait:2026-12-01", now: "2026-11-21T10:00:00Z")
        try b.ok("edit", try b.uuidPrefix("T1"), "depends:\(try b.uuidPrefix("T2"))", now: "2026-11-21T10:30:00Z")
        try b.ok("edit", try b.uuidPrefix("T3"), "depends:\(try b.uuidPrefix("T2"))", now: "2026-11-21T10:30:00Z")
        try a.ok("edit", try a.uuidPrefix("T3"), "depends:\(try a.uuidPrefix("T1"))", now: "2026-11-21T10:40:00Z")
        for s in [a, b, a] {
            let r = try s.tick("sync")
            #expect(r.status == 0, "\(r)")
        }
        #expect(try a.text("lists/work.json") == b.text("lists/work.json"))
        let tasks = try b.tasks("lists/work.json")
        let t1 = try #require(tasks.task("T1"))
        let t2 = try #require(tasks.task("T2")?.string("id"))
        let t1id = try #require(t1.string("id"))
        #expect(t1.string("wait") == "2026-12-01", "A's wait: \(t1)")
        #expect(t1["depends"] as? [String] == [t2], "B's dependency: \(t1)")
        // T3: each side added a different dependency; the set keeps both.
        #expect(Set(tasks.task("T3")?["depends"] as? [String] ?? []) == [t2, t1id])
        #expect(try b.git("status", "--porcelain").stdout == "")
    }

    @Test("tick → task import → task export → tick import keeps wait and depends (real Taskwarrior)",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/task") || FileManager.default.isExecutableFile(atPath: "/usr/local/bin/task")))
    func taskwarriorRoundTrip() throws {
        let s = try Sandbox()
        let first = try s.add("Buy paint")
        try s.add("Paint the wall", "wait:2030-01-01", "depends:\(first)")
        try s.add("Call at noon", "wait:2030-01-02@12:00")
        let before = try s.json("list", "--all")
        let out = try s.tick("export", "--format", "taskwarrior", "-o", s.root + "/tw.json")
        #expect(out.status == 0, "\(out)")
        let tw = try TaskwarriorInterchangeTests.TW(s, "tw")
        try tw.task("import", s.root + "/tw.json")
        let exported = try tw.export()
        let wallID = try #require(before.task("Paint the wall")?.string("id"))
        let wall = try #require(exported[wallID])
        // Taskwarrior 2.6 stores a waiting task as pending with a wait date (3.x the same).
        #expect(["waiting", "pending"].contains(wall.string("status") ?? ""), "\(wall)")
        #expect(wall.string("wait") == "20291231T230000Z", "local midnight in Berlin: \(wall)")
        let dep = wall["depends"]
        let deps = (dep as? String).map { $0.split(separator: ",").map(String.init) } ?? (dep as? [String] ?? [])
        let paintID = try #require(before.task("Buy paint")?.string("id"))
        #expect(deps == [paintID], "\(wall)")

        // Back into a fresh tick store.
        let fresh = try Sandbox()
        let raw = try tw.task("export")
        let r = try fresh.tick("import", "-", "--format", "taskwarrior", stdin: raw.stdout)
        #expect(r.status == 0, "\(r)")
        let after = try fresh.json("list", "--all")
        for title in ["Buy paint", "Paint the wall", "Call at noon"] {
            let x = try #require(before.task(title)), y = try #require(after.task(title), "\(title) lost")
            #expect(y.string("wait") == x.string("wait"), "\(title): wait \(String(describing: x.string("wait"))) → \(String(describing: y.string("wait")))")
            #expect(y["depends"] as? [String] == x["depends"] as? [String], "\(title): depends")
        }
        #expect(after.task("Paint the wall")?["blocked"] as? Bool == true)
    }

    @Test("iCalendar: RELATED-TO;RELTYPE=DEPENDS-ON per dependency and X-TICK-WAIT, both ways")
    func iCalendarRoundTrip() throws {
        let s = try Sandbox()
        let first = try s.add("Buy paint")
        try s.add("Paint the wall", "wait:2026-11-25", "depends:\(first)")
        let ics = try s.ok("export", "--format", "ics")
        let paintID = try #require(try s.tasks("inbox.json").task("Buy paint")?.string("id"))
        #expect(ics.contains("RELATED-TO;RELTYPE=DEPENDS-ON:\(paintID)\r\n"), "\(ics)")
        #expect(ics.contains("X-TICK-WAIT:2026-11-25\r\n"), "\(ics)")
        let fresh = try Sandbox()
        let r = try fresh.tick("import", "-", "--format", "ics", stdin: ics)
        #expect(r.status == 0, "\(r)")
        let wall = try #require(try fresh.tasks("inbox.json").task("Paint the wall"))
        #expect(wall.string("wait") == "2026-11-25")
        #expect(wall["depends"] as? [String] == [paintID])
    }
}
