import Foundation
import Testing

/// ~/.config/tick/config.toml as the commands read it.
@Suite struct ConfigE2ETests {
    func writeConfig(_ s: Sandbox, _ text: String) throws {
        try FileManager.default.createDirectory(atPath: s.home + "/.config/tick", withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: s.home + "/.config/tick/config.toml"))
    }

    @Test func planHoursComeFromConfigUnlessTheEnvironmentOrAFlagSaysOtherwise() throws {
        let s = try Sandbox()
        try s.ok("add", "x")
        try writeConfig(s, "[plan]\nhours = \"08:00-12:00\"\n")
        let monday = "2026-11-23T06:00:00Z"
        func hours(_ extra: [String] = [], env: [String: String?] = [:]) throws -> String? {
            let r = try s.tick(["plan", "--json"] + extra, now: monday, env: env)
            guard r.status == 0, let o = try JSONSerialization.jsonObject(with: r.stdoutData) as? [String: Any] else { return nil }
            return o["hours"] as? String
        }
        #expect(try hours() == "08:00-12:00")
        #expect(try hours(env: ["TICK_WORK_HOURS": "10:00-16:00"]) == "10:00-16:00")
        #expect(try hours(["--hours", "07:00-09:00"]) == "07:00-09:00")
        try writeConfig(s, "[plan]\nhours = \"late\"\n")
        let bad = try s.tick(["plan"], now: monday)
        #expect(bad.status == 4)
        #expect(bad.stderr.contains("config.toml: plan.hours = \"late\" is not valid"))
    }

    @Test func unknownKeysAreWarningsNotErrors() throws {
        let s = try Sandbox()
        try writeConfig(s, "[plan]\nhours = \"08:00-12:00\"\nlunch = \"12:00\"\n[theme]\ncolor = 1\n")
        let r = try s.tick(["plan"], now: "2026-11-23T06:00:00Z")
        #expect(r.status == 0)
        #expect(r.stderr.contains("unknown setting plan.lunch (ignored)"))
        #expect(r.stderr.contains("unknown setting theme (ignored)"))
    }
}
