import Foundation
import Testing
@testable import TickKit

/// Programs run with captured output (issue 36: spawned by tick itself, not
/// Foundation's `Process`): exit status, signals, stdin, both outputs, the
/// directory and environment given, timeouts, and the errors Foundation gave.
@Suite struct ProcessRunnerSpawnTests {
    func scratch() throws -> String {
        let dir = NSTemporaryDirectory() + "tick-spawn-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    let env = ["PATH": "/usr/bin:/bin"]

    func sh(_ script: String, in dir: String, input: [UInt8]? = nil, timeout: Double? = nil, group: Bool = false,
            environment: [String: String]? = nil) throws(ProcessError) -> ProcessResult {
        var request = ProcessRequest(program: "sh", arguments: ["-c", script], directory: dir, environment: environment ?? env,
                                     input: input, timeout: timeout)
        request.diesWithParent = group
        return try ProcessRunner.run(request)
    }

    @Test(arguments: [false, true]) func exitStatusAndSignals(group: Bool) throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(try sh("exit 0", in: dir, group: group).status == 0)
        #expect(try sh("exit 3", in: dir, group: group).status == 3)
        #expect(try sh("exit 255", in: dir, group: group).status == 255)
        #expect(try sh("kill -TERM $$", in: dir, group: group).status == 128 + SIGTERM)
        #expect(try sh("kill -KILL $$", in: dir, group: group).status == 128 + SIGKILL)
    }

    @Test(arguments: [false, true]) func stdinStdoutStderrDirectoryAndEnvironment(group: Bool) throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = try sh("cat; pwd; echo \"$ONLY\"; [ -z \"$HOME\" ] && echo nohome; echo oops >&2", in: dir, input: Array("in put\n".utf8),
                            group: group, environment: ["PATH": "/usr/bin:/bin", "ONLY": "this"])
        let real = PathString.resolvingSymlinks(dir)
        #expect(String(decoding: result.stdout, as: UTF8.self) == "in put\n\(real)\nthis\nnohome\n")
        #expect(result.stderr == "oops\n")
        // No stdin given: /dev/null.
        #expect(try sh("wc -c", in: dir, group: group).stdout == Array("0\n".utf8))
    }

    @Test(arguments: [false, true]) func bigOutputOnBothStreamsDoesNotDeadlock(group: Bool) throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let input = [UInt8](repeating: UInt8(ascii: "x"), count: 3 << 20)
        let result = try sh("head -c 4000000 /dev/zero | tr '\\0' a; head -c 3000000 /dev/zero | tr '\\0' b >&2; wc -c", in: dir,
                            input: input, group: group)
        #expect(result.stdout.count == 4_000_000 + "3145728\n".count)
        #expect(result.stdout.suffix(8) == Array("3145728\n".utf8))
        #expect(result.stderr.utf8.count == 3_000_000)
    }

    @Test(arguments: [false, true]) func aTimeoutStopsTheChildAndSaysSo(group: Bool) throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(throws: ProcessError("sh did not finish within 0.3 s and was stopped")) {
            try sh("sleep 30", in: dir, timeout: 0.3, group: group)
        }
        // One that ignores SIGTERM is killed a second later.
        #expect(throws: ProcessError("sh did not finish within 1 s and was stopped")) {
            try sh("trap '' TERM; sleep 30", in: dir, timeout: 1, group: group)
        }
        #expect(try sh("echo done", in: dir, timeout: 30, group: group).stdout == Array("done\n".utf8))
    }

    @Test func anIdleTimeoutCountsFromTheLastOutput() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var request = ProcessRequest(program: "sh", arguments: ["-c", "for i in 1 2 3 4 5 6; do echo $i; sleep 0.2; done"],
                                     directory: dir, environment: env, timeout: 0.7)
        request.diesWithParent = true
        request.timeoutIsIdle = true
        #expect(try ProcessRunner.run(request).stdout == Array("1\n2\n3\n4\n5\n6\n".utf8))
        request.arguments = ["-c", "echo start; sleep 30"]
        #expect(throws: ProcessError("sh printed nothing for 0.7 s and was stopped")) { try ProcessRunner.run(request) }
    }

    @Test func programsThatCannotRunGiveTheSameErrorsAsBefore() throws {
        let group = false
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        func run(_ program: String, in directory: String) throws(ProcessError) -> ProcessResult {
            var request = ProcessRequest(program: program, directory: directory, environment: env)
            request.diesWithParent = group
            return try ProcessRunner.run(request)
        }
        #expect(throws: ProcessError("tick-no-such-program is not installed (or not on PATH)")) { try run("tick-no-such-program", in: dir) }
        #expect(throws: ProcessError("cannot run /nonexistent/prog: The operation could not be completed. The file doesn’t exist.")) {
            try run("/nonexistent/prog", in: dir)
        }
        #expect(throws: ProcessError("cannot run /etc/passwd: The operation could not be completed. You don’t have permission.")) {
            try run("/etc/passwd", in: dir)
        }
        #expect(throws: ProcessError("cannot run true: The operation could not be completed. The file doesn’t exist.")) {
            try run("true", in: dir + "/missing")
        }
        #expect(throws: ProcessError("cannot run true: The operation could not be completed. (NSCocoaErrorDomain error 256.)")) {
            try run("true", in: "/etc/passwd")
        }
    }

    /// A group run (vdirsyncer) never checked first: a program that cannot
    /// start exits 127, which the CalDAV bridge reads as "not installed".
    @Test func aGroupRunOfAMissingProgramExits127() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var request = ProcessRequest(program: "/nonexistent/vdirsyncer", directory: dir, environment: env)
        request.diesWithParent = true
        #expect(try ProcessRunner.run(request).status == 127)
        request.program = "true"
        request.directory = dir + "/missing"
        #expect(try ProcessRunner.run(request).status == 127)
        request.program = "tick-no-such-program"
        request.directory = dir
        #expect(throws: ProcessError("tick-no-such-program is not installed (or not on PATH)")) { try ProcessRunner.run(request) }
    }

    /// The messages above are Foundation's own, as `Process` threw them.
    @Test func foundationsProcessGaveThoseMessages() {
        func message(_ exe: String, _ dir: String) -> String {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: exe)
            p.currentDirectoryURL = URL(fileURLWithPath: dir)
            do { try p.run(); p.waitUntilExit(); return "ran" } catch { return error.localizedDescription }
        }
        #expect(message("/nonexistent/prog", "/tmp") == "The operation could not be completed. The file doesn’t exist.")
        #expect(message("/etc/passwd", "/tmp") == "The operation could not be completed. You don’t have permission.")
        #expect(message("/usr/bin/env", "/tmp/tick-none-\(UUID().uuidString)") == "The operation could not be completed. The file doesn’t exist.")
        #expect(message("/usr/bin/env", "/etc/passwd") == "The operation could not be completed. (NSCocoaErrorDomain error 256.)")
    }

    @Test func theChildIsInAProcessGroupOfItsOwn() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = try sh("ps -o pgid= -p $$; echo $$", in: dir)
        let lines = String(decoding: result.stdout, as: UTF8.self).split(separator: "\n").map { $0.trimmingWhitespace() }
        #expect(lines.count == 2 && lines[0] == lines[1])
        #expect(lines.first != "\(getpgrp())")
    }

    @Test func firedRemindersFileIsWhatJSONSerializationWrote() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/reminders.json"
        let record = FiredReminders(path: path)
        let a = UUID(uuidString: "0A1B2C3D-0000-4000-8000-000000000001")!, b = UUID(uuidString: "FFFFFFFF-0000-4000-8000-000000000002")!
        let at = Date(timeIntervalSince1970: 1_800_000_000)
        try record.save(keepAfter: at)
        var expected = try JSONSerialization.data(withJSONObject: ["fired": [String: Any]()], options: [.sortedKeys, .prettyPrinted])
        #expect(FileManager.default.contents(atPath: path) == expected + Data([0x0A]))
        record.record(b, at: at)
        record.record(a, at: at.addingTimeInterval(60))
        try record.save(keepAfter: at)
        let entries = [a.lowercased: Timestamp.format(at.addingTimeInterval(60)), b.lowercased: Timestamp.format(at)]
        expected = try JSONSerialization.data(withJSONObject: ["fired": entries], options: [.sortedKeys, .prettyPrinted])
        #expect(FileManager.default.contents(atPath: path) == expected + Data([0x0A]))
        let again = FiredReminders(path: path)
        #expect(again.count == 2 && again.hasFired(a, at: at.addingTimeInterval(60)) && again.hasFired(b, at: at))
    }

    @Test func backgroundThreadsRunAndTheLockExcludes() {
        let lock = Lock()
        final class Counter: @unchecked Sendable { var value = 0 }
        let counter = Counter()
        let done = DispatchSemaphore(value: 0)
        for _ in 0..<8 {
            BackgroundThread.start {
                for _ in 0..<10_000 { lock.withLock { counter.value += 1 } }
                done.signal()
            }
        }
        for _ in 0..<8 { done.wait() }
        #expect(lock.withLock { counter.value } == 80_000)
    }
}
