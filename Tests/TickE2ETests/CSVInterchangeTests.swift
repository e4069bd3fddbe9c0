import Foundation
import Testing

/// `tick import/export --format csv`, checked with Python's `csv` module.
/// A Python 3 for the CSV checks, if there is one.
private let csvTestPython: String? = ["/usr/bin/python3", "/usr/local/bin/python3"].first { FileManager.default.isExecutableFile(atPath: $0) }
    ?? ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":").map { "\($0)/python3" }.first { FileManager.default.isExecutableFile(atPath: $0) }

@Suite("CSV interchange")
struct CSVInterchangeTests {

    func python(_ s: Sandbox, _ script: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> RunResult {
        let path = s.root + "/check.py"
        try Data(script.utf8).write(to: URL(fileURLWithPath: path))
        // A pyenv shim needs the real HOME to find its interpreter.
        let r = try s.run(try #require(csvTestPython), [path], env: ["HOME": ProcessInfo.processInfo.environment["HOME"], "PYTHONIOENCODING": "utf-8"])
        if r.status != 0 { Issue.record("python failed: \(r)", sourceLocation: sourceLocation) }
        return r
    }

    @Test("tick export csv → Python reads and edits → tick import applies the edits", .enabled(if: csvTestPython != nil))
    func roundTripThroughPython() throws {
        let s = try Sandbox()
        try s.ok("lists", "add", "Work, Inc.")
        try s.add("Buy", "milk,", "eggs", "due:2026-11-24", "+errand", "+shop")
        try s.ok("add", "Say \"hi\", then leave", "list:Work, Inc.", "due:tomorrow@17:00", "pri:must", "--note", "line one, with comma\nline \"two\"\n\nlast")
        try s.add("Plain", "energy:low")
        try s.ok("done", "3")
        let csvPath = s.root + "/out.csv"
        let out = try s.tick("export", "--format", "csv", "-o", csvPath)
        #expect(out.status == 0, "\(out)")

        let r = try python(s, """
        import csv, json, sys
        with open("\(csvPath)", newline="", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
        json.dump(rows, sys.stdout)
        """)
        let rows = try #require(try JSONSerialization.jsonObject(with: r.stdoutData) as? [[String: String]], "\(r)")
        #expect(rows.count == 3)
        #expect(rows.first.map { Array($0.keys).sorted() } == ["completedAt", "createdAt", "due", "energy", "estimate", "id", "list", "modifiedAt", "notes",
                                                               "priority", "remind", "repeat", "scheduled", "state", "tags", "title", "wait", "depends"].sorted())
        let milk = try #require(rows.first { $0["title"] == "Buy milk, eggs" })
        #expect(milk["list"] == "")
        #expect(milk["due"] == "2026-11-24")
        #expect(milk["tags"] == "errand shop")
        #expect(milk["state"] == "open")
        let hi = try #require(rows.first { $0["title"] == "Say \"hi\", then leave" })
        #expect(hi["list"] == "Work, Inc.")
        #expect(hi["notes"] == "line one, with comma\nline \"two\"\n\nlast")
        #expect(hi["priority"] == "must")
        #expect(hi["due"] == "2026-11-22T16:00:00Z")
        let plain = try #require(rows.first { $0["title"] == "Plain" })
        #expect(plain["state"] == "done")
        #expect(plain["energy"] == "low")
        #expect(plain["completedAt"] == pinnedNow)

        // Python edits: a new title with a newline and quotes, a reopened task,
        // a new row without an id (into a new list), and columns in another order.
        let modPath = s.root + "/mod.csv"
        _ = try python(s, """
        import csv
        with open("\(csvPath)", newline="", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
        for r in rows:
            if r["title"] == "Buy milk, eggs":
                r["title"] = 'Buy "oat" milk, and eggs'  # a title holds no newline (FORMAT.md 5.6); notes below do
                r["tags"] = "errand"
                r["modifiedAt"] = "2026-11-21T10:00:00Z"
            if r["title"] == "Plain":
                r["state"] = "open"
                r["completedAt"] = ""
                r["modifiedAt"] = "2026-11-21T10:00:00Z"
        rows.append({"title": "From, Python", "list": "Errands", "notes": "a\\nb", "tags": "py"})
        fields = ["title", "state", "id", "list", "tags", "notes", "due", "priority", "energy", "createdAt", "modifiedAt", "completedAt"]
        with open("\(modPath)", "w", newline="", encoding="utf-8") as f:
            w = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
            w.writeheader()
            w.writerows(rows)
        """)
        let dry = try s.tick("import", modPath, "--format", "csv", "--dry-run")
        #expect(dry.status == 0, "\(dry)")
        let imported = try s.tick("import", modPath, "--format", "csv")
        #expect(imported.status == 0, "\(imported)")
        #expect(imported.stdout == "Imported: 1 added, 2 updated, 1 unchanged, 0 kept (newer here)\n", "\(imported)")

        let inbox = try s.tasks("inbox.json")
        let edited = try #require(inbox.first { $0.string("id") == milk["id"] })
        #expect(edited.string("title") == "Buy \"oat\" milk, and eggs")
        #expect(edited["tags"] as? [String] == ["errand"])
        let reopened = try #require(inbox.first { $0.string("id") == plain["id"] })
        #expect(reopened.string("state") == "open")
        #expect(reopened["completedAt"] == nil)
        let errands = try s.tasks("lists/errands.json")
        #expect(errands.count == 1)
        #expect(errands.first?.string("title") == "From, Python")
        #expect(errands.first?.string("notes") == "a\nb")
        // The unchanged row kept its list and notes.
        let work = try s.tasks("lists/work-inc.json")
        #expect(work.first?.string("notes") == "line one, with comma\nline \"two\"\n\nlast")

        // Importing the same file again changes nothing (the id-less row gets a stable id).
        let again = try s.tick("import", modPath, "--format", "csv")
        #expect(again.stdout == "Imported: 0 added, 0 updated, 4 unchanged, 0 kept (newer here)\n", "\(again)")
    }

    @Test("with --strict a malformed row is reported by its physical line and nothing is imported; an unclosed quote always stops")
    func malformedRow() throws {
        let s = try Sandbox()
        try s.add("Existing")
        let before = try s.fingerprint()
        try s.write("../bad.csv", "title,notes,state\nA,\"two\nlines\",open\nB,plain,finished\n")
        let bad = try s.tick("import", s.root + "/bad.csv", "--format", "csv", "--strict")
        #expect(bad.status == 4, "\(bad)")
        #expect(bad.stderr.contains("bad.csv:4: error: state must be open, active or done, found \"finished\""), "\(bad)")
        #expect(bad.stderr.contains("nothing was imported"))
        #expect(try s.fingerprint() == before)
        try s.write("../open.csv", "title,notes\nA,\"never\nclosed\n")
        let open = try s.tick("import", s.root + "/open.csv", "--format", "csv")
        #expect(open.status == 4)
        #expect(open.stderr.contains("open.csv:2: error: a quoted field is never closed"), "\(open)")
        #expect(try s.fingerprint() == before)
    }
}
