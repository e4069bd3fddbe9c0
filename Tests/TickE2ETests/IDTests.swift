import Foundation
import Testing

/// Short ids (machine-local numbers) and UUID prefixes.
@Suite("task ids")
struct IDTests {
    /// shortId by title, from `tick list --all --json`.
    static func shortIDs(_ s: Sandbox) throws -> [String: Int?] {
        var out: [String: Int?] = [:]
        for t in try s.json("list", "--all") {
            out[t.string("title") ?? "?"] = t.int("shortId")
        }
        return out
    }

    @Test("short ids are stable across listings; a done or deleted task keeps its number for 24 hours, then the smallest free number is reused")
    func shortIDStability() throws {
        let s = try Sandbox()
        try s.ok("lists", "add", "Work")
        #expect(try s.add("A") == "1")
        #expect(try s.add("B", "list:Work") == "2")
        #expect(try s.add("C", "due:today") == "3")
        let first = try Self.shortIDs(s)
        #expect(first == ["A": 1, "B": 2, "C": 3])
        // Every view agrees, and asking again changes nothing.
        _ = try s.ok("today")
        _ = try s.ok("list", "Work")
        #expect(try Self.shortIDs(s) == first)
        #expect(try s.json("today").first?.int("shortId") == 3)
        #expect(try s.json("list", "Work").first?.int("shortId") == 2)

        #expect(try s.ok("done", "1") == "Completed 1 (\(try s.uuidPrefix("A"))): A\n")
        // The number still names A (done) for a day: completing it again changes nothing.
        #expect(try s.ok("done", "1") == "\(try s.uuidPrefix("A")) was already done: A\n")
        #expect(try s.showJSON("1").string("title") == "A")
        // Listings show done tasks without a number, as before.
        #expect(try Self.shortIDs(s) == ["A": nil, "B": 2, "C": 3])

        // A new task does not get A's number while A holds it.
        #expect(try s.add("D") == "4")
        // Deleting holds the number too.
        try s.ok("rm", "2")
        #expect(try s.add("E") == "5")
        #expect(try s.tick("show", "2").status == 3, "a deleted task's number names nothing")
        #expect(try s.showJSON("3").string("title") == "C")

        // 24 hours after A was done (TICK_NOW), its number and B's are free again, smallest first.
        let later = "2026-11-22T09:30:00Z"
        #expect(try s.add("F", now: later) == "1")
        #expect(try s.add("G", now: later) == "2")
        #expect(try s.showJSON("1").string("title") == "F")

        // Reopening after the grace period gives the task a number again (the smallest free one).
        let idA = try #require(try s.tasks("inbox.json").task("A")?.string("id"))
        try s.ok("reopen", String(idA.prefix(8)), now: later)   // 8 hex digits: a prefix whatever letters a random UUID starts with
        #expect(try Self.shortIDs(s)["A"] == 6)
    }

    @Test("issue 13: `done 1; add Call dentist; done 1` leaves the new task open, and `reopen 20` right after `done 20` works")
    func freedNumbersAreNotReusedAtOnce() throws {
        let s = try Sandbox()
        let input = (1...20).map { "task \($0)" }.joined(separator: "\n") + "\n"
        #expect(try s.tick("add", "-", stdin: input).status == 0)
        #expect(try s.showJSON("20").string("title") == "task 20")

        try s.ok("done", "1")
        let dentist = try s.add("Call", "dentist")
        #expect(dentist != "1")
        let again = try s.tick("done", "1")
        #expect(again.status == 0, "\(again)")
        #expect(again.stdout.contains("was already done: task 1"), "\(again.stdout)")
        let tasks = try s.tasks("inbox.json")
        #expect(tasks.task("Call dentist")?.string("state") == "open")
        #expect(tasks.task("task 1")?.string("state") == "done")

        try s.ok("done", "20")
        let reopened = try s.tick("reopen", "20")
        #expect(reopened.status == 0, "\(reopened)")
        #expect(try s.tasks("inbox.json").task("task 20")?.string("state") == "open")
        // It keeps its number.
        #expect(try Self.shortIDs(s)["task 20"] == 20)
        #expect(try s.showJSON("20").string("title") == "task 20")
    }

    @Test("short ids live under $XDG_STATE_HOME/tick/<store-key>/ with the lock; the index under $XDG_CACHE_HOME; nothing in the store")
    func shortIDsOutsideStore() throws {
        let s = try Sandbox()
        try s.add("A")
        #expect(s.storeFiles() == ["inbox.json"])
        let key = "store-" + fnv1a64Hex(Array(s.store.utf8))
        let stateFiles = try FileManager.default.contentsOfDirectory(atPath: s.stateHome + "/tick/" + key).sorted()
        #expect(stateFiles.contains("store.lock"))
        #expect(stateFiles.contains("short-ids.sqlite"))
        #expect(FileManager.default.fileExists(atPath: s.cacheHome + "/tick/" + key + "/index.sqlite"))
        let index = s.stateHome + "/tick/" + key + "/short-ids.sqlite"
        let taskID = try #require(try s.tasks("inbox.json").first?.string("id"))
        let sqlite = Process()
        sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        sqlite.arguments = ["sqlite3", index, "SELECT n FROM short_ids WHERE id = '\(taskID)'"]
        let pipe = Pipe()
        sqlite.standardOutput = pipe
        try sqlite.run()
        sqlite.waitUntilExit()
        #expect(String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) == "1\n")
        #expect(try s.text("inbox.json").contains("shortId") == false)
    }

    @Test("separate state homes (machines) have separate short-id tables for the same store")
    func machineLocal() throws {
        let s = try Sandbox()
        try s.add("A")
        try s.add("B")
        try s.ok("done", "1")
        // Another "machine": a fresh state directory numbers the pending tasks from 1.
        let r = try s.tick("list", "--json", env: ["XDG_CACHE_HOME": s.root + "/cache2", "XDG_STATE_HOME": s.root + "/state2"])
        let list = try #require(try JSONSerialization.jsonObject(with: r.stdoutData) as? [[String: Any]])
        #expect(list.map { $0.int("shortId") } == [1])
        #expect(list.titles == ["B"])
        #expect(try s.json("list").map { $0.int("shortId") } == [2])
    }

    @Test("a deleted cache (or a rebuilt index) keeps every short id: `done 3` after `rm -rf ~/.cache/tick` completes the task listed as 3")
    func cacheDeletedKeepsNumbers() throws {
        let s = try Sandbox()
        for title in ["A", "B", "C", "D"] { try s.add(title) }
        try s.ok("done", "1")
        func pending() throws -> [String: Int] { try Self.shortIDs(s).compactMapValues { $0 } }
        #expect(try pending() == ["B": 2, "C": 3, "D": 4])
        try FileManager.default.removeItem(atPath: s.cacheHome + "/tick")
        // A fresh index would number B, C, D as 1, 2, 3.
        #expect(try pending() == ["B": 2, "C": 3, "D": 4])
        try FileManager.default.removeItem(atPath: s.cacheHome + "/tick")
        try s.ok("done", "3")
        #expect(try s.showJSON("3").string("title") == "C")
        #expect(try s.showJSON("3").string("state") == "done")
        // Deleted between two commands of one script: the new task gets a
        // free number (1 and 3 are held for a day), the others keep theirs.
        try FileManager.default.removeItem(atPath: s.cacheHome + "/tick")
        let added = try s.ok("add", "E").trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(added == "5")
        #expect(try pending() == ["B": 2, "D": 4, "E": 5])
        try s.ok("reindex")
        #expect(try pending() == ["B": 2, "D": 4, "E": 5])
    }

    @Test("8+ hex digits of the UUID, or 4+ with a digit and a letter, select a task; dashes and case do not matter")
    func uuidPrefix() throws {
        let s = try Sandbox()
        try s.write("lists/extra.json", """
        {"name": "Extra", "tasks": [
          {"id": "aaaa1111-0000-4000-8000-000000000001", "title": "T1"},
          {"id": "aaaa2222-0000-4000-8000-000000000002", "title": "T2"},
          {"id": "bbbb3333-0000-4000-8000-000000000003", "title": "T3"}
        ]}
        """)
        #expect(try s.showJSON("bbbb3").string("title") == "T3")
        // Four letters alone are a word, not an id (as in a filter).
        let word = try s.tick("show", "bbbb")
        #expect(word.status == 3)
        #expect(word.stderr.hasPrefix("tick: error: no task with id \"bbbb\""))
        #expect(try s.showJSON("AAAA1").string("title") == "T1")
        #expect(try s.showJSON("aaaa2222-0000").string("title") == "T2")
        #expect(try s.showJSON("aaaa22220000").string("title") == "T2")

        let short = try s.tick("show", "aaa")
        #expect(short.status == 3)
        #expect(short.stderr.hasPrefix("tick: error: no task with id \"aaa\""))
    }

    @Test("an ambiguous prefix is exit 3 and lists every candidate")
    func ambiguousPrefix() throws {
        let s = try Sandbox()
        try s.write("lists/extra.json", """
        {"name": "Extra", "tasks": [
          {"id": "a1aa1111-0000-4000-8000-000000000001", "title": "T1"},
          {"id": "a1aa2222-0000-4000-8000-000000000002", "title": "T2"}
        ]}
        """)
        try setMtime(s.path("lists/extra.json"), 1_000_000_000)
        let before = try s.fingerprint()
        let r = try s.tick("done", "a1aa")
        #expect(r.status == 3)
        #expect(r.stdout == "")
        #expect(r.stderr == """
        tick: error: "a1aa" matches 2 tasks; give more of the UUID:
          a1aa1111-0000-4000-8000-000000000001  [1] Extra: T1
          a1aa2222-0000-4000-8000-000000000002  [2] Extra: T2

        """)
        #expect(try s.fingerprint() == before, "nothing is written")
        // One of several ids bad: nothing is done.
        let mixed = try s.tick("done", "a1aa1", "99")
        #expect(mixed.status == 3)
        #expect(try s.fingerprint() == before)
    }
}
