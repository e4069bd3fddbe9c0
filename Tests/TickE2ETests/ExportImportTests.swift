import Foundation
import Testing

/// `tick export` (json, markdown) and `tick import`.
@Suite("export and import")
struct ExportImportTests {
    /// A store with every kind of field: dates, notes, tags, states, a hand-made
    /// list, unknown keys at file and task level.
    static func fixture() throws -> Sandbox {
        let s = try Sandbox()
        try s.ok("lists", "add", "Work", "--color", "#3b82f6")
        try s.add("Buy", "milk", "due:tomorrow@17:00", "+errand")
        try s.ok("add", "Call", "mom", "remind:mon", "sched:tue", "pri:must", "--note", "ask\nabout trip")
        try s.add("Old", "done", "due:2026-11-18")
        try s.add("Report", "list:Work", "due:2026-11-24", "pri:flexible")
        try s.add("Fix *bold* [x]", "list:Work")
        try s.ok("done", "3")
        try s.ok("start", "4")
        try s.write("lists/books.json", """
        {"name": "Books", "x-owner": "sam", "createdAt": "2026-10-01T08:00:00Z",
         "tasks": [{"title": "Dune", "x-estimate": 1.50, "createdAt": "2026-10-02T08:00:00Z"},
                   {"title": "Piranesi", "tags": ["fantasy"], "state": "done",
                    "createdAt": "2026-10-03T08:00:00Z", "completedAt": "2026-10-04T08:00:00Z"}]}
        """)
        return s
    }

    /// `tick list --all --json` of a store without the machine-local shortId.
    static func portableListing(_ s: Sandbox, store: String? = nil) throws -> String {
        let args = (store.map { ["--store", $0] } ?? []) + ["list", "--all", "--json"]
        let r = try s.tick(args)
        #expect(r.status == 0, "\(r)")
        var tasks = try #require(try JSONSerialization.jsonObject(with: r.stdoutData) as? [[String: Any]])
        for i in tasks.indices { tasks[i]["shortId"] = nil }
        return try canonicalJSON(tasks)
    }

    @Test("a JSON export imported into an empty store gives back the same tasks; a second import changes nothing")
    func roundTrip() throws {
        let s = try Self.fixture()
        let export = try s.tick("export")
        #expect(export.status == 0)
        #expect(export.stderr == "")
        let doc = try #require(try JSONSerialization.jsonObject(with: export.stdoutData) as? [String: Any])
        #expect(doc.int("tickExport") == 1)
        #expect(doc.string("exportedAt") == pinnedNow)
        let files = try #require(doc["files"] as? [[String: Any]])
        #expect(files.map { $0.string("path") } == ["inbox.json", "lists/books.json", "lists/work.json"])
        try s.write("../backup.json", export.stdout)

        let copy = s.root + "/copy"
        try s.ok("init", copy)   // a named store must exist (Docs/DECISIONS.md)
        let imported = try s.tick("--store", copy, "import", s.root + "/backup.json")
        #expect(imported.status == 0)
        #expect(imported.stdout == "Imported: 7 added, 0 updated, 0 unchanged, 0 kept (newer here)\n")
        #expect(try Self.portableListing(s) == (try Self.portableListing(s, store: copy)))
        // Lists keep their file, id, name, color, createdAt and unknown keys.
        for rel in ["lists/work.json", "lists/books.json"] {
            let a = try s.file(rel)
            let b = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: copy + "/" + rel))) as? [String: Any])
            for key in ["id", "name", "color", "createdAt", "x-owner"] where a[key] != nil {
                #expect(a[key] as? String == b[key] as? String, "\(rel) \(key)")
            }
        }
        // books.json is hand-made without an id: the copy has the derived one (FORMAT.md 5.4).
        let copiedBooks = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: copy + "/lists/books.json"))) as? [String: Any])
        #expect(copiedBooks.string("id") == "582d4917-ad49-56df-9f6b-d9159b7ea880")
        // The unknown number keeps its spelling.
        let books = try String(contentsOfFile: copy + "/lists/books.json", encoding: .utf8)
        #expect(books.contains("\"x-estimate\": 1.50\n"))

        // Importing the same export again changes nothing, not even mtimes.
        let copyStore = Sandbox.Snapshot(root: copy)
        let before = try copyStore.fingerprint()
        let again = try s.tick("--store", copy, "import", s.root + "/backup.json")
        #expect(again.status == 0)
        #expect(again.stdout == "Imported: 0 added, 0 updated, 7 unchanged, 0 kept (newer here)\n")
        #expect(try copyStore.fingerprint() == before)

        // Importing into the original store changes nothing either.
        let original = try s.fingerprint()
        #expect(try s.ok("import", s.root + "/backup.json") == "Imported: 0 added, 0 updated, 7 unchanged, 0 kept (newer here)\n")
        #expect(try s.fingerprint() == original)
    }

    @Test("import --dry-run reports and writes nothing")
    func dryRun() throws {
        let s = try Self.fixture()
        let export = try s.ok("export")
        let target = s.root + "/dry"
        try s.ok("init", target)
        let r = try s.tick("--store", target, "import", "-", "--dry-run", stdin: export)
        #expect(r.status == 0)
        #expect(r.stdout == """
        Would import: 7 added, 0 updated, 0 unchanged, 0 kept (newer here)
          inbox.json (new list): 3 added, 0 updated
            + Buy milk
            + Call mom
            + Old done
          lists/books.json (new list): 2 added, 0 updated
            + Dune
            + Piranesi
          lists/work.json (new list): 2 added, 0 updated
            + Report
            + Fix *bold* [x]

        """)
        #expect(try FileManager.default.contentsOfDirectory(atPath: target).isEmpty, "a dry run must write nothing to the store")
    }

    @Test("import - reads stdin; a changed task is updated in place")
    func importUpdates() throws {
        let s = try Self.fixture()
        let export = try s.ok("export")
        let changed = export.replacingOccurrences(of: "\"title\": \"Report\"", with: "\"title\": \"Quarterly report\"")
        #expect(changed != export)
        let r = try s.tick("import", "-", stdin: changed)
        #expect(r.status == 0)
        #expect(r.stdout == "Imported: 0 added, 1 updated, 6 unchanged, 0 kept (newer here)\n")
        #expect(try s.tasks("lists/work.json").titles == ["Quarterly report", "Fix *bold* [x]"])
    }

    @Test("import keeps a local copy that is newer than the imported one")
    func importKeepsNewer() throws {
        let s = try Sandbox()
        try s.add("A")
        try s.add("B")
        let export = try s.ok("export")
        try s.ok("edit", "1", "--title", "A edited here", now: "2026-11-22T09:00:00Z")
        let changed = export.replacingOccurrences(of: "\"title\": \"B\"", with: "\"title\": \"B from the export\"")
        let r = try s.tick("import", "-", stdin: changed, now: "2026-11-22T10:00:00Z")
        #expect(r.status == 0)
        #expect(r.stdout == "Imported: 0 added, 1 updated, 0 unchanged, 1 kept (newer here)\n")
        let tasks = try s.tasks("inbox.json")
        #expect(tasks.titles == ["A edited here", "B from the export"])
        #expect(tasks.task("A edited here")?.string("modifiedAt") == "2026-11-22T09:00:00Z")
    }

    @Test("a broken import file is refused with line:column before anything is written")
    func importBroken() throws {
        let s = try Self.fixture()
        let export = try s.ok("export")
        // Break line 3 of the export: remove the comma after exportedAt.
        var exportLines = lines(export)
        #expect(exportLines[2].hasPrefix("  \"exportedAt\": "))
        exportLines[2].removeLast()
        try s.write("../broken-export.json", exportLines.joined(separator: "\n") + "\n")
        let target = s.root + "/target"
        try s.ok("init", target)
        let r = try s.tick("--store", target, "import", s.root + "/broken-export.json")
        #expect(r.status == 4)
        #expect(r.stderr.hasPrefix("\(s.root)/broken-export.json:4:3: error: expected ',' or '}' after the value of \"exportedAt\""))
        #expect(try FileManager.default.contentsOfDirectory(atPath: target).isEmpty)

        let missing = try s.tick("import", s.root + "/nope.json")
        #expect(missing.status == 1)
        #expect(missing.stderr == "tick: error: cannot read \(s.root)/nope.json: no such file\n")
    }

    @Test("markdown export: ## headings per list, - [ ] / - [x] items with dates")
    func markdown() throws {
        let s = try Self.fixture()
        let r = try s.tick("export", "--format", "markdown")
        #expect(r.status == 0)
        #expect(r.stdout == """
        ## Inbox

        - [ ] Buy milk — due 2026-11-22 17:00 `#errand`
        - [ ] Call mom — scheduled 2026-11-24, remind 2026-11-23 09:00, must
          ask
          about trip
        - [x] Old done — due 2026-11-18, done 2026-11-21

        ## Books

        - [ ] Dune
        - [x] Piranesi — done 2026-10-04 `#fantasy`

        ## Work

        - [ ] Report — in progress, due 2026-11-24, flexible
        - [ ] Fix \\*bold\\* \\[x\\]

        """)
        #expect(try s.ok("export", "--format", "markdown", "--list", "work") == """
        ## Work

        - [ ] Report — in progress, due 2026-11-24, flexible
        - [ ] Fix \\*bold\\* \\[x\\]

        """)
        #expect(try Sandbox().ok("export", "--format", "markdown") == "_No tasks._\n")
    }

    @Test("export -o writes the file atomically; --list limits it; bad arguments fail")
    func exportOptions() throws {
        let s = try Self.fixture()
        let r = try s.tick("export", "--list", "Work", "-o", "work-export.json")   // relative to the cwd (the sandbox root)
        #expect(r.status == 0)
        #expect(r.stdout == "")
        #expect(r.stderr == "Exported 2 task(s) to work-export.json\n")
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: s.root + "/work-export.json"))) as? [String: Any])
        let files = try #require(doc["files"] as? [[String: Any]])
        #expect(files.map { $0.string("path") } == ["lists/work.json"])

        let missing = try s.tick("export", "--list", "Nope")
        #expect(missing.status == 3)
        #expect(missing.stderr == "tick: error: no list named \"Nope\"; known lists: Books, Work\n")
        let format = try s.tick("export", "--format", "xlsx")
        #expect(format.status == 2)
        #expect(format.stdout == "")
        #expect(format.stderr.contains("xlsx"))
    }
}

extension Sandbox {
    /// Fingerprints of a store directory other than the sandbox's own.
    struct Snapshot {
        let root: String

        func fingerprint() throws -> [String: FileFingerprint] {
            var out: [String: FileFingerprint] = [:]
            guard let e = FileManager.default.enumerator(atPath: root) else { return out }
            while let rel = e.nextObject() as? String {
                let p = root + "/" + rel
                var isDir: ObjCBool = false
                guard FileManager.default.fileExists(atPath: p, isDirectory: &isDir), !isDir.boolValue else { continue }
                out[rel] = FileFingerprint(bytes: FileManager.default.contents(atPath: p) ?? Data(), mtime: mtimeNanoseconds(p))
            }
            return out
        }
    }
}
