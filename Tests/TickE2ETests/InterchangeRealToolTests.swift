import Foundation
import Testing

/// Issue 13, "Interchange that the real tools accept": tick's exports against
/// the real Taskwarrior 2.6 and todo.txt-cli.
extension TaskwarriorInterchangeTests {
    /// Runs `task import -` with `input` on stdin (no Issue recorded: the caller checks).
    static func taskImport(_ tw: TW, _ input: String) throws -> RunResult {
        try tw.s.run("/usr/bin/env", ["task", "rc.confirmation=off", "import", "-"], stdin: input,
                     env: ["TASKRC": tw.dir + "/rc", "TASKDATA": tw.dir + "/data"])
    }

    @Test("tick export | task import - succeeds on repeating tasks without a due date and rules Taskwarrior has no word for; importing back adds nothing")
    func exportAnyStore() throws {
        let s = try Sandbox()
        let rules = [
            ("No due weekly", ["repeat:weekly"]),
            ("Mon and thu", ["due:2026-11-23", "repeat:mon,thu"]),
            ("Three days after", ["due:2026-11-23", "repeat:+3d"]),
            ("Weekdays", ["due:2026-11-23", "repeat:weekdays"]),
            ("Fortnightly", ["due:2026-11-23", "repeat:every 2 weeks"]),
            ("Annually", ["due:2026-11-23", "repeat:annually"]),
            ("Every friday", ["due:2026-11-27", "repeat:every friday"]),
            ("Monthly", ["due:2026-11-23", "repeat:monthly"]),
        ]
        for (title, tokens) in rules {
            let r = try s.tick(["add", title] + tokens)
            #expect(r.status == 0, "\(r)")
        }
        let repeating = try s.add("Done repeating", "due:2026-11-20", "repeat:weekly")
        try s.ok("done", repeating)
        try s.add("Plain", "remind:2026-11-24@9am", "+tag")
        let before = try s.json("list", "--all")
        let exported = try s.ok("export", "--format", "taskwarrior")

        let tw = try TW(s, "tw")
        let r = try Self.taskImport(tw, exported)
        #expect(r.status == 0, "Taskwarrior 2.6 must accept every record: \(r)")
        let inTW = try tw.export()
        let series = try #require(try s.showJSON(repeating).string("id"))
        for task in before {
            let uuid = try #require(task.string("id"))
            if task.string("title") == "Done repeating", task.string("state") == "open" {
                // The next occurrence is the pending instance of the series the done one began.
                #expect(inTW.values.contains { $0.string("status") == "pending" && $0.string("parent") == series }, "\(inTW)")
                continue
            }
            #expect(inTW[uuid] != nil, "\(task.string("title") ?? "") is in Taskwarrior")
        }
        // Taskwarrior keeps what it cannot say as tickrepeat, and recurs what it can.
        let byTitle = Dictionary(inTW.values.filter { $0["parent"] == nil }.map { ($0.string("description") ?? "", $0) }, uniquingKeysWith: { a, _ in a })
        #expect(byTitle["Mon and thu"]?.string("tickrepeat") == "mon,thu" && byTitle["Mon and thu"]?["recur"] == nil)
        #expect(byTitle["No due weekly"]?.string("tickrepeat") == "weekly" && byTitle["No due weekly"]?["recur"] == nil)
        #expect(byTitle["Weekdays"]?.string("recur") == "weekdays")
        #expect(byTitle["Fortnightly"]?.string("recur") == "2w")
        #expect(byTitle["Annually"]?.string("recur") == "yearly")

        // Taskwarrior's export (templates and instances) comes back as the same tasks.
        let back = try tw.task("export")
        let imported = try s.tick("import", "-", "--format", "taskwarrior", stdin: back.stdout)
        #expect(imported.status == 0, "\(imported)")
        #expect(imported.stdout.hasPrefix("Imported: 0 added"), "no series is duplicated: \(imported)")
        let after = try s.json("list", "--all")
        #expect(after.count == before.count, "\(after.titles)")
        for task in before {
            let same = after.first { $0.string("id") == task.string("id") }
            #expect(same?.string("repeat") == task.string("repeat"), "\(task.string("title") ?? ""): repeat \(String(describing: same?.string("repeat")))")
            #expect(same?.string("due") == task.string("due"), "\(task.string("title") ?? "")")
        }
    }

    @Test("a Taskwarrior recurring task (template + instances) becomes one repeating tick task; a completed instance becomes a done task")
    func recurringSeriesIsOneTask() throws {
        let s = try Sandbox()
        let tw = try TW(s, "tw")
        try tw.task("add", "Water plants", "due:2026-12-01", "recur:weekly", "wait:2026-11-30")
        // Any report makes the first instance (exit status 1 when it shows nothing).
        _ = try s.run("/usr/bin/env", ["task", "all"], env: ["TASKRC": tw.dir + "/rc", "TASKDATA": tw.dir + "/data"])
        let first = try tw.task("export")
        #expect(first.stdout.contains("\"parent\""), "Taskwarrior made an instance: \(first.stdout)")
        let r = try s.tick("import", "-", "--format", "taskwarrior", stdin: first.stdout)
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.hasPrefix("Imported: 1 added"), "\(r)")
        var tasks = try s.json("list", "--all")
        let series = tasks.filter { $0.string("title") == "Water plants" }
        #expect(series.count == 1, "\(series)")
        #expect(series.first?.string("repeat") == "weekly")
        #expect(series.first?.string("due") == "2026-12-01")
        let inbox = try s.tasks("inbox.json")
        #expect(inbox.first?.string("wait") == "2026-11-30", "wait is tick's field: \(inbox)")

        // Complete the instance in Taskwarrior: the series moves on, the done one is kept.
        let instance = try #require(try tw.export().values.first { $0["parent"] != nil }?.string("uuid"))
        try tw.task(instance, "done")
        _ = try s.run("/usr/bin/env", ["task", "all"], env: ["TASKRC": tw.dir + "/rc", "TASKDATA": tw.dir + "/data"])
        let second = try tw.task("export")
        let again = try s.tick("import", "-", "--format", "taskwarrior", stdin: second.stdout)
        #expect(again.status == 0, "\(again)")
        tasks = try s.json("list", "--all")
        let open = tasks.filter { $0.string("title") == "Water plants" && $0.string("state") != "done" }
        let done = tasks.filter { $0.string("title") == "Water plants" && $0.string("state") == "done" }
        #expect(open.count == 1 && done.count == 1, "\(tasks)")
        #expect(open.first?.string("repeat") == "weekly", "\(open)")
        #expect(done.first?["repeat"] == nil, "a past occurrence is not a second series")
    }
}

extension TodoTxtInterchangeTests {
    @Test("todo.txt titles with N:N (1:1, 10:30, 16:9) stay whole on import, export and through todo.sh")
    func colonNumbersStayInTitles() throws {
        let s = try Sandbox()
        let (dir, config) = try Self.todoDir(s)
        let file = dir + "/todo.txt"
        try Data("Schedule 1:1 with Sam +Work\n(A) Meet at 10:30 @office\nBuy 16:9 monitor due:2026-12-01 t:2026-11-30\n".utf8)
            .write(to: URL(fileURLWithPath: file))
        let r = try s.tick("import", file)
        #expect(r.status == 0, "\(r)")
        var tasks = try s.json("list", "--all")
        #expect(Set(tasks.titles) == ["Schedule 1:1 with Sam", "Meet at 10:30", "Buy 16:9 monitor"], "\(tasks.titles)")
        #expect(tasks.task("Buy 16:9 monitor")?.string("due") == "2026-12-01")

        // Out and back: titles whole, nothing added.
        try s.ok("export", "--format", "todotxt", "-o", file)
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.contains("Schedule 1:1 with Sam +Work") && text.contains("Meet at 10:30") && text.contains("Buy 16:9 monitor"), "\(text)")
        if let cli = todoTxtCLI {
            let number = try #require(text.components(separatedBy: "\n").firstIndex { $0.contains("1:1") }) + 1
            let done = try s.run(cli, ["-d", config, "-a", "do", String(number)])
            #expect(done.status == 0, "\(done)")
        }
        let back = try s.tick("import", file)
        #expect(back.stdout.hasPrefix("Imported: 0 added"), "\(back)")
        tasks = try s.json("list", "--all")
        #expect(Set(tasks.titles) == ["Schedule 1:1 with Sam", "Meet at 10:30", "Buy 16:9 monitor"], "\(tasks.titles)")
        if todoTxtCLI != nil { #expect(tasks.task("Schedule 1:1 with Sam")?.string("state") == "done") }
    }
}
