import Foundation
import Testing
@testable import TickKit

/// Children get an explicit environment: the tools' variables of the
/// command's environment, never tick's own (issue 28).
struct ChildEnvironmentTests {
    static let command: [String: String] = [
        "PATH": "/usr/bin:/bin", "HOME": "/home/u", "LANG": "de_DE.UTF-8", "LC_TIME": "de_DE.UTF-8",
        "DISPLAY": ":0", "DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/user/1000/bus",
        "XDG_RUNTIME_DIR": "/run/user/1000", "GIT_AUTHOR_NAME": "U", "SSH_AUTH_SOCK": "/tmp/agent",
        "https_proxy": "http://proxy:3128", "PASSWORD_STORE_DIR": "/home/u/.pw",
        "TICK_NOW": "2026-11-21T09:00:00Z", "TICK_STORE": "/s", "TICK_HOOKS": "off",
        "SWIFT_DETERMINISTIC_HASHING": "1", "RANDOM_SECRET": "x", "LD_PRELOAD": "/evil.so",
    ]

    @Test func toolsGetTheUsersSessionAndNeverTicksVariables() {
        let env = ChildEnvironment.forTools(from: Self.command)
        #expect(Set(env.keys) == [
            "PATH", "HOME", "LANG", "LC_TIME", "DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR",
            "GIT_AUTHOR_NAME", "SSH_AUTH_SOCK", "https_proxy", "PASSWORD_STORE_DIR",
        ])
        #expect(env["PATH"] == "/usr/bin:/bin")
    }

    @Test func aNotifierRunsWithExactlyThatEnvironment() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tick-childenv-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let out = dir + "/env"
        let problem = CommandNotifier.message("s", body: "b", command: ["/bin/sh", "-c", "env > '\(out)'"],
                                              directory: dir, environment: Self.command)
        #expect(problem == nil)
        let seen = Set(try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").compactMap {
            $0.split(separator: "=", maxSplits: 1).first.map(String.init)
        })
        #expect(seen.contains("PATH") && seen.contains("HOME") && seen.contains("DBUS_SESSION_BUS_ADDRESS"))
        #expect(seen.isDisjoint(with: ["TICK_NOW", "TICK_STORE", "TICK_HOOKS", "RANDOM_SECRET", "LD_PRELOAD", "SWIFT_DETERMINISTIC_HASHING"]))
    }

    @Test func gitGetsTheToolsVariablesToo() throws {
        let repo = GitRepository(directory: "/", topLevel: "/", prefix: "", environment: Self.command)
        #expect(repo.environment["TICK_NOW"] == nil)
        #expect(repo.environment["GIT_AUTHOR_NAME"] == "U")
    }
}
