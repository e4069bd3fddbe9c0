import Foundation
import Testing

/// `tick lists`: counts, add, rename, rm.
@Suite("lists")
struct ListsTests {
    @Test("lists add creates lists/<slug>.json, canonical, with the given color")
    func addList() throws {
        let s = try Sandbox()
        let r = try s.tick("lists", "add", "Work", "--color", "3B82F6")
        #expect(r.status == 0)
        #expect(r.stdout == "Created list Work (lists/work.json)\n")
        let id = try #require(try s.file("lists/work.json").string("id"))
        #expect(isLowercaseUUID(id))
        #expect(try s.text("lists/work.json") == """
        {
          "version": 1,
          "id": "\(id)",
          "name": "Work",
          "color": "#3b82f6",
          "createdAt": "2026-11-21T09:00:00Z",
          "modifiedAt": "2026-11-21T09:00:00Z",
          "tasks": []
        }

        """)
        #expect(s.storeFiles() == ["lists/work.json"])
    }

    @Test("slugs: unicode kept (NFC, lowercased), punctuation runs become -, collisions get -2", arguments: [
        ("Café Ideas", "café-ideas"),
        ("Cafe\u{301} Ideas", "café-ideas"),      // decomposed input, NFC file name
        ("Q3 / Q4 plans!!", "q3-q4-plans"),
        ("Café receipts – März", "café-receipts-märz"),
        ("...", "list"),
    ])
    func slugs(name: String, slug: String) throws {
        let s = try Sandbox()
        let r = try s.tick("lists", "add", name)
        #expect(r.status == 0)
        #expect(r.stdout == "Created list \(name) (lists/\(slug).json)\n")
        let names = try FileManager.default.contentsOfDirectory(atPath: s.store + "/lists")
        // Compare bytes: Swift's == would treat NFC and NFD as equal.
        #expect(names.map { Array($0.utf8) } == [Array("\(slug.precomposedStringWithCanonicalMapping).json".utf8)])
        #expect(try s.file("lists/\(slug).json").string("name") == name)
        // The list can be used right away, by name.
        try s.add("Task", "list:\(name)")
        #expect(try s.tasks("lists/\(slug).json").titles == ["Task"])
    }

    @Test("a new list whose slug is taken gets -2")
    func slugCollision() throws {
        let s = try Sandbox()
        try s.write("lists/work.json", #"{"name": "Job", "tasks": []}"#)
        #expect(try s.ok("lists", "add", "Work") == "Created list Work (lists/work-2.json)\n")
        #expect(try s.file("lists/work-2.json").string("name") == "Work")
        #expect(try s.file("lists/work.json").string("name") == "Job")
    }

    @Test("lists add refuses inbox, duplicates, empty names and bad colors", arguments: [
        (["inbox"], Int32(2), "tick: error: cannot use \"inbox\" as a list name: \"inbox\" is reserved for tasks in no list\n"),
        (["INBOX"], Int32(2), "tick: error: cannot use \"INBOX\" as a list name: \"inbox\" is reserved for tasks in no list\n"),
        (["work"], Int32(2), "tick: error: a list named \"work\" already exists\n"),
        (["  "], Int32(2), "tick: error: cannot use \"\" as a list name: the name is empty\n"),
        (["Other", "--color", "xyz"], Int32(2), "tick: error: --color: \"xyz\" is not 6 hex digits like #3b82f6\n"),
    ])
    func addRefused(args: [String], status: Int32, stderr: String) throws {
        let s = try Sandbox()
        try s.ok("lists", "add", "Work")
        let before = try s.fingerprint()
        let r = try s.tick(["lists", "add"] + args)
        #expect(r.status == status)
        #expect(r.stderr == stderr)
        #expect(try s.fingerprint() == before)
    }

    @Test("rename changes only name and the file's modifiedAt; the file name stays")
    func rename() throws {
        let s = try Sandbox()
        try s.ok("lists", "add", "Work")
        try s.add("Task", "list:Work")
        let before = lines(try s.text("lists/work.json"))
        let r = try s.tick("lists", "rename", "Work", "Office", now: "2026-11-22T10:00:00Z")
        #expect(r.status == 0)
        #expect(r.stdout == "Renamed list Work to Office\n")
        #expect(s.storeFiles() == ["lists/work.json"])
        let after = lines(try s.text("lists/work.json"))
        #expect(after.count == before.count)
        let changed = zip(before, after).filter { $0 != $1 }
        #expect(changed.map(\.0) == ["  \"name\": \"Work\",", "  \"modifiedAt\": \"2026-11-21T09:00:00Z\","])
        #expect(changed.map(\.1) == ["  \"name\": \"Office\",", "  \"modifiedAt\": \"2026-11-22T10:00:00Z\","])
        // The task's own modifiedAt is untouched, and the list works under its new name.
        #expect(try s.tasks("lists/work.json").first?.string("modifiedAt") == pinnedNow)
        #expect(try s.json("list", "Office").titles == ["Task"])
        #expect(try s.json("list", "Office").first?.string("list") == "Office")
        // The slug still names it.
        #expect(try s.json("list", "work").titles == ["Task"])
    }

    @Test("rename refuses inbox, an existing name and unknown lists")
    func renameRefused() throws {
        let s = try Sandbox()
        try s.ok("lists", "add", "Work")
        try s.ok("lists", "add", "Home")
        let before = try s.fingerprint()
        let cases: [([String], Int32, String)] = [
            (["Work", "inbox"], 2, "tick: error: cannot use \"inbox\" as a list name: \"inbox\" is reserved for tasks in no list\n"),
            (["Work", "home"], 2, "tick: error: a list named \"home\" already exists\n"),
            (["Nope", "X"], 3, "tick: error: no list named \"Nope\"; known lists: Home, Work\n"),
        ]
        for (args, status, stderr) in cases {
            let r = try s.tick(["lists", "rename"] + args)
            #expect(r.status == status, "\(args)")
            #expect(r.stderr == stderr, "\(args)")
        }
        #expect(try s.fingerprint() == before)
    }

    @Test("lists rm without a terminal and without --yes refuses (exit 1); --yes deletes")
    func removeList() throws {
        let s = try Sandbox()
        try s.ok("lists", "add", "Errands")
        try s.add("Milk", "list:Errands")
        try s.add("Bread", "list:Errands")
        try s.ok("done", "2")
        let before = try s.fingerprint()
        let refused = try s.tick("lists", "rm", "Errands")
        #expect(refused.status == 1)
        #expect(refused.stderr == "tick: error: refusing to delete list Errands and its 2 task(s) without confirmation; pass --yes\n")
        #expect(try s.fingerprint() == before)
        #expect(s.exists("lists/errands.json"))

        let yes = try s.tick("lists", "rm", "errands", "--yes")
        #expect(yes.status == 0)
        #expect(yes.stdout == "Deleted list Errands (lists/errands.json) and its 2 tasks\n")
        #expect(!s.exists("lists/errands.json"))
        #expect(try s.json("list", "--all").isEmpty)
        // Its tasks' short ids are held for a day (CLI.md §7), then free again.
        #expect(try s.add("Next") == "3")
        #expect(try s.add("Later", now: "2026-11-22T10:00:00Z") == "1")

        let inbox = try s.tick("lists", "rm", "inbox", "--yes")
        #expect(inbox.status == 2)
        #expect(inbox.stderr == "tick: error: cannot use \"inbox\" as a list name: the inbox cannot be deleted\n")
        let missing = try s.tick("lists", "rm", "Nope", "-y")
        #expect(missing.status == 3)
    }

    @Test("two list files with the same name: the name is ambiguous (exit 3), the slug still works")
    func ambiguousListName() throws {
        let s = try Sandbox()
        try s.write("lists/work.json", #"{"name": "Work", "tasks": [{"title": "A"}]}"#)
        try s.write("lists/work-copy.json", #"{"name": "Work", "tasks": [{"title": "B"}]}"#)
        let before = try s.fingerprint()
        let r = try s.tick("add", "x", "list:Work")
        #expect(r.status == 3)
        #expect(r.stderr.contains("lists/work.json"))
        #expect(r.stderr.contains("lists/work-copy.json"))
        #expect(try s.fingerprint() == before)
        #expect(try s.json("list", "work-copy").titles == ["B"])
        #expect(try s.json("list", "work").titles == ["A"])
    }

    @Test("lists shows open, active, overdue and done counts")
    func counts() throws {
        let s = try Sandbox()
        try s.ok("lists", "add", "Work", "--color", "#3b82f6")
        try s.add("Inbox overdue", "due:yesterday")
        try s.add("Inbox open")
        try s.add("Inbox done")
        try s.add("W1", "list:Work", "due:2026-11-01")
        try s.add("W2", "list:Work", "due:2026-11-02")
        try s.add("W3", "list:Work")
        try s.ok("done", "3")
        try s.ok("start", "5", "6")

        let text = try s.ok("lists")
        #expect(text == """
        NAME    OPEN  ACTIVE  OVERDUE   DONE  FILE
        Inbox      2       0       !1      1  inbox.json
        Work       1       2       !2      0  lists/work.json

        """)
        let json = try s.json("lists")
        #expect(json.count == 2)
        let inbox = try #require(json.first)
        #expect(inbox.string("name") == "Inbox")
        #expect(inbox.string("file") == "inbox.json")
        #expect(inbox.isNull("color"))
        #expect([inbox.int("open"), inbox.int("active"), inbox.int("overdue"), inbox.int("done")] == [2, 0, 1, 1])
        let work = try #require(json.last)
        #expect(work.string("name") == "Work")
        #expect(work.string("file") == "lists/work.json")
        #expect(work.string("color") == "#3b82f6")
        #expect(work.string("id") == (try s.file("lists/work.json").string("id")))
        #expect([work.int("open"), work.int("active"), work.int("overdue"), work.int("done")] == [1, 2, 2, 0])
        // `lists show` is the same as `lists`.
        #expect(try s.ok("lists", "show") == text)
    }
}
