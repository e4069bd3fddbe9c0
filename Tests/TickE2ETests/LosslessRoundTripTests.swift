import Foundation
import Testing

/// Issue 45, "Round trips that keep everything": todo.txt keeps `wait` and
/// `depends` and titles that look like `key:value`; a bad line is skipped, not
/// the whole file; a re-import that changes nothing changes no byte; a
/// repeating task goes to Taskwarrior as one series; a hook may change the
/// estimate. Each against the real tool where there is one.
@Suite("Lossless round trips (issue 45)")
struct LosslessRoundTripTests {
    /// A store with a task in every shape the issue names: completed at
    /// 10:00:01 local, started, waiting, depending, timed, estimated, noted,
    /// slotted, and one whose title holds marker-like words.
    static func fixture() throws -> Sandbox {
        let s = try Sandbox()
        try s.ok("lists", "add", "Work")
        try s.add("Pay rent")
        try s.ok("done", "1", now: "2026-11-21T09:00:01Z")
        try s.ok("add", "Report", "list:Work", "due:2026-11-24T16:00", "remind:2026-11-24@9am", "pri:must", "estimate:45m",
                 "energy:high", "sched:2026-11-23", "--note", "two\nlines")
        try s.ok("add", "Later thing", "wait:2026-11-28", "+home")
        try s.ok("edit", "3", "depends:2")
        try s.add("Started")
        try s.ok("start", "4", now: "2026-11-21T09:00:07Z")
        try s.ok("add", "Date test due:-7d mail @bob re +work and a\\:b, C:\\\\dir", "pri:flexible")
        return s
    }

    static let trickyTitle = "Date test due:-7d mail @bob re +work and a\\:b, C:\\\\dir"

    @Test("todo.txt keeps wait and depends: written as wait: and depends:<uuid>, read back into a fresh store and after todo.sh do")
    func todoTxtKeepsWaitAndDepends() throws {
        let s = try Self.fixture()
        let before = try s.json("list", "--all")
        let report = try #require(before.task("Report")?.string("id"))
        let later = try #require(before.task("Later thing"))
        #expect(later.string("wait") == "2026-11-28" && (later["depends"] as? [String]) == [report], "\(later)")
        let file = s.root + "/todo.txt"
        try s.ok("export", "--format", "todotxt", "-o", file)
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let line = try #require(lines(text).first { $0.contains("Later thing") })
        #expect(line.contains(" wait:2026-11-28 ") && line.contains(" depends:\(report) "), "\(line)")

        // Into an empty store: the same wait and dependency.
        let fresh = try Sandbox()
        let r = try fresh.tick("import", file)
        #expect(r.status == 0, "\(r)")
        let imported = try fresh.json("list", "--all")
        let copy = try #require(imported.task("Later thing"))
        #expect(copy.string("wait") == "2026-11-28", "\(copy)")
        #expect((copy["depends"] as? [String]) == [report], "\(copy)")

        // todo.sh completes the Report line; the import completes it and keeps the rest.
        if let cli = todoTxtCLI {
            let (dir, config) = try TodoTxtInterchangeTests.todoDir(s)
            try FileManager.default.copyItem(atPath: file, toPath: dir + "/todo.txt")
            let number = try #require(lines(text).firstIndex { $0.contains("Report") }) + 1
            let done = try s.run(cli, ["-d", config, "-a", "do", String(number)])
            #expect(done.status == 0, "\(done)")
            let back = try s.tick("import", dir + "/todo.txt")
            #expect(back.status == 0 && back.stdout.hasPrefix("Imported: 0 added, 1 updated"), "\(back)")
            let after = try s.json("list", "--all")
            #expect(after.task("Report")?.string("state") == "done")
            #expect(after.task("Later thing")?.string("wait") == "2026-11-28")
            #expect((after.task("Later thing")?["depends"] as? [String]) == [report])
        }
    }

    @Test("a title holding due:-7d, @word, +word and backslashes is escaped on export and read back to the same title, also through todo.sh")
    func todoTxtTitlesThatLookLikeMarkers() throws {
        let s = try Self.fixture()
        #expect(try s.json("list", "--all").task(Self.trickyTitle) != nil, "the fixture's title is kept as typed")
        let file = s.root + "/todo.txt"
        try s.ok("export", "--format", "todotxt", "-o", file)
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let line = try #require(lines(text).first { $0.contains("Date test") })
        #expect(line.hasPrefix("(B) 2026-11-21 Date test due\\:-7d mail \\@bob re \\+work and a\\\\:b, C\\:\\\\dir tick:"), "\(line)")

        let fresh = try Sandbox()
        let r = try fresh.tick("import", file)
        #expect(r.status == 0, "\(r)")
        let freshTasks = try fresh.json("list", "--all")
        let copy = try #require(freshTasks.task(Self.trickyTitle), "\(freshTasks.titles)")
        #expect(copy.string("due") == nil && (copy.tagList ?? []).isEmpty, "\(copy)")
        #expect(try fresh.tasks("inbox.json").contains { $0.string("title") == Self.trickyTitle }, "+work made no list")

        if let cli = todoTxtCLI {
            // todo.sh passes the escaped words through; tick still reads the title back.
            let (dir, config) = try TodoTxtInterchangeTests.todoDir(s)
            try FileManager.default.copyItem(atPath: file, toPath: dir + "/todo.txt")
            let number = try #require(lines(text).firstIndex { $0.contains("Date test") }) + 1
            #expect(try s.run(cli, ["-d", config, "-a", "do", String(number)]).status == 0)
            let back = try s.tick("import", dir + "/todo.txt")
            #expect(back.status == 0 && back.stdout.hasPrefix("Imported: 0 added, 1 updated"), "\(back)")
            let done = try #require(try s.json("list", "--all").task(Self.trickyTitle))
            #expect(done.string("state") == "done")
        }
    }

    @Test("a bad todo.txt line is reported with file and line and skipped (exit 4); --strict imports nothing")
    func badTodoTxtLineIsSkipped() throws {
        let s = try Sandbox()
        let file = s.root + "/mixed.txt"
        try Data("Buy milk\nCall mom due:someday\n(A) Pay rent due:2026-11-30\nx 2026-13-45 Broken date\n".utf8).write(to: URL(fileURLWithPath: file))
        let r = try s.tick("import", file)
        #expect(r.status == 4, "\(r)")
        #expect(r.stdout == "Imported: 2 added, 0 updated, 0 unchanged, 0 kept (newer here), 2 skipped (bad lines)\n", "\(r)")
        let errors = lines(r.stderr)
        #expect(errors.count == 2, "\(r.stderr)")
        #expect(errors.first == "\(file):2: error: invalid due date \"someday\"; use due:YYYY-MM-DD; the line was skipped", "\(r.stderr)")
        #expect(errors.last?.hasPrefix("\(file):4: error: ") == true && errors.last?.hasSuffix("; the line was skipped") == true, "\(r.stderr)")
        #expect(Set(try s.json("list", "--all").titles) == ["Buy milk", "Pay rent"])

        let strict = try Sandbox()
        let refused = try strict.tick("import", file, "--strict")
        #expect(refused.status == 4, "\(refused)")
        #expect(refused.stdout.isEmpty)
        #expect(lines(refused.stderr) == ["\(file):2: error: invalid due date \"someday\"; use due:YYYY-MM-DD; nothing was imported"], "\(refused)")
        #expect(try strict.json("list", "--all").isEmpty)
        #expect(strict.storeFiles().isEmpty, "nothing was written")

        // A file without bad lines imports as before: exit 0.
        let clean = s.root + "/clean.txt"
        try Data("Water plants\n".utf8).write(to: URL(fileURLWithPath: clean))
        let ok = try s.tick("import", clean)
        #expect(ok.status == 0 && ok.stderr.isEmpty && ok.stdout == "Imported: 1 added, 0 updated, 0 unchanged, 0 kept (newer here)\n", "\(ok)")
    }

    @Test("a bad CSV row is skipped the same way; --strict refuses the file")
    func badCSVRowIsSkipped() throws {
        let s = try Sandbox()
        let file = s.root + "/tasks.csv"
        try Data("title,state,due\nBuy milk,open,\nCall mom,finished,\n\"Two, with a comma\",open,2026-11-30\n".utf8).write(to: URL(fileURLWithPath: file))
        let r = try s.tick("import", file)
        #expect(r.status == 4, "\(r)")
        #expect(r.stdout.hasSuffix(", 1 skipped (bad row)\n"), "\(r)")
        #expect(lines(r.stderr) == ["\(file):3: error: state must be open, active or done, found \"finished\"; the row was skipped"], "\(r)")
        #expect(Set(try s.json("list", "--all").titles) == ["Buy milk", "Two, with a comma"])
        let strict = try Sandbox()
        let refused = try strict.tick("import", file, "--strict")
        #expect(refused.status == 4 && refused.stderr.hasSuffix("; nothing was imported\n"), "\(refused)")
        #expect(try strict.json("list", "--all").isEmpty)
    }

    @Test("re-importing tick's own todo.txt, Taskwarrior and CSV export a day later reports nothing updated and changes no byte",
          arguments: ["todotxt", "taskwarrior", "csv"])
    func reimportChangesNothing(format: String) throws {
        let s = try Self.fixture()
        let file = s.root + "/export." + format
        try s.ok("export", "--format", format, "-o", file)
        let before = try s.fingerprint()
        let r = try s.tick("import", file, "--format", format, now: "2026-11-22T15:00:00Z")
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout == "Imported: 0 added, 0 updated, 5 unchanged, 0 kept (newer here)\n", "\(format): \(r)")
        #expect(try s.fingerprint() == before, "\(format): a store file changed")
        let paid = try #require(try s.json("list", "--all").task("Pay rent"))
        #expect(paid.string("completedAt") == "2026-11-21T09:00:01Z" && paid.string("modifiedAt") == "2026-11-21T09:00:01Z", "\(paid)")

        // And into an empty store, then back: the same tasks, the same fields.
        let fresh = try Sandbox()
        #expect(try fresh.tick("import", file, "--format", format).status == 0)
        let copy = try fresh.json("list", "--all")
        let original = try s.json("list", "--all")
        #expect(Set(copy.titles) == Set(original.titles), "\(format)")
        for key in ["wait", "depends", "estimate", "energy", "priority", "scheduled", "remind", "state"] {
            for task in original {
                let title = task.string("title") ?? ""
                let a = try canonicalJSON([task[key] ?? NSNull()]), b = try canonicalJSON([copy.task(title)?[key] ?? NSNull()])
                #expect(a == b, "\(format): \(title) \(key): \(a) became \(b)")
            }
        }
    }
}

extension TaskwarriorInterchangeTests {
    /// The recurring records Taskwarrior holds for `description`, after a report made its instances.
    static func series(_ tw: TW, _ description: String) throws -> (templates: [[String: Any]], pending: [[String: Any]]) {
        // Any report makes the instances a template is due (exit 1 when it shows nothing).
        _ = try tw.s.run("/usr/bin/env", ["task", "next"], env: ["TASKRC": tw.dir + "/rc", "TASKDATA": tw.dir + "/data"])
        let all = try tw.export().values.filter { $0.string("description") == description }
        return (all.filter { $0.string("status") == "recurring" },
                all.filter { $0["parent"] != nil && ["pending", "waiting"].contains($0.string("status") ?? "") })
    }

    @Test("issue 45: a repeating tick task goes to Taskwarrior as one series (template + one pending instance); back and forth makes no second instance")
    func repeatingTaskIsOneSeries() throws {
        let s = try Sandbox()
        let id = try s.add("Water plants", "due:2030-01-07", "repeat:weekly")
        let uuid = try #require(try s.showJSON(id).string("id"))
        let exported = try s.ok("export", "--format", "taskwarrior")
        let tw = try TW(s, "tw")
        let r = try Self.taskImport(tw, exported)
        #expect(r.status == 0, "\(r)")
        var (templates, pending) = try Self.series(tw, "Water plants")
        #expect(templates.count == 1 && templates.first?.string("uuid") == uuid, "\(templates)")
        #expect(templates.first?.string("recur") == "weekly" && templates.first?.string("mask") == "-", "\(templates)")
        #expect(pending.count == 1, "one pending instance, not two: \(pending)")
        #expect(pending.first?.string("parent") == uuid && pending.first?.string("due") == templates.first?.string("due"))

        // Taskwarrior's export comes back to tick as the same one task, unchanged.
        let back = try tw.task("export")
        let before = try s.fingerprint()
        let again = try s.tick("import", "-", "--format", "taskwarrior", stdin: back.stdout, now: "2026-11-22T09:00:00Z")
        #expect(again.stdout == "Imported: 0 added, 0 updated, 1 unchanged, 0 kept (newer here)\n", "\(again)")
        #expect(try s.fingerprint() == before)

        // tick's export imported into the same Taskwarrior data: still one instance.
        let second = try s.ok("export", "--format", "taskwarrior")
        #expect(try Self.taskImport(tw, second).status == 0)
        (templates, pending) = try Self.series(tw, "Water plants")
        #expect(templates.count == 1 && pending.count == 1, "templates \(templates), pending \(pending)")
    }

    @Test("a repeating task completed in tick, twice, goes to the same Taskwarrior data as one series (no crash, one pending instance, the done ones completed) and comes back unchanged",
          arguments: [false, true])
    func completedOccurrencesStayOneSeries(fromTaskwarrior: Bool) throws {
        let s = try Sandbox()
        let tw = try TW(s, "tw")
        let uuid: String
        if fromTaskwarrior {
            try tw.task("add", "Water plants", "due:2030-01-07", "recur:weekly")
            let r = try s.tick("import", "-", "--format", "taskwarrior", stdin: try tw.task("export").stdout)
            #expect(r.status == 0, "\(r)")
            uuid = try #require(try s.json("list").first?.string("id"))
        } else {
            uuid = try #require(try s.showJSON(try s.add("Water plants", "due:2030-01-07", "repeat:weekly")).string("id"))
            #expect(try Self.taskImport(tw, try s.ok("export", "--format", "taskwarrior")).status == 0)
        }
        let first = try #require(try Self.series(tw, "Water plants").pending.first?.string("uuid"))
        for (round, due) in ["20300113T230000Z", "20300120T230000Z"].enumerated() {
            let open = try #require(try s.json("list").first?.string("id"))
            try s.ok("done", open)
            // Before: the done task went out as a plain completed task over the
            // template's uuid, and `task import` crashed (SIGSEGV), importing nothing.
            let r = try Self.taskImport(tw, try s.ok("export", "--format", "taskwarrior"))
            #expect(r.status == 0, "round \(round): \(r)")
            let (templates, pending) = try Self.series(tw, "Water plants")
            #expect(templates.count == 1 && templates.first?.string("uuid") == uuid, "round \(round): \(templates)")
            #expect(pending.count == 1 && pending.first?.string("due") == due && pending.first?.string("parent") == uuid,
                    "round \(round): one pending instance, the next occurrence: \(pending)")
            let completed = try tw.export().values.filter { $0.string("status") == "completed" }
            #expect(completed.count == round + 1 && completed.allSatisfy { $0.string("parent") == uuid }, "round \(round): \(completed)")
            #expect(completed.contains { $0.string("uuid") == first }, "the first instance is the one completed: \(completed)")
        }
        // Taskwarrior's export comes back onto the three occurrences, unchanged.
        let before = try s.fingerprint()
        let back = try s.tick("import", "-", "--format", "taskwarrior", stdin: try tw.task("export").stdout)
        #expect(back.stdout == "Imported: 0 added, 0 updated, 3 unchanged, 0 kept (newer here)\n", "\(back)")
        #expect(try s.fingerprint() == before)
    }

    @Test("a repeating task completed in tick whose next occurrence is then removed ends the series in Taskwarrior: template deleted, instance completed, no crash; back unchanged")
    func removingTheNextOccurrenceEndsTheSeries() throws {
        let s = try Sandbox()
        let tw = try TW(s, "tw")
        let uuid = try #require(try s.showJSON(try s.add("Water plants", "due:2030-01-07", "repeat:weekly")).string("id"))
        #expect(try Self.taskImport(tw, try s.ok("export", "--format", "taskwarrior")).status == 0)
        try s.ok("done", uuid)
        let next = try #require(try s.json("list").first?.string("id"))
        try s.ok("rm", next)
        // Before: a completed task without recur over the template's uuid, and task import crashed.
        let r = try Self.taskImport(tw, try s.ok("export", "--format", "taskwarrior"))
        #expect(r.status == 0, "\(r)")
        let all = try tw.export()
        #expect(all[uuid]?.string("status") == "deleted", "the template is deleted: Taskwarrior makes no more instances: \(all)")
        let (_, pending) = try Self.series(tw, "Water plants")
        #expect(pending.isEmpty, "\(pending)")
        #expect(all.values.filter { $0.string("status") == "completed" && $0.string("parent") == uuid }.count == 1, "\(all)")
        let before = try s.fingerprint()
        let back = try s.tick("import", "-", "--format", "taskwarrior", stdin: try tw.task("export").stdout)
        #expect(back.stdout == "Imported: 0 added, 0 updated, 1 unchanged, 0 kept (newer here)\n", "\(back)")
        #expect(try s.fingerprint() == before)
    }

    @Test("issue 45: Taskwarrior's own series goes to tick as one repeating task and back into the same data without a second instance")
    func taskwarriorSeriesComesBackWhole() throws {
        let s = try Sandbox()
        let tw = try TW(s, "tw")
        try tw.task("add", "Stretch", "due:2030-01-07", "recur:weekly", "project:Home")
        var (templates, pending) = try Self.series(tw, "Stretch")
        #expect(templates.count == 1 && pending.count == 1, "\(templates) \(pending)")
        let instance = try #require(pending.first?.string("uuid"))

        let r = try s.tick("import", "-", "--format", "taskwarrior", stdin: try tw.task("export").stdout)
        #expect(r.status == 0 && r.stdout.hasPrefix("Imported: 1 added"), "\(r)")
        let tasks = try s.json("list", "--all")
        #expect(tasks.count == 1 && tasks.first?.string("repeat") == "weekly" && tasks.first?.string("due") == "2030-01-07", "\(tasks)")

        let exported = try s.ok("export", "--format", "taskwarrior")
        #expect(exported.contains("\"uuid\":\"\(instance)\""), "the instance keeps its uuid: \(exported)")
        #expect(try Self.taskImport(tw, exported).status == 0)
        (templates, pending) = try Self.series(tw, "Stretch")
        #expect(templates.count == 1 && pending.count == 1, "templates \(templates), pending \(pending)")
        #expect(pending.first?.string("uuid") == instance)
    }
}

extension HookTests {
    @Test("issue 45: a hook's change of the estimate (tickestimate) is saved, on add and on modify")
    func hookChangesEstimate() throws {
        let w = try World()
        try w.hook("on-add.estimate", """
        import json, sys
        task = json.loads(sys.stdin.readline())
        task["tickestimate"] = "90"
        print(json.dumps(task))
        """, interpreter: "/usr/bin/env python3")
        try w.hook("on-modify.estimate", """
        import json, sys
        old = json.loads(sys.stdin.readline())
        task = json.loads(sys.stdin.readline())
        if task.get("tickestimate") == "30": task.pop("tickestimate")
        print(json.dumps(task))
        """, interpreter: "/usr/bin/env python3")
        let id = try w.s.add("Write report", "estimate:20m")
        let added = try w.s.showJSON(id)
        #expect(added.int("estimate") == 90, "\(added)")
        try w.s.ok("edit", id, "estimate:45m")
        #expect(try w.s.showJSON(id).int("estimate") == 45)
        try w.s.ok("edit", id, "estimate:30m")
        let cleared = try w.s.showJSON(id)
        #expect(cleared["estimate"] == nil, "the hook removed it: \(cleared)")
    }
}
