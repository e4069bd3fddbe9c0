import Foundation
import Testing

/// Issue 45's "done when": a Taskwarrior user's UDAs from `task export`
/// import, filter, sort, show and export back unchanged, with the real `task`.
@Suite("user-defined fields: Taskwarrior UDAs",
       .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/task") || FileManager.default.isExecutableFile(atPath: "/usr/local/bin/task")))
struct UserFieldsTaskwarriorTests {
    static let udas = ["client", "points", "review", "spent", "size", "githuburl"]

    /// A private Taskwarrior with the UDAs declared in its rc.
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
            uda.client.type=string
            uda.points.type=numeric
            uda.review.type=date
            uda.spent.type=duration
            uda.size.type=string
            uda.size.values=S,M,L
            uda.githuburl.type=string
            """.write(toFile: dir + "/rc", atomically: true, encoding: .utf8)
        }

        @discardableResult
        func callAsFunction(_ args: String..., sourceLocation: SourceLocation = #_sourceLocation) throws -> RunResult {
            let r = try s.run("/usr/bin/env", ["task", "rc.confirmation=off"] + args,
                              env: ["TASKRC": dir + "/rc", "TASKDATA": dir + "/data"])
            if r.status != 0 { Issue.record("task \(args.joined(separator: " ")) failed: \(r)", sourceLocation: sourceLocation) }
            return r
        }
    }

    func records(_ r: RunResult) throws -> [String: [String: Any]] {
        let array = try #require(try JSONSerialization.jsonObject(with: r.stdoutData) as? [[String: Any]], "\(r)")
        var out: [String: [String: Any]] = [:]
        for o in array { out[o.string("description") ?? ""] = o }
        return out
    }

    func titles(_ s: Sandbox, _ args: String...) throws -> [String] {
        let r = try s.tick(["list"] + args + ["--json"])
        guard r.status == 0, let rows = try JSONSerialization.jsonObject(with: r.stdoutData) as? [[String: Any]] else {
            throw HarnessError("tick list \(args) --json: \(r)")
        }
        return rows.compactMap { $0["title"] as? String }
    }

    @Test("UDAs from task export import typed, filter, sort, show and go back to Taskwarrior unchanged; re-import changes no byte")
    func udaRoundTrip() throws {
        let s = try Sandbox()
        try FileManager.default.createDirectory(atPath: s.home + "/.config/tick", withIntermediateDirectories: true)
        try UserFieldsE2ETests.config.write(toFile: s.home + "/.config/tick/config.toml", atomically: true, encoding: .utf8)
        let a = try TW(s, "tw-a")
        try a("add", "Audit", "client:Acme", "points:3", "review:2030-12-01", "spent:90min", "size:M", "githuburl:https://example.com/1")
        try a("add", "Bill", "client:Globex Corp", "points:2.5", "review:2030-11-20T10:30:00", "spent:P1DT1H", "size:L")
        try a("add", "Plain")
        let exported = try a("export")
        let original = try records(exported)
        try s.write("../tw.json", exported.stdout)

        let imported = try s.ok("import", s.root + "/tw.json", "--format", "taskwarrior")
        #expect(imported.contains("3 added"), "\(imported)")
        let audit = try #require(try s.tasks("inbox.json").task("Audit"))
        #expect(audit.string("client") == "Acme")
        #expect(audit.int("points") == 3)
        #expect(audit.string("review") == "2030-12-01", "Taskwarrior's local midnight is a day")
        #expect(audit.int("spent") == 90)
        #expect(audit.string("size") == "M")
        #expect(audit.string("x-taskwarrior-githuburl") == "https://example.com/1", "an undeclared UDA is kept verbatim")
        let bill = try #require(try s.tasks("inbox.json").task("Bill"))
        #expect(bill.string("review") == "2030-11-20T09:30:00Z")
        #expect(bill.int("spent") == 1_500)

        // Filter, sort, show.
        #expect(try titles(s, "client:Acme") == ["Audit"])
        #expect(try titles(s, "spent.over:2h") == ["Bill"])
        #expect(try titles(s, "--sort", "points") == ["Bill", "Audit", "Plain"])
        #expect(try titles(s, "--sort", "points-") == ["Audit", "Bill", "Plain"], "unset last either way")
        #expect(try titles(s, "--sort", "review") == ["Bill", "Audit", "Plain"])
        #expect(try titles(s, "--sort", "size-") == ["Bill", "Audit", "Plain"], "values in declared order: L after M")
        #expect(try titles(s, "--sort", "client-") == ["Bill", "Audit", "Plain"])
        let bad = try s.tick("list", "--sort", "clint")
        #expect(bad.status == 2 && bad.stderr.contains("did you mean client?"), "\(bad)")
        let shown = try s.ok("show", try s.uuidPrefix("Audit"))
        #expect(shown.contains("Client") && shown.contains("Acme") && shown.contains("1h30m"), Comment(rawValue: shown))

        // Re-importing the same export, and tick's own export, changes no byte.
        let before = try s.bytes("inbox.json")
        let again = try s.ok("import", s.root + "/tw.json", "--format", "taskwarrior")
        #expect(again.contains("0 added, 0 updated, 3 unchanged"), "\(again)")
        try s.ok("export", "--format", "taskwarrior", "-o", s.root + "/back.json")
        let own = try s.ok("import", s.root + "/back.json", "--format", "taskwarrior")
        #expect(own.contains("0 added, 0 updated, 3 unchanged"), "\(own)")
        #expect(try s.bytes("inbox.json") == before)

        // Back into a fresh Taskwarrior: every UDA as it was.
        let b = try TW(s, "tw-b")
        try b("import", s.root + "/back.json")
        let back = try records(try b("export"))
        for title in ["Audit", "Bill", "Plain"] {
            let o = try #require(original[title]), c = try #require(back[title], "\(title) missing")
            for key in Self.udas {
                let x = o[key].map { try? canonicalJSON(["v": $0]) } ?? nil
                let y = c[key].map { try? canonicalJSON(["v": $0]) } ?? nil
                #expect(x == y, "\(title).\(key): \(String(describing: o[key])) came back as \(String(describing: c[key]))")
            }
        }
    }
}
