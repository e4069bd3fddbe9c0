import Foundation
import Testing
@testable import TickKit

/// ``TaskHooks/invoked(as:feedback:)``: one action of `tick ui` tells the
/// scripts its own command, and the run's `on-exit` still sees every task.
@Suite struct TaskHooksInvocationTests {
    @Test("each action's scripts get command:<its name> and their feedback goes to its sink; on-exit gets the tasks of every action")
    func actions() throws {
        let dir = NSTemporaryDirectory() + "tick-hooks-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let add = dir + "/on-add.note"
        let exit = dir + "/on-exit.count"
        let seen = dir + "/exit-lines"
        // on-add says its command as feedback and passes the task through; on-exit counts its lines.
        try "#!/bin/sh\nfor a in \"$@\"; do case \"$a\" in command:*) echo \"$a\";; esac; done\ncat\n".write(toFile: add, atomically: true, encoding: .utf8)
        try "#!/bin/sh\nwc -l > \(seen)\n".write(toFile: exit, atomically: true, encoding: .utf8)
        for path in [add, exit] { chmod(path, 0o755) }
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let base = TaskHooks(scripts: HookScripts(directory: dir, scripts: [.add: [add], .exit: [exit]]),
                             invocation: .init(command: "ui", commandLine: "tick ui", configPath: "/c", storePath: "/s", version: "1"),
                             environment: ["PATH": "/usr/bin:/bin"], directory: dir, timeout: 10, now: now, timeZone: Zone(named: "UTC")!,
                             feedback: { Issue.record("the run's own feedback got \($0)") }, locate: { _ in nil })
        for (command, title) in [("add", "Alpha"), ("capture", "Bravo")] {
            let lines = Lines()
            let hooks = base.invoked(as: command, feedback: lines.add)
            var after = TaskFile.empty(.inbox, name: nil, now: now)
            after.tasks.append(TaskItem(id: UUID(), title: title, createdAt: now, modifiedAt: now))
            try hooks.review(before: nil, after: &after, now: now)
            #expect(lines.all == ["command:\(command)"])
        }
        try base.finish()
        #expect(try String(contentsOfFile: seen, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines) == "2")
    }
}

private final class Lines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    var all: [String] { lock.withLock { lines } }
    func add(_ line: String) { lock.withLock { lines.append(line) } }
}
