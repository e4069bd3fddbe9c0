import Foundation
import Testing

/// The whole reminder path with the real programs: `tick watch` runs the real
/// `notify-send --wait` against a real notification server (dunst on a virtual
/// X display, in a private D-Bus session), and the "user" picks an action
/// through dunst's context menu. Skipped when those programs are missing
/// (`scripts/ensure-deps.sh --test` installs them).
@Suite struct RealNotificationTests {
    static let programs = ["dbus-run-session", "Xvfb", "dunst", "dunstctl", "notify-send"]

    static var available: Bool {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return programs.allSatisfy { p in
            path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(p)") }
        }
    }

    /// Runs the watcher under dunst until a notification shows, answers it with
    /// `action` (the key: done, snooze, tomorrow), and returns the watcher's log.
    func answer(_ action: String, in s: Sandbox) throws -> String {
        let dir = s.root + "/desktop"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        // dunst shows the actions in its "dmenu"; this one picks the wanted action's line.
        _ = try s.script("desktop/pick", "tee \"\(dir)/menu\" | grep ',\(action)]$' | head -n 1")
        try Data("[global]\n    dmenu = \(dir)/pick\n[urgency_normal]\n    timeout = 0\n".utf8)
            .write(to: URL(fileURLWithPath: dir + "/dunstrc"))
        let display = Int.random(in: 300...900)
        let script = try s.script("desktop/run", """
            Xvfb :\(display) -nolisten tcp >/dev/null 2>&1 & X=$!
            export DISPLAY=:\(display)
            i=0; while [ ! -e /tmp/.X11-unix/X\(display) ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
            dunst -config "\(dir)/dunstrc" >/dev/null 2>&1 & D=$!
            i=0; until dunstctl count >/dev/null 2>&1 || [ $i -ge 100 ]; do sleep 0.1; i=$((i+1)); done
            "$TICK" watch 2> "\(dir)/watch.log" & W=$!
            i=0; until dunstctl count 2>/dev/null | grep -q 'Currently displayed: 1' || [ $i -ge 150 ]; do sleep 0.1; i=$((i+1)); done
            dunstctl context
            i=0; until grep -q 'reminder .*: ' "\(dir)/watch.log" || [ $i -ge 100 ]; do sleep 0.1; i=$((i+1)); done
            kill $W; wait $W
            kill $D $X; wait
            """)
        // Processes started from the test runner inherit its blocked signal mask
        // (SIGTERM included), so dbus-run-session could not stop its bus and
        // `kill` would not stop Xvfb: unblock every signal before exec.
        let unblock = "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); os.execvp(sys.argv[1], sys.argv[1:])"
        let r = try s.run("/usr/bin/env", ["python3", "-c", unblock, "timeout", "-s", "KILL", "60",
                                           "dbus-run-session", "--", "/bin/sh", script],
                          env: ["DBUS_SESSION_BUS_ADDRESS": nil, "DISPLAY": nil, "WAYLAND_DISPLAY": nil])
        #expect(r.status == 0, "\(r)")
        let menu = (try? String(contentsOfFile: dir + "/menu", encoding: .utf8)) ?? ""
        #expect(menu.contains("#Mark done (Pay rent) [") && menu.contains("#Snooze (Pay rent) ["), "\(menu)")
        return (try? String(contentsOfFile: dir + "/watch.log", encoding: .utf8)) ?? ""
    }

    @Test(.enabled(if: RealNotificationTests.available))
    func markDoneThroughARealNotificationServer() throws {
        let s = try Sandbox()
        try s.ok("add", "Pay rent", "due:today", "repeat:monthly", "remind:10:00:02")
        let log = try answer("done", in: s)
        #expect(log.contains(": done"), "\(log)")
        let tasks = try s.tasks("inbox.json")
        #expect(tasks.map { $0.string("state") } == ["done", "open"])
        #expect(tasks.last?.string("due") == "2026-12-21")
    }

    @Test(.enabled(if: RealNotificationTests.available))
    func snoozeThroughARealNotificationServer() throws {
        let s = try Sandbox()
        try s.ok("add", "Pay rent", "remind:10:00:02")
        let log = try answer("snooze", in: s)
        #expect(log.contains(": snooze"), "\(log)")
        let remind = try #require(try s.tasks("inbox.json").first?.string("remind"))
        #expect(remind >= "2026-11-21T09:10:02Z" && remind <= "2026-11-21T09:10:20Z", "\(remind)")
    }
}
