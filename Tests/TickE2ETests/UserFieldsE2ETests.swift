import Foundation
import Testing

/// `[fields.NAME]` in config.toml through the built binary (issue 45): add
/// with a default, edit, clear, show, --json, report columns, filters, undo,
/// a wrong-typed hand edit, bad values, and removing the declaration.
@Suite("user-defined fields")
struct UserFieldsE2ETests {
    static let config = """
        [fields.client]
        type = "string"
        label = "Client"

        [fields.points]
        type = "number"

        [fields.review]
        type = "date"

        [fields.spent]
        type = "duration"

        [fields.size]
        type = "values"
        values = ["S", "M", "L"]
        default = "M"

        [reports.billing]
        filter = "client.any:"
        sort = "title"
        columns = ["id", "title", "client", "size", "spent"]
        """

    func sandbox(_ config: String = Self.config) throws -> Sandbox {
        let s = try Sandbox()
        try FileManager.default.createDirectory(atPath: s.home + "/.config/tick", withIntermediateDirectories: true)
        try config.write(toFile: s.home + "/.config/tick/config.toml", atomically: true, encoding: .utf8)
        return s
    }

    func ids(_ s: Sandbox, _ filter: String...) throws -> [String] {
        let r = try s.tick(["list"] + filter + ["--json"])
        guard r.status == 0, let rows = try JSONSerialization.jsonObject(with: r.stdoutData) as? [[String: Any]] else {
            throw HarnessError("tick list \(filter) --json: \(r)")
        }
        return rows.compactMap { $0["title"] as? String }.sorted()
    }

    @Test func addEditClearShowFilterUndo() throws {
        let s = try sandbox()
        let audit = try s.add("Audit", "client:Acme", "points:3", "review:2026-11-25", "spent:1h30m")
        try s.add("Invoice", "client:Globex", "size:l", "review:2026-12-10", "spent:20m")
        try s.add("Plain")
        // Stored under their keys, each in its type's form; the default on add.
        let task = try #require(s.tasks("inbox.json").task("Audit"))
        #expect(task.string("client") == "Acme")
        #expect(task.int("points") == 3)
        #expect(task.string("review") == "2026-11-25")
        #expect(task.int("spent") == 90)
        #expect(task.string("size") == "M")
        #expect(try s.tasks("inbox.json").task("Plain")?.string("size") == "M")
        #expect(try s.tasks("inbox.json").task("Plain")?["client"] == nil)
        // show by label; --json exact.
        let shown = try s.ok("show", audit)
        #expect(shown.contains("Client") && shown.contains("Acme") && shown.contains("1h30m"))
        #expect(try s.showJSON(audit).int("spent") == 90)
        // Filters.
        #expect(try ids(s, "client:Acme") == ["Audit"])
        #expect(try ids(s, "client.any:") == ["Audit", "Invoice"])
        #expect(try ids(s, "client.none:") == ["Plain"])
        #expect(try ids(s, "size:m") == ["Audit", "Plain"])
        #expect(try ids(s, "spent.over:1h") == ["Audit"])
        #expect(try ids(s, "spent.under:30m") == ["Invoice"])
        #expect(try ids(s, "points:3") == ["Audit"])
        #expect(try ids(s, "points.over:5") == [])
        #expect(try ids(s, "review.before:2026-12-01") == ["Audit"])
        #expect(try ids(s, "review.after:2026-12-01") == ["Invoice"])
        #expect(try ids(s, "not", "review.any:") == ["Plain"])
        // A report's columns.
        let report = try s.ok("billing")
        #expect(report.contains("CLIENT") && report.contains("Globex") && report.contains("20m"))
        // Edit, clear, undo.
        try s.ok("edit", audit, "client:Initech", "size:s")
        #expect(try s.tasks("inbox.json").task("Audit")?.string("client") == "Initech")
        try s.ok("edit", audit, "client:")
        #expect(try s.tasks("inbox.json").task("Audit")?["client"] == nil)
        try s.ok("undo")
        #expect(try s.tasks("inbox.json").task("Audit")?.string("client") == "Initech")
        #expect(try s.tasks("inbox.json").task("Audit")?.string("size") == "S")
    }

    @Test func badValuesAreOneLineAndExitTwo() throws {
        let s = try sandbox()
        let id = try s.add("Audit")
        let before = try s.fingerprint()
        for words in [["edit", id, "size:XL"], ["edit", id, "points:many"], ["edit", id, "review:someday"],
                      ["add", "X", "spent:soon"], ["list", "spent:soon"]] {
            let r = try s.tick(words)
            #expect(r.status == 2, "\(words): \(r)")
            #expect(r.stderr.hasPrefix("tick: error: "))
        }
        #expect(try s.tick("edit", id, "size:XL").stderr.contains("did you mean L?"))
        #expect(try s.fingerprint() == before)
        // A declaration tick cannot use: one config error line naming the key.
        try "[fields.due]\ntype = \"string\"\n".write(toFile: s.home + "/.config/tick/config.toml", atomically: true, encoding: .utf8)
        let r = try s.tick("add", "Y")
        #expect(r.status != 0)
        #expect(r.stderr.contains("fields.due"))
    }

    @Test func handEditsAndRemovedDeclarationsAreKeptVerbatim() throws {
        let s = try sandbox()
        try s.add("Audit", "spent:45m")
        // A hand edit with a value of the wrong type: kept, shown, never rewritten.
        let text = try s.text("inbox.json").replacingOccurrences(of: "\"spent\": 45", with: "\"spent\": \"a while\"")
        try s.write("inbox.json", text)
        #expect(try s.ok("show", "1").contains("\"a while\""))
        #expect(try ids(s, "spent.any:") == ["Audit"])
        #expect(try ids(s, "spent.over:1") == [])
        try s.ok("edit", "1", "client:Acme")
        #expect(try s.tasks("inbox.json").task("Audit")?.string("spent") == "a while")
        // The declaration removed: the files stay as they are; the keys stay in --json.
        let kept = try s.bytes("inbox.json")
        try "".write(toFile: s.home + "/.config/tick/config.toml", atomically: true, encoding: .utf8)
        #expect(try s.json("list").task("Audit")?.string("client") == "Acme")
        #expect(try s.bytes("inbox.json") == kept)
        #expect(try s.tick("list", "client:Acme").status != 0)
    }
}
