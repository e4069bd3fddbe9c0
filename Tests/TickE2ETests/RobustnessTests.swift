import Foundation
import Testing

/// Hand edits, hand-made and broken files, unknown keys, read-only commands,
/// where the store and the machine-local state live.
@Suite("robustness")
struct RobustnessTests {
    // MARK: Hand edits

    @Test("a title rewritten with sed -i shows up in the next tick list --json")
    func sedHandEdit() throws {
        let s = try Sandbox()
        try s.ok("lists", "add", "Work")
        try s.add("Draft", "the", "plan", "list:Work")
        try s.add("Other")
        let id = try #require(try s.json("list", "Work").first?.string("id"))
        try s.sed("-i", #"s/"title": "Draft the plan"/"title": "Write the plan"/"#, "lists/work.json")
        let after = try s.json("list")
        #expect(after.titles == ["Other", "Write the plan"])
        let edited = try #require(after.task("Write the plan"))
        #expect(edited.string("id") == id)
        #expect(edited.int("shortId") == 1)
        // tick keeps working on the hand-edited file.
        try s.ok("done", "1", now: "2026-11-22T10:00:00Z")
        let t = try #require(try s.tasks("lists/work.json").first)
        #expect(t.string("title") == "Write the plan")
        #expect(t.string("state") == "done")
    }

    @Test("a hand-made list file is listed at once, and the first write fills in ids and timestamps")
    func handMadeFile() throws {
        let s = try Sandbox()
        try s.write("lists/books.json", #"{"name": "Books", "tasks": [{"title": "Dune"}]}"#)
        try setMtime(s.path("lists/books.json"), 1_795_252_443)   // 2026-11-21T09:14:03Z
        let before = try s.fingerprint()

        let r = try s.tick("list", "Books")
        #expect(r.status == 0)
        #expect(r.stdout == "Books (1)\n  1 [ ] Dune\n")
        let listed = try #require(try s.json("list", "Books").first)
        // The derived id of FORMAT.md 5.4.
        #expect(listed.string("id") == "23a0fae8-592d-535f-b6c7-da6fdd0c171b")
        #expect(listed.string("createdAt") == "2026-11-21T09:14:03Z")
        #expect(try s.fingerprint() == before, "reading never writes")

        #expect(try s.ok("done", "1") == "Completed 1 (23a0fae8): Dune\n")
        // The clock (TICK_NOW, 09:00) is behind the file's time (09:14:03, its
        // createdAt): the change is stamped just after the state's last change
        // time, never before it (FORMAT.md 4.1); completedAt is the clock's.
        #expect(try s.text("lists/books.json") == """
        {
          "version": 1,
          "id": "582d4917-ad49-56df-9f6b-d9159b7ea880",
          "name": "Books",
          "createdAt": "2026-11-21T09:14:03Z",
          "modifiedAt": "2026-11-21T09:14:03Z",
          "tasks": [
            {
              "id": "23a0fae8-592d-535f-b6c7-da6fdd0c171b",
              "title": "Dune",
              "state": "done",
              "createdAt": "2026-11-21T09:14:03Z",
              "modifiedAt": "2026-11-21T09:14:04Z",
              "completedAt": "2026-11-21T09:00:00Z",
              "changed": {
                "state": "2026-11-21T09:14:04Z"
              }
            }
          ]
        }

        """)
    }

    @Test("unknown keys at file and task level survive done, edit and start")
    func unknownKeysSurvive() throws {
        let s = try Sandbox()
        try s.write("lists/work.json", """
        {
          "name": "Work",
          "x-owner": "sam",
          "x-meta": {"z": 1, "a": [1, 2]},
          "tasks": [
            {"id": "e5ad53e3-2b26-48bd-9c56-e77eab538220", "title": "Draft", "x-estimate": 3,
             "createdAt": "2026-11-02T09:12:00Z", "modifiedAt": "2026-11-20T15:38:21Z"},
            {"id": "3a5effe4-2566-46ba-b996-d7b0237e862a", "title": "Other", "x-link": "https://example.com/a\\/b",
             "createdAt": "2026-11-02T09:12:00Z", "modifiedAt": "2026-11-20T15:38:21Z"}
          ]
        }
        """)
        try setMtime(s.path("lists/work.json"), 1_795_252_443)   // 2026-11-21T09:14:03Z
        try s.ok("done", "e5ad")
        try s.ok("edit", "3a5e", "--title", "Other thing")
        try s.ok("start", "3a5e")
        let text = try s.text("lists/work.json")
        #expect(text.contains("""
          "name": "Work",
          "createdAt": "2026-11-21T09:14:03Z",
          "modifiedAt": "2026-11-21T09:14:03Z",
          "x-owner": "sam",
          "x-meta": {
            "z": 1,
            "a": [1, 2]
          },
          "tasks": [
        """))
        #expect(text.contains("""
              "completedAt": "2026-11-21T09:00:00Z",
              "changed": {
                "state": "2026-11-21T09:00:00Z"
              },
              "x-estimate": 3
            },
        """))
        #expect(text.contains("""
              "modifiedAt": "2026-11-21T09:00:00Z",
              "changed": {
                "title": "2026-11-21T09:00:00Z",
                "state": "2026-11-21T09:00:00Z"
              },
              "x-link": "https://example.com/a/b"
            }
        """))
        let tasks = try s.tasks("lists/work.json")
        #expect(tasks.titles == ["Draft", "Other thing"])
        #expect(tasks.map { $0.string("state") } == ["done", "active"])
    }

    @Test("hidden files, sync-conflict copies and non-JSON files in lists/ are ignored")
    func ignoredFiles() throws {
        let s = try Sandbox()
        try s.write("lists/work.json", #"{"name": "Work", "tasks": [{"title": "Real"}]}"#)
        try s.write("lists/work.sync-conflict-20261121-101500-ABCDEF1.json", #"{"name": "Work", "tasks": [{"title": "Conflict copy"}]}"#)
        try s.write("lists/.hidden.json", #"{"name": "Hidden", "tasks": [{"title": "Hidden"}]}"#)
        try s.write("lists/.work.json.tick-abc123.tmp", "{ half a file")
        try s.write("lists/notes.txt", "not a list")
        try s.write("README", "my tasks")
        let r = try s.tick("list")
        #expect(r.status == 0)
        #expect(r.stderr == "")
        #expect(r.stdout == "Work (1)\n  1 [ ] Real\n")
        #expect(try s.json("lists").map { $0.string("file") } == ["inbox.json", "lists/work.json"])
        try s.add("New", "list:Work")
        #expect(try s.tasks("lists/work.json").titles == ["Real", "New"])
        #expect(try s.text("lists/notes.txt") == "not a list")
    }

    // MARK: Broken files

    /// A store with a list file with a JSON syntax error at line 4, column 19.
    static func brokenFixture() throws -> Sandbox {
        let s = try Sandbox()
        try s.ok("lists", "add", "Work")
        try s.add("Good", "task", "list:Work")
        try s.add("Inbox", "task")
        try s.write("lists/broken.json", """
        {
          "name": "BrokenList",
          "tasks": [
            {"title": "a" "state": "open"}
          ]
        }

        """)
        return s
    }

    static let brokenLocation = "broken.json:4:19"
    /// tick runs with the sandbox root as its current directory, so it shows store
    /// paths relative to it (editors can jump to `path:line:column`).
    static let brokenPath = "store/lists/broken.json"

    @Test("a broken file: tick list warns once and lists everything else")
    func brokenFileListAll() throws {
        let s = try Self.brokenFixture()
        let r = try s.tick("list")
        #expect(r.status == 0)
        #expect(r.stdout == "Inbox (1)\n  2 [ ] Inbox task\n\nWork (1)\n  1 [ ] Good task\n")
        let warnings = lines(r.stderr)
        #expect(warnings.count == 1)
        #expect(warnings.first?.hasPrefix("tick: warning: \(Self.brokenPath):4:19: expected ',' or '}'") == true)
        #expect(try s.json("today").isEmpty)
        #expect(try s.tick("lists").stdout.contains("\nunreadable: \(Self.brokenPath):4:19: expected ',' or '}'"))
    }

    @Test("a broken file: a write to it fails with line:column and leaves it byte-identical; other lists still work")
    func brokenFileWriteAttempt() throws {
        let s = try Self.brokenFixture()
        let original = try s.bytes("lists/broken.json")
        try setMtime(s.path("lists/broken.json"), 1_000_000_000)
        let mtime = mtimeNanoseconds(s.path("lists/broken.json"))

        let r = try s.tick("add", "x", "list:broken")
        #expect(r.status == 4)
        #expect(r.stdout == "")
        #expect(r.stderr.contains("\(Self.brokenPath):4:19: error: expected ',' or '}' after the value of \"title\""))
        // The offending line and a caret under column 19.
        #expect(r.stderr.contains("\n        {\"title\": \"a\" \"state\": \"open\"}\n                      ^\n"))
        #expect(try s.bytes("lists/broken.json") == original)
        #expect(mtimeNanoseconds(s.path("lists/broken.json")) == mtime)
        #expect(!s.storeFiles().contains { $0.contains(".tmp") })

        // The rest of the store is unaffected.
        #expect(try s.add("Another", "list:Work") == "3")
        #expect(try s.add("Inbox", "two") == "4")
        try s.ok("done", "1")
        #expect(try s.tasks("lists/work.json").titles == ["Good task", "Another"])
        #expect(try s.bytes("lists/broken.json") == original)

        // Once fixed by hand, it works again.
        try s.sed("-i", #"s/"a" "state"/"a", "state"/"#, "lists/broken.json")
        #expect(try s.json("list", "BrokenList").titles == ["a"])
    }

    @Test("a broken file: showing that list by its slug fails with exit 4 and line:column")
    func brokenFileListBySlug() throws {
        let s = try Self.brokenFixture()
        let r = try s.tick("list", "broken")
        #expect(r.status == 4)
        #expect(r.stdout == "")
        #expect(r.stderr.contains(Self.brokenLocation))
    }

    @Test("a broken file: naming the list by its name fails with exit 4 and line:column, for list and add")
    func brokenFileListByName() throws {
        let s = try Self.brokenFixture()
        let original = try s.bytes("lists/broken.json")
        let list = try s.tick("list", "BrokenList")
        #expect(list.status == 4)
        #expect(list.stderr.contains(Self.brokenLocation))
        let add = try s.tick("add", "x", "list:BrokenList")
        #expect(add.status == 4)
        #expect(add.stderr.contains(Self.brokenLocation))
        #expect(try s.bytes("lists/broken.json") == original)
    }

    @Test("a broken file: an id that is not found could be in it, so the command stops with exit 4")
    func brokenFileUnknownIDMessage() throws {
        let s = try Self.brokenFixture()
        let before = try s.fingerprint()
        let r = try s.tick("done", "99")
        #expect(r.status == 4)
        #expect(try s.fingerprint() == before)
        #expect(r.stderr.hasSuffix("tick: error: task \"99\" may be in \(Self.brokenPath), which cannot be read; fix that file first\n"))
    }

    @Test("a broken file: lists add refuses (the broken file might carry that name)")
    func brokenFileListsAdd() throws {
        let s = try Self.brokenFixture()
        let before = try s.fingerprint()
        let r = try s.tick("lists", "add", "Fresh")
        #expect(r.status == 4)
        #expect(r.stderr.contains("\(Self.brokenPath):4:19: error: "))
        #expect(try s.fingerprint() == before)
    }

    @Test("schema errors are reported with line:column too", arguments: [
        (#"{"tasks": [{"title": "x", "state": "finished"}]}"#, "1:36", "\"state\" must be one of open, active, done (found \"finished\")"),
        ("{\n  \"tasks\": [\n    {\"title\": \"x\", \"tags\": [\"+car\"]}\n  ]\n}\n", "3:29", "tags are stored without the leading '+'"),
        (#"{"version": 2, "tasks": []}"#, "1:13", "this file has format version 2"),
        (#"{"tasks": [{"state": "open"}]}"#, "1:12", "a task needs a \"title\""),
    ])
    func schemaErrors(content: String, location: String, message: String) throws {
        let s = try Sandbox()
        try s.write("lists/bad.json", content)
        let original = try s.bytes("lists/bad.json")
        let r = try s.tick("add", "x", "list:bad")
        #expect(r.status == 4)
        #expect(r.stderr.contains("store/lists/bad.json:\(location): error: \(message)"), "\(r.stderr)")
        #expect(try s.bytes("lists/bad.json") == original)
    }

    // MARK: Read-only commands

    @Test("read-only commands never write to the store (bytes and mtime of every file unchanged)")
    func readOnlyCommands() throws {
        let s = try Sandbox()
        try s.ok("lists", "add", "Work")
        try s.add("A", "due:yesterday")
        try s.add("B", "list:Work", "due:tomorrow")
        try s.ok("done", "1")
        // A hand-made file that a careless reader might "fill in".
        try s.write("lists/books.json", #"{"name": "Books", "tasks": [{"title": "Dune"}]}"#)
        for rel in s.storeFiles() { try setMtime(s.path(rel), 1_000_000_000) }
        let before = try s.fingerprint()
        let commands: [[String]] = [
            ["list"], ["list", "--all", "--json"], ["list", "Books"], ["inbox"], ["today"], ["today", "--json"],
            ["upcoming"], ["upcoming", "--days", "30", "--json"], ["overdue"], ["show", "2"], ["show", "2", "--json"],
            ["lists"], ["lists", "--json"], ["export"], ["export", "--format", "markdown"], ["export", "--list", "Books"],
            ["import", s.root + "/exp.json", "--dry-run"],
        ]
        try s.write("../exp.json", try s.ok("export"))
        for args in commands {
            let r = try s.tick(args)
            #expect(r.status == 0, "\(args): \(r)")
        }
        #expect(try s.fingerprint() == before)
        #expect(s.storeFiles() == ["lists/books.json", "lists/work.json", "inbox.json"].sorted())
    }

    // MARK: Where things live

    @Test("without TICK_STORE the store is $XDG_DATA_HOME/tick, created on the first write")
    func defaultStoreLocation() throws {
        let s = try Sandbox(setsStore: false)
        let store = s.dataHome + "/tick"
        #expect(try s.ok("list") == "No tasks. Add one with: tick add Something to do\n")
        #expect(!FileManager.default.fileExists(atPath: store), "reading must not create the store")

        #expect(try s.add("First") == "1")
        #expect(FileManager.default.fileExists(atPath: store + "/inbox.json"))
        let tasks = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: store + "/inbox.json"))) as? [String: Any])
        #expect((tasks["tasks"] as? [[String: Any]])?.titles == ["First"])
        // Nothing went to the sandbox's TICK_STORE path or the default under HOME.
        #expect(!FileManager.default.fileExists(atPath: s.store))
        #expect(!FileManager.default.fileExists(atPath: s.home + "/.local"))
        // State is keyed by the store's base name and the FNV-1a hash of its real path.
        let key = "tick-" + fnv1a64Hex(Array(store.utf8))
        #expect(FileManager.default.fileExists(atPath: s.stateHome + "/tick/\(key)/store.lock"))
        #expect(FileManager.default.fileExists(atPath: s.cacheHome + "/tick/\(key)/index.sqlite"))

        // With XDG_DATA_HOME unset, the default is ~/.local/share/tick.
        #expect(try s.tick("add", "Second", env: ["XDG_DATA_HOME": nil]).stdout == "1\n")
        #expect(FileManager.default.fileExists(atPath: s.home + "/.local/share/tick/inbox.json"))
    }

    @Test("the FNV-1a helper matches the store key example of FORMAT.md")
    func storeKeyExample() {
        #expect("tick-" + fnv1a64Hex(Array("/home/sam/.local/share/tick".utf8)) == "tick-d5417425912eb1d1")
        #expect("tasks-" + fnv1a64Hex(Array("/home/sam/Sync/tasks".utf8)) == "tasks-016de41f2ca02b64")
    }

    @Test("--store wins over TICK_STORE, before or after the subcommand, relative to the cwd")
    func storeOption() throws {
        let s = try Sandbox()
        for dir in ["a", "b", "c"] { try s.ok("init", s.root + "/" + dir) }
        #expect(try s.tick("--store", s.root + "/a", "add", "In A").status == 0)
        #expect(try s.tick("add", "In B", "--store=" + s.root + "/b").status == 0)
        #expect(try s.tick("--no-color", "--store", "c", "add", "In C", cwd: s.root).status == 0)
        #expect(try s.tick("add", "In TICK_STORE").status == 0)
        for (dir, title) in [("a", "In A"), ("b", "In B"), ("c", "In C"), ("store", "In TICK_STORE")] {
            let data = try Data(contentsOf: URL(fileURLWithPath: "\(s.root)/\(dir)/inbox.json"))
            let file = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect((file["tasks"] as? [[String: Any]])?.titles == [title], "\(dir)")
        }
    }

    @Test("a store path that is a file is an error")
    func storeIsAFile() throws {
        let s = try Sandbox()
        try Data("x".utf8).write(to: URL(fileURLWithPath: s.root + "/plainfile"))
        let r = try s.tick("--store", s.root + "/plainfile", "list")
        #expect(r.status == 1)
        #expect(r.stderr == "tick: error: the store \(s.root)/plainfile is not a directory; pass --store DIR or set TICK_STORE\n")
    }
}
