import Foundation
import Testing
@testable import TickKit

/// A program run on tick's terminal (an editor, issue 32): in tick's own
/// process group (the terminal's foreground, where vim may read), in the
/// request's directory, with its environment, and its exit status returned.
@Suite struct ProcessRunnerTerminalTests {
    func scratch() throws -> String {
        let dir = NSTemporaryDirectory() + "tick-terminal-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test func theChildStaysInTicksProcessGroupAndDirectory() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var request = ProcessRequest(program: "/bin/sh", arguments: ["-c", "ps -o pgid= -p $$ > out; pwd >> out; echo \"$GREETING\" >> out; exit 3"],
                                     directory: dir, environment: ["PATH": "/usr/bin:/bin", "GREETING": "hello there"])
        request.usesTerminal = true
        let result = try ProcessRunner.run(request)
        #expect(result.status == 3)
        let lines = try String(contentsOfFile: dir + "/out", encoding: .utf8).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines == ["\(getpgrp())", dir, "hello there"])
    }

    @Test func aProgramNotOnThePathExits127() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var request = ProcessRequest(program: "tick-no-such-editor", directory: dir, environment: ["PATH": "/usr/bin:/bin"])
        request.usesTerminal = true
        #expect(try ProcessRunner.run(request).status == 127)
    }

    @Test func aChildKilledBySignalReports128PlusTheSignal() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var request = ProcessRequest(program: "/bin/sh", arguments: ["-c", "kill -TERM $$"], directory: dir, environment: ["PATH": "/usr/bin:/bin"])
        request.usesTerminal = true
        #expect(try ProcessRunner.run(request).status == 128 + SIGTERM)
    }
}
