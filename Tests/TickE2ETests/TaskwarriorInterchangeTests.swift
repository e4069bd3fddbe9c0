import Foundation
import Testing

/// `tick import/export --format taskwarrior` against the real Taskwarrior.
@Suite("Taskwarrior interchange", .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/task") || FileManager.default.isExecutableFile(atPath: "/usr/local/bin/task")))
struct TaskwarriorInterchangeTests {
    /// A private Taskwarrior data directory with its own rc file.
    struct TW {
        let s: Sandbox
        let dir: String

        init(_ s: Sandbox, _ name: String) throws {
            self.s = s
            dir = s.root + "/" + name
            try FileManager.default.createDirectory(atPath: dir + "/data", withIntermediateDirectories: true)
            try """
            data.location=\(dir)/data
            confirmation=off
            verbose=nothing
            uda.estimate.type=string
            uda.estimate.label=Est
            """.write(toFile: dir + "/rc", atomically: true, encoding: .utf8)
        }

        @discardableResult
        func task(_ args: String..., sourceLocation: SourceLocation = #_sourceLocation) throws -> RunResult {
            let r = try s.run("/usr/bin/env", ["task", "rc.confirmation=off"] + args,
                              env: ["TASKRC": dir + "/rc", "TASKDATA": dir + "/data"])
            if r.status != 0 { Issue.record("task \(args.joined(separator: " ")) failed: \(r)", sourceLocation: sourceLocation) }
            return r
        }

        func export() throws -> [String: [String: Any]] {
            let r = try task("export")
            let array = try #require(try JSONSerialization.jsonObject(with: r.stdoutData) as? [[String: Any]], "\(r)")
            var out: [String: [String: Any]] = [:]
            for o in array { out[o.string("uuid") ?? ""] = o }
            return out
        }
    }

    @Test("issue 45: tick annotate's lines go to Taskwarrior as annotations with their time, an undated notes line as one too, and come back as they were")
    func annotationsRoundTrip() throws {
        let s = try Sandbox()
        let id = try s.add("Call the bank", now: "2026-11-24T08:00:00Z")
        try s.ok("edit", id, "--note", "Ask about the fee", now: "2026-11-24T08:05:00Z")
        try s.ok("annotate", id, "left a message", now: "2026-11-24T09:00:00Z")
        try s.ok(id, "annotate", "called back", now: "2026-11-24T10:30:00Z")
        let notes = try s.showJSON(id).string("notes")
        #expect(notes == "Ask about the fee\n2026-11-24 10:00 left a message\n2026-11-24 11:30 called back")
        let exported = try s.ok("export", "--format", "taskwarrior", now: "2026-11-24T11:00:00Z")
        try s.write("../out.json", exported)
        let tw = try TW(s, "tw")
        try tw.task("import", s.root + "/out.json")
        let record = try #require(try tw.export().values.first { $0.string("description") == "Call the bank" })
        let annotations = try #require(record["annotations"] as? [[String: Any]])
        #expect(annotations.map { $0.string("description") } == ["Ask about the fee", "left a message", "called back"])
        #expect(annotations.dropFirst().map { $0.string("entry") } == ["20261124T090000Z", "20261124T103000Z"], "\(annotations)")
        // Back into tick: the notes are as they were, nothing updated.
        let back = try tw.task("export")
        try s.write("../back.json", back.stdout)
        let r = try s.ok("import", s.root + "/back.json", "--format", "taskwarrior", now: "2026-11-25T08:00:00Z")
        #expect(r.contains("0 updated"), "\(r)")
        #expect(try s.showJSON(id).string("notes") == notes)
    }

    @Test("task export → tick import → tick export → task import into a fresh data dir keeps every field")
    func roundTrip() throws {
        let s = try Sandbox()
        let a = try TW(s, "tw-a")
        try a.task("add", "project:Home", "+errand", "+shop", "due:2026-11-24", "priority:M", "Buy milk, eggs")
        try a.task("add", "Write \"report\"", "due:2026-11-24T16:00", "priority:H", "estimate:3h")
        try a.task("2", "annotate", "first note")
        try a.task("2", "annotate", "second, note with \"quotes\"")
        try a.task("2", "start")
        try a.task("add", "Old thing", "project:Home", "priority:L")
        try a.task("add", "Later", "project:Work", "wait:2030-01-01", "recur:weekly", "due:2030-01-07")
        try a.task("add", "Removed", "project:Home")
        try a.task("3", "done")
        try a.task("description:Removed", "delete")
        let original = try a.export()
        let exported = try a.task("export")
        try s.write("../tw.json", exported.stdout)

        // Import into tick.
        let r = try s.tick("import", s.root + "/tw.json", "--format", "taskwarrior")
        #expect(r.status == 0, "\(r)")
        // The deleted task is skipped; a recurring template and its pending instance are one task.
        let kept = original.values.filter { $0.string("status") != "deleted" && $0["parent"] == nil }
        let instance = try #require(original.values.first { $0["parent"] != nil })
        #expect(kept.count == 4 && original.count == 6)
        #expect(r.stdout == "Imported: \(kept.count) added, 0 updated, 0 unchanged, 0 kept (newer here)\n")

        // tick's files hold the mapped fields.
        let home = try s.file("lists/home.json")
        #expect(home.string("name") == "Home")
        let homeTasks = try s.tasks("lists/home.json")
        let milk = try #require(homeTasks.first { $0.string("title") == "Buy milk, eggs" })
        #expect(milk.string("due") == "2026-11-24")                 // local midnight: an all-day date
        #expect(milk["tags"] as? [String] == ["errand", "shop"])
        #expect(milk.string("priority") == "must")
        #expect(milk.string("x-taskwarrior-priority") == "M")
        let old = try #require(homeTasks.first { $0.string("title") == "Old thing" })
        #expect(old.string("state") == "done")
        #expect(old.string("priority") == "flexible")
        #expect(old.string("completedAt") != nil)
        #expect(!homeTasks.contains { $0.string("title") == "Removed" })
        let inbox = try s.tasks("inbox.json")
        let report = try #require(inbox.first { $0.string("title") == "Write \"report\"" })
        #expect(report.string("state") == "active")
        #expect(report.string("due") == "2026-11-24T15:00:00Z")     // 16:00 in Berlin
        // Taskwarrior's annotations are dated notes lines (their time, local).
        let notes = report.string("notes") ?? ""
        #expect(notes.range(of: #"^\d{4}-\d\d-\d\d \d\d:\d\d first note\n\d{4}-\d\d-\d\d \d\d:\d\d second, note with "quotes"$"#, options: .regularExpression) != nil, "\(notes)")
        #expect(report.string("x-taskwarrior-estimate") == "3h")
        let work = try s.tasks("lists/work.json")
        let series = work.filter { $0.string("title") == "Later" }
        #expect(series.count == 1, "one repeating task for the series: \(series)")
        let template = try #require(original.values.first { $0.string("status") == "recurring" })
        #expect(series.first?.string("id") == template.string("uuid"), "the series keeps the template's uuid")
        #expect(series.first?.string("repeat") == "weekly")
        #expect(series.first?.string("due") == "2030-01-07")
        // Taskwarrior's wait is tick's `wait`: local midnight, an all-day date.
        #expect(series.first?.string("wait") == "2030-01-01", "wait is kept: \(String(describing: instance.string("wait")))")
        #expect(series.first?["x-taskwarrior-parent"] == nil && series.first?["x-taskwarrior-mask"] == nil)
        for t in homeTasks + inbox + work {
            #expect(original[t.string("id") ?? ""] != nil, "tick keeps the uuid: \(t)")
            #expect(t["urgency"] == nil && t["x-taskwarrior-urgency"] == nil && t["x-taskwarrior-id"] == nil)
        }

        // Importing the same file again changes nothing.
        let again = try s.tick("import", s.root + "/tw.json", "--format", "taskwarrior")
        #expect(again.stdout == "Imported: 0 added, 0 updated, \(kept.count) unchanged, 0 kept (newer here)\n", "\(again)")

        // Back out, into a fresh Taskwarrior.
        let out = try s.tick("export", "--format", "taskwarrior", "-o", s.root + "/back.json")
        #expect(out.status == 0, "\(out)")
        let b = try TW(s, "tw-b")
        try b.task("import", s.root + "/back.json")
        let back = try b.export()
        #expect(Set(kept.compactMap { $0.string("uuid") }).isSubset(of: Set(back.keys)))
        let fields = ["uuid", "description", "project", "tags", "due", "status", "entry", "end", "annotations", "priority",
                      "start", "wait", "recur", "scheduled", "estimate", "modified", "mask", "imask", "parent", "rtype"]
        for o in kept {
            let uuid = try #require(o.string("uuid"))
            let c = try #require(back[uuid], "missing \(uuid) after the round trip")
            // The series comes back as a task with its rule, due date and wait (Taskwarrior makes it a template again).
            let isSeries = o.string("status") == "recurring"
            for f in fields where !isSeries || ["uuid", "description", "project", "due", "recur", "wait", "entry"].contains(f) {
                let x = o[f].map { try? canonicalJSON(["v": $0]) } ?? nil
                let y = c[f].map { try? canonicalJSON(["v": $0]) } ?? nil
                #expect(x == y, "\(o.string("description") ?? ""): \(f) was \(String(describing: x)), now \(String(describing: y))")
            }
        }
    }

    @Test("--dry-run writes nothing; a malformed record is reported by line and nothing is imported")
    func dryRunAndErrors() throws {
        let s = try Sandbox()
        try s.add("Existing")
        let before = try s.fingerprint()
        try s.write("../tw.json", """
        {"uuid":"0e4f3c2a-5b6d-4e7f-8a9b-0c1d2e3f4a5b","description":"A","status":"pending","entry":"20261120T080000Z"}
        {"uuid":"1e4f3c2a-5b6d-4e7f-8a9b-0c1d2e3f4a5b","description":"B","status":"pending","entry":"20261120T080000Z","project":"Work"}

        """)
        let dry = try s.tick("import", s.root + "/tw.json", "--format", "taskwarrior", "--dry-run")
        #expect(dry.status == 0, "\(dry)")
        #expect(dry.stdout.contains("2 added"), "\(dry)")
        #expect(try s.fingerprint() == before)

        try s.write("../bad.json", """
        {"uuid":"0e4f3c2a-5b6d-4e7f-8a9b-0c1d2e3f4a5b","description":"A","status":"pending"}
        {"uuid":"1e4f3c2a-5b6d-4e7f-8a9b-0c1d2e3f4a5b","description":"B","status":"pending","due":"next week"}

        """)
        let bad = try s.tick("import", s.root + "/bad.json", "--format", "taskwarrior")
        #expect(bad.status == 4, "\(bad)")
        #expect(bad.stderr.contains("bad.json:2: error: \"due\" is not a Taskwarrior date"), "\(bad)")
        #expect(bad.stderr.contains("nothing was imported"))
        #expect(try s.fingerprint() == before)
    }
}
