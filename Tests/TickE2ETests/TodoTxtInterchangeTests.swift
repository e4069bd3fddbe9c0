import Foundation
import Testing

/// The todo.txt-cli executable: Debian's `todotxt-cli` installs `todo-txt`;
/// upstream installs call it `todo.sh`. Nil when neither is on PATH.
let todoTxtCLI: String? = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    for name in ["todo-txt", "todo.sh"] {
        for dir in path.split(separator: ":") {
            let candidate = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
    }
    return nil
}()

/// `tick export --format todotxt` / `tick import --format todotxt` against the real todo.txt-cli.
@Suite("todo.txt interchange")
struct TodoTxtInterchangeTests {
    /// A store with open, prioritized, listed, tagged, due and done tasks.
    static func fixture() throws -> Sandbox {
        let s = try Sandbox()
        try s.ok("lists", "add", "Work")
        try s.ok("add", "Report", "list:Work", "due:2026-11-24", "pri:must", "+office", "remind:mon", "--note", "keep me")
        try s.add("Buy", "milk", "+errand")
        try s.add("Plan", "trip", "pri:flexible")
        try s.add("Old", "thing")
        try s.ok("done", "4")
        return s
    }

    /// A todo.txt-cli directory with a config file pointing TODO_DIR at it.
    static func todoDir(_ s: Sandbox) throws -> (dir: String, config: String) {
        let dir = s.root + "/todo"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let config = dir + "/config"
        try Data("""
        export TODO_DIR="\(dir)"
        export TODO_FILE="$TODO_DIR/todo.txt"
        export DONE_FILE="$TODO_DIR/done.txt"
        export REPORT_FILE="$TODO_DIR/report.txt"

        """.utf8).write(to: URL(fileURLWithPath: config))
        return (dir, config)
    }

    @Test("todo.sh -p ls lists every open task with its priority and project",
          .enabled(if: todoTxtCLI != nil, "todo.txt-cli is not installed (Debian package todotxt-cli)"))
    func exportReadByTodoSh() throws {
        let s = try Self.fixture()
        let (dir, config) = try Self.todoDir(s)
        let exported = try s.tick("export", "--format", "todotxt", "-o", dir + "/todo.txt")
        #expect(exported.status == 0, "\(exported)")
        let cli = try #require(todoTxtCLI)
        let ls = try s.run(cli, ["-d", config, "-p", "ls"])
        #expect(ls.status == 0, "\(ls)")
        let out = ls.stdout
        #expect(out.contains("(A) 2026-11-21 Report +Work @office due:2026-11-24"), "\(out)")
        #expect(out.contains("(B) 2026-11-21 Plan trip"), "\(out)")
        #expect(out.contains("2026-11-21 Buy milk @errand"), "\(out)")
        #expect(out.contains("TODO: 4 of 4 tasks shown"), "\(out)")
        let lsDone = try s.run(cli, ["-d", config, "-p", "listall"])
        #expect(lsDone.stdout.contains("x 2026-11-21 2026-11-21 Old thing"), "\(lsDone)")
    }

    @Test("todo.sh do N, then tick import marks that task done and adds nothing",
          .enabled(if: todoTxtCLI != nil, "todo.txt-cli is not installed (Debian package todotxt-cli)"))
    func doneInTodoShComesBack() throws {
        let s = try Self.fixture()
        let (dir, config) = try Self.todoDir(s)
        let file = dir + "/todo.txt"
        try s.ok("export", "--format", "todotxt", "-o", file)
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let number = try #require(text.components(separatedBy: "\n").firstIndex { $0.contains(" Report ") }) + 1
        let cli = try #require(todoTxtCLI)
        // -a: do not archive, so the done line stays in todo.txt.
        let done = try s.run(cli, ["-d", config, "-a", "do", String(number)])
        #expect(done.status == 0, "\(done)")
        let imported = try s.tick("import", file)
        #expect(imported.status == 0, "\(imported)")
        // Only the task marked done changes; fields todo.txt cannot hold (notes,
        // reminders, exact creation time) survive (TodoTxtCodec.reconcile).
        #expect(imported.stdout.contains("Imported: 0 added, 1 updated, 3 unchanged"), "\(imported)")
        let tasks = try s.json("list", "--all")
        #expect(tasks.count == 4)
        #expect(tasks.task("Report")?.string("state") == "done")
        #expect(tasks.task("Report")?.string("notes") == "keep me")
        #expect(tasks.task("Report")?.string("remind") != nil)
        #expect(tasks.task("Buy milk")?.string("state") == "open")
        #expect(tasks.task("Plan trip")?.string("priority") == "flexible")
    }

    @Test("a foreign todo.txt imports with lists, tags, priorities and dates; a second import adds nothing")
    func importForeign() throws {
        let s = try Sandbox()
        try s.write("../io/todo.txt", """
        (A) 2026-11-20 Call mom +Family @phone due:2026-11-24
        (C) Pay rent +Home rec:1m
        x 2026-11-19 2026-11-01 Buy milk @errand

        """)
        let first = try s.tick("import", s.root + "/io/todo.txt")
        #expect(first.status == 0, "\(first)")
        #expect(first.stdout.contains("Imported: 3 added"), "\(first)")
        let tasks = try s.json("list", "--all")
        #expect(tasks.task("Call mom")?.string("priority") == "must")
        #expect(tasks.task("Call mom")?.string("due") == "2026-11-24")
        #expect(tasks.task("Buy milk")?.string("state") == "done")
        let second = try s.tick("import", s.root + "/io/todo.txt", "--format", "todotxt")
        #expect(second.stdout.contains("Imported: 0 added"), "\(second)")
    }

    @Test("with --strict a bad line names the line and imports nothing (exit 4)")
    func badLine() throws {
        let s = try Sandbox()
        try s.write("../io/bad.txt", "fine task\n(A) due:someday Broken\n")
        let r = try s.tick("import", s.root + "/io/bad.txt", "--strict")
        #expect(r.status == 4, "\(r)")
        #expect(r.stderr.contains("bad.txt:2: error: invalid due date \"someday\""), "\(r)")
        #expect(r.stderr.contains("nothing was imported"), "\(r)")
        #expect(try s.json("list", "--all").isEmpty)
    }
}
