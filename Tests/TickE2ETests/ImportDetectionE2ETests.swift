import Foundation
import Testing

/// `tick import` tells the format from the content when the name does not,
/// takes the usual `--format` names, and says what to do when nothing fits (issue 35).
@Suite("import format detection")
struct ImportDetectionE2ETests {
    static let todo = "(A) Call mom @phone\nBuy milk due:2026-12-01 +Home\n"

    @Test("a todo.txt, an iCalendar file and Taskwarrior JSON without an extension import as what they are")
    func detected() throws {
        let s = try Sandbox()
        try s.write("../io/tasks", Self.todo)
        let r = try s.tick("import", s.root + "/io/tasks")
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.hasPrefix("Imported: 2 added"), "\(r)")
        #expect(try s.json("list", "--all").task("Buy milk")?.string("due") == "2026-12-01")

        try s.ok("export", "--format", "ics", "-o", s.root + "/io/cal")
        try s.ok("export", "--format", "taskwarrior", "-o", s.root + "/io/tw")
        let other = try Sandbox()
        let ics = try other.tick("import", s.root + "/io/cal")
        #expect(ics.stdout.hasPrefix("Imported: 2 added"), "\(ics)")
        let third = try Sandbox()
        let tw = try third.tick("import", "-", stdin: try String(contentsOfFile: s.root + "/io/tw", encoding: .utf8))
        #expect(tw.stdout.hasPrefix("Imported: 2 added"), "\(tw)")
        let fromStdin = try Sandbox()
        let piped = try fromStdin.tick("import", "-", stdin: Self.todo)
        #expect(piped.stdout.hasPrefix("Imported: 2 added"), "stdin todo.txt: \(piped)")
    }

    @Test("--format takes todo.txt, todotxt, ical, icalendar, ics, tw, taskwarrior")
    func aliases() throws {
        let s = try Sandbox()
        try s.write("../io/tasks.dat", Self.todo)
        for name in ["todo.txt", "todotxt"] {
            let r = try s.tick("import", s.root + "/io/tasks.dat", "--format", name)
            #expect(r.status == 0, "\(name): \(r)")
        }
        try s.ok("export", "--format", "ical", "-o", s.root + "/io/out.dat")
        #expect(try String(contentsOfFile: s.root + "/io/out.dat", encoding: .utf8).hasPrefix("BEGIN:VCALENDAR"))
        for name in ["ical", "icalendar", "ics"] {
            let r = try s.tick("import", s.root + "/io/out.dat", "--format", name)
            #expect(r.stdout.hasPrefix("Imported: 0 added, 0 updated, 2 unchanged"), "\(name): \(r)")
        }
        try s.ok("export", "--format", "tw", "-o", s.root + "/io/tw.dat")
        for name in ["tw", "taskwarrior"] {
            let r = try s.tick("import", s.root + "/io/tw.dat", "--format", name)
            #expect(r.stdout.hasPrefix("Imported: 0 added, 0 updated, 2 unchanged"), "\(name): \(r)")
        }
        let bad = try s.tick("import", s.root + "/io/tasks.dat", "--format", "yaml")
        #expect(bad.status == 2, "\(bad)")
    }

    @Test("a file that fits no format is one error line naming the formats and --format")
    func noFormat() throws {
        let s = try Sandbox()
        try Data([0x00, 0x01, 0x02, 0xFF, 0xFE]).write(to: URL(fileURLWithPath: s.root + "/io/blob"))
        let r = try s.tick("import", s.root + "/io/blob")
        #expect(r.status == 4, "\(r)")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r)")
        #expect(r.stderr.contains("tick JSON, Taskwarrior JSON, todo.txt, iCalendar or CSV"), "\(r)")
        #expect(r.stderr.contains("--format"), "\(r)")
        #expect(try s.json("list", "--all").isEmpty)
    }
}
