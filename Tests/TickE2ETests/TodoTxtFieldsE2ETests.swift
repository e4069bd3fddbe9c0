import Foundation
import Testing

/// todo.txt `rec:` and `t:` as repeat and scheduled, tick's fields as todo.txt
/// extensions, through the real todo.txt-cli, and re-imports that change nothing (issue 35).
@Suite("todo.txt fields and re-import")
struct TodoTxtFieldsE2ETests {
    @Test("rec: becomes repeat and t: scheduled on import")
    func recAndThreshold() throws {
        let s = try Sandbox()
        try s.write("../io/todo.txt", "Water plants rec:+1w t:2026-11-28 due:2026-11-30\nStretch rec:1d\nStandup rec:+1b\n")
        try s.ok("import", s.root + "/io/todo.txt")
        let tasks = try s.json("list", "--all")
        #expect(tasks.task("Water plants")?.string("repeat") == "weekly")
        #expect(tasks.task("Water plants")?.string("scheduled") == "2026-11-28")
        #expect(tasks.task("Stretch")?.string("repeat") == "+1d")
        #expect(tasks.task("Standup")?.string("repeat") == "weekdays")
    }

    @Test("export, the real todo.txt-cli, import into a new store: scheduled, repeat, reminder, active, energy, estimate survive")
    func roundTrip() throws {
        let s = try Sandbox()
        try s.add("Water", "plants", "due:2026-11-27", "sched:2026-11-26", "remind:2026-11-27@9am", "repeat:every 2 weeks",
                  "energy:low", "estimate:30m")
        try s.add("Report", "repeat:mon,thu")
        try s.ok("start", try s.uuidPrefix("Report"))
        let (dir, config) = try TodoTxtInterchangeTests.todoDir(s)
        let file = dir + "/todo.txt"
        try s.ok("export", "--format", "todotxt", "-o", file)
        if let cli = todoTxtCLI {
            let listed = try s.run(cli, ["-d", config, "ls"])
            #expect(listed.status == 0 && listed.stdout.contains("t:2026-11-26") && listed.stdout.contains("rec:+2w"), "\(listed)")
        }
        let other = try Sandbox()
        try other.ok("import", file)
        let a = try s.json("list", "--all"), b = try other.json("list", "--all")
        for key in ["scheduled", "remind", "energy", "due", "state"] {
            #expect(b.task("Water plants")?.string(key) == a.task("Water plants")?.string(key), "\(key)")
        }
        #expect(b.task("Water plants")?.string("repeat") == "every 2w")
        #expect(b.task("Water plants")?.int("estimate") == 30)
        #expect(b.task("Report")?.string("state") == "active")
        #expect(b.task("Report")?.string("repeat") == "mon,thu")
        // Back into the store it came from: nothing changes.
        let again = try s.tick("import", file)
        #expect(again.stdout.hasPrefix("Imported: 0 added, 0 updated, 2 unchanged"), "\(again)")
    }

    @Test("importing the same todo.txt twice, even days apart, reports 0 updated and leaves the files alone")
    func idempotent() throws {
        let s = try Sandbox()
        try s.write("../io/todo.txt", "(A) Call mom @phone\nx Pay rent +Home\n2026-11-01 Water plants rec:1w t:2026-11-28 +Home\n")
        let first = try s.tick("import", s.root + "/io/todo.txt")
        #expect(first.stdout.hasPrefix("Imported: 3 added"), "\(first)")
        let before = try s.fingerprint()
        let inbox = try s.text("inbox.json")
        for now in ["2026-11-21T10:00:00Z", "2026-11-23T10:00:00Z"] {
            let r = try s.tick("import", s.root + "/io/todo.txt", now: now)
            #expect(r.stdout.hasPrefix("Imported: 0 added, 0 updated, 3 unchanged"), "\(now): \(r)")
        }
        #expect(try s.text("inbox.json") == inbox)
        #expect(try s.fingerprint() == before)
    }

    @Test("re-importing tick's own Taskwarrior, iCalendar, CSV and JSON exports changes nothing and keeps the estimate")
    func otherFormats() throws {
        let s = try Sandbox()
        try s.add("Water", "plants", "due:fri", "sched:thu", "remind:fri@9am", "repeat:weekly", "energy:low", "estimate:30m")
        try s.add("Report", "due:fri@17:00", "repeat:mon,thu")
        for format in ["taskwarrior", "ics", "csv", "json"] {
            let file = s.root + "/io/out.\(format)"
            try s.ok("export", "--format", format, "-o", file)
            let before = try s.text("inbox.json")
            for now in [pinnedNow, "2026-11-24T10:00:00Z"] {
                let r = try s.tick("import", file, "--format", format, now: now)
                #expect(r.stdout.hasPrefix("Imported: 0 added, 0 updated, 2 unchanged, 0 kept"), "\(format): \(r)")
            }
            #expect(try s.text("inbox.json") == before, "\(format)")
        }
        #expect(try s.json("list").task("Water plants")?.int("estimate") == 30)
    }
}
