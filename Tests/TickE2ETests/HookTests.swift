import Foundation
import Testing

/// Taskwarrior-compatible hooks (Docs/HOOKS.md): scripts in
/// `$XDG_CONFIG_HOME/tick/hooks` (here `$HOME/.config/tick/hooks`), run by the
/// real binary with Taskwarrior's protocol; and timewarrior's own hook.
@Suite struct HookTests {
    final class World {
        let s: Sandbox
        let hooks: String
        let logs: String

        init() throws {
            s = try Sandbox()
            hooks = s.home + "/.config/tick/hooks"
            logs = s.root + "/io"
            try FileManager.default.createDirectory(atPath: hooks, withIntermediateDirectories: true)
        }

        /// Installs an executable hook script.
        func hook(_ name: String, _ body: String, interpreter: String = "/bin/sh") throws {
            let path = hooks + "/" + name
            try Data(("#!" + interpreter + "\n" + body + "\n").utf8).write(to: URL(fileURLWithPath: path))
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        }

        /// A hook that appends its stdin (and its arguments) to a log and answers the last line unchanged.
        func recorder(_ name: String) throws {
            try hook(name, """
            import sys
            lines = sys.stdin.read().splitlines()
            with open("\(logs)/\(name).log", "a") as log:
                log.write("ARGS " + " ".join(sys.argv[1:]) + "\\n")
                for line in lines: log.write(line + "\\n")
            if lines and "\(name)".startswith(("on-add", "on-modify")): print(lines[-1])
            """, interpreter: "/usr/bin/env python3")
        }

        /// The JSON task lines a recorder saw, call by call.
        func calls(_ name: String) throws -> [[[String: Any]]] {
            guard let text = try? String(contentsOfFile: logs + "/" + name + ".log", encoding: .utf8) else { return [] }
            var calls: [[[String: Any]]] = []
            for line in text.split(separator: "\n") {
                if line.hasPrefix("ARGS ") { calls.append([]); continue }
                let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
                calls[calls.count - 1].append(object)
            }
            return calls
        }

        func args(_ name: String) -> [String] {
            let text = (try? String(contentsOfFile: logs + "/" + name + ".log", encoding: .utf8)) ?? ""
            return text.split(separator: "\n").filter { $0.hasPrefix("ARGS ") }.map { String($0.dropFirst(5)) }
        }
    }

    @Test("on-add gets the new task in Taskwarrior's JSON and its answer is what is saved; its other lines are feedback on stderr")
    func onAddAmends() throws {
        let w = try World()
        try w.hook("on-add.tagger", """
        import json, sys
        task = json.loads(sys.stdin.readline())
        open("\(w.logs)/seen.json", "w").write(json.dumps(task))
        task.setdefault("tags", []).append("hooked")
        task["priority"] = "H"
        task["estimate_uda"] = "2h"
        print(json.dumps(task))
        print("tagger: tagged it")
        """, interpreter: "/usr/bin/env python3")
        let r = try w.s.tick("add", "Buy milk", "+errand", "due:2026-11-25")
        #expect(r.status == 0, "\(r)")
        #expect(r.stderr.contains("tagger: tagged it"))
        #expect(!r.stdout.contains("tagged it"))
        let seen = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: w.logs + "/seen.json"))) as? [String: Any] ?? [:]
        #expect(seen["description"] as? String == "Buy milk")
        #expect(seen["status"] as? String == "pending")
        #expect(seen["tags"] as? [String] == ["errand"])
        #expect((seen["uuid"] as? String).map(isLowercaseUUID) == true)
        #expect((seen["entry"] as? String)?.range(of: #"^\d{8}T\d{6}Z$"#, options: .regularExpression) != nil)
        #expect(seen["due"] != nil)
        let task = try #require(try w.s.tasks("inbox.json").task("Buy milk"))
        #expect(task["tags"] as? [String] == ["errand", "hooked"])
        #expect(task["priority"] as? String == "must")
        #expect(task["x-taskwarrior-estimate_uda"] as? String == "2h")
    }

    @Test("an on-add or on-modify that exits non-zero refuses the change: nothing is written, its feedback is the error, exit 1")
    func refusal() throws {
        let w = try World()
        try w.hook("on-add.refuse", #"read task; echo "no new tasks on Sundays"; exit 1"#)
        let r = try w.s.tick("add", "Mow the lawn")
        #expect(r.status == 1)
        #expect(r.stderr.contains("tick: error: hook on-add.refuse: no new tasks on Sundays (the change was not made)"), "\(r.stderr)")
        #expect(!w.s.exists("inbox.json"), "the refused task's file was not created")

        try FileManager.default.removeItem(atPath: w.hooks + "/on-add.refuse")
        let id = try w.s.add("Mow the lawn")
        try w.hook("on-modify.refuse", #"read before; read after; echo "frozen" >&2; exit 3"#)
        let done = try w.s.tick("done", id)
        #expect(done.status == 1)
        #expect(done.stderr.contains("hook on-modify.refuse: frozen (the change was not made)"), "\(done.stderr)")
        #expect(try w.s.tasks("inbox.json").task("Mow the lawn")?["state"] as? String == "open")
    }

    @Test("on-modify gets the task before and after; start gives it a start time, done a completed status and an end")
    func onModifyBeforeAndAfter() throws {
        let w = try World()
        let id = try w.s.add("Write report", "+work")
        try w.recorder("on-modify.log")
        try w.s.ok("start", id)
        try w.s.ok("done", id)
        let calls = try w.calls("on-modify.log")
        try #require(calls.count == 2)
        #expect(calls[0][0]["status"] as? String == "pending")
        #expect(calls[0][0]["start"] == nil)
        #expect(calls[0][1]["start"] != nil)
        #expect(calls[1][0]["start"] != nil)
        #expect(calls[1][1]["status"] as? String == "completed")
        #expect(calls[1][1]["end"] != nil)
        #expect(calls[1][1]["start"] == nil)
        // Taskwarrior's arguments: api, args, command, rc, data, version.
        let args = w.args("on-modify.log")
        #expect(args[1].hasPrefix("api:2 args:tick done \(id) command:done rc:\(w.s.home)/.config/tick/config.toml data:\(w.s.store) version:"), "\(args)")
    }

    @Test("a move is an on-modify with the new project, not an on-add; rm is an on-modify to status deleted")
    func moveAndDelete() throws {
        let w = try World()
        try w.s.ok("lists", "add", "Work")
        let id = try w.s.add("Plan offsite")
        try w.recorder("on-add.log")
        try w.recorder("on-modify.log")
        try w.s.ok("mv", id, "Work")
        #expect(try w.calls("on-add.log").isEmpty)
        var calls = try w.calls("on-modify.log")
        try #require(calls.count == 1)
        #expect(calls[0][0]["project"] == nil)
        #expect(calls[0][1]["project"] as? String == "Work")
        #expect(try w.s.tasks("lists/work.json").task("Plan offsite") != nil)

        try w.s.ok("rm", id, "--yes")
        calls = try w.calls("on-modify.log")
        try #require(calls.count == 2)
        #expect(calls[1][0]["status"] as? String == "pending")
        #expect(calls[1][1]["status"] as? String == "deleted")
        #expect(calls[1][1]["end"] != nil)
    }

    @Test("on-launch runs before the command (non-zero stops it); on-exit gets every task the command added or changed")
    func launchAndExit() throws {
        let w = try World()
        try w.recorder("on-exit.log")
        try w.s.ok("add", "One")
        try w.s.ok("add", "Two")
        var calls = try w.calls("on-exit.log")
        try #require(calls.count == 2)
        #expect(calls[1].map { $0["description"] as? String } == ["Two"])
        try w.s.ok("done", "1", "2")
        calls = try w.calls("on-exit.log")
        #expect(calls[2].map { $0["status"] as? String } == ["completed", "completed"])

        try w.hook("on-launch.gate", #"echo "store is frozen for the audit"; exit 1"#)
        let r = try w.s.tick("add", "Three")
        #expect(r.status == 1)
        #expect(r.stderr.contains("hook on-launch.gate: store is frozen for the audit"), "\(r.stderr)")
        #expect(try w.s.tasks("inbox.json").task("Three") == nil)
        // A hook turned off with chmod -x, as in Taskwarrior, does not run.
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: w.hooks + "/on-launch.gate")
        try w.s.ok("add", "Three")
        #expect(try w.s.tasks("inbox.json").task("Three") != nil)
    }

    @Test("a hook that hangs is stopped after TICK_HOOK_TIMEOUT with a clear error, and the change is not made")
    func timeout() throws {
        let w = try World()
        let id = try w.s.add("Call the bank")
        try w.hook("on-modify.hang", "exec sleep 60")
        let r = try w.s.tick(["done", id], env: ["TICK_HOOK_TIMEOUT": "1"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("hook on-modify.hang: "), "\(r.stderr)")
        #expect(r.stderr.contains("did not finish within 1 s and was stopped"), "\(r.stderr)")
        #expect(try w.s.tasks("inbox.json").task("Call the bank")?["state"] as? String == "open")
        let bad = try w.s.tick(["done", id], env: ["TICK_HOOK_TIMEOUT": "soon"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("TICK_HOOK_TIMEOUT must be a number of seconds"))
    }

    @Test("hooks never run for undo, resolve or sync, nor with TICK_HOOKS=off; a hook answering a changed uuid or project is refused")
    func exemptions() throws {
        let w = try World()
        let id = try w.s.add("Renew passport")
        try w.recorder("on-launch.log")
        try w.recorder("on-modify.log")
        try w.s.ok("done", id)
        #expect(try w.calls("on-modify.log").count == 1)
        try w.s.ok("undo")
        try w.s.ok("resolve")
        _ = try w.s.tick("sync")
        try w.s.ok("today", env: ["TICK_HOOKS": "off"])
        #expect(w.args("on-launch.log").count == 1, "only `done` launched hooks: \(w.args("on-launch.log"))")
        #expect(try w.calls("on-modify.log").count == 1)
        #expect(try w.s.tasks("inbox.json").task("Renew passport")?["state"] as? String == "open")

        try w.hook("on-modify.mover", """
        import json, sys
        sys.stdin.readline(); task = json.loads(sys.stdin.readline())
        task["project"] = "Elsewhere"
        print(json.dumps(task))
        """, interpreter: "/usr/bin/env python3")
        let r = try w.s.tick("start", id)
        #expect(r.status == 1)
        #expect(r.stderr.contains("hook on-modify.mover: changed the task's project (none to Elsewhere)"), "\(r.stderr)")
        #expect(try w.s.tasks("inbox.json").task("Renew passport")?["state"] as? String == "open")
    }

    static let hasTimewarrior = ["/usr/bin/timew"].allSatisfy(FileManager.default.isExecutableFile(atPath:))
        && FileManager.default.fileExists(atPath: timewarriorHook)
    static let timewarriorHook = "/usr/share/doc/timewarrior/ext/on-modify.timewarrior"

    @Test("timewarrior's own on-modify hook, installed as a tick hook: tick start and tick done record a real interval with the task's tags",
          .enabled(if: hasTimewarrior, "SKIPPED: timewarrior is not installed (scripts/ensure-deps.sh --test installs it)"))
    func timewarrior() throws {
        let w = try World()
        try FileManager.default.copyItem(atPath: Self.timewarriorHook, toPath: w.hooks + "/on-modify.timewarrior")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: w.hooks + "/on-modify.timewarrior")
        let db = w.s.root + "/timewarrior"
        let env: [String: String?] = ["TIMEWARRIORDB": db]
        try w.s.ok("lists", "add", "Work")
        let id = try w.s.add("Write report", "+writing", "list:Work")
        let started = try w.s.tick(["start", id], env: env)
        #expect(started.status == 0, "\(started)")
        #expect(started.stderr.contains("Tracking"), "\(started.stderr)")
        let open = try Self.intervals(w, env)
        try #require(open.count == 1)
        #expect(open[0]["end"] == nil)
        // timewarrior refuses an interval that ends in the second it started.
        let start = try #require(open[0]["start"] as? String)
        #expect(eventually(timeout: 5) { Self.timewStamp(Date()) > start })
        let done = try w.s.tick(["done", id], env: env)
        #expect(done.status == 0, "\(done)")
        let closed = try Self.intervals(w, env)
        try #require(closed.count == 1)
        #expect(closed[0]["end"] != nil)
        #expect(Set(closed[0]["tags"] as? [String] ?? []) == ["Write report", "Work", "writing"])
        let summary = try w.s.run("/usr/bin/timew", ["summary", ":all"], env: env)
        #expect(summary.stdout.contains("Write report"), "\(summary)")
    }

    static func intervals(_ w: World, _ env: [String: String?]) throws -> [[String: Any]] {
        let r = try w.s.run("/usr/bin/timew", ["export"], env: env)
        return try JSONSerialization.jsonObject(with: r.stdoutData) as? [[String: Any]] ?? []
    }

    static func timewStamp(_ date: Date) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return f.string(from: date)
    }
}
