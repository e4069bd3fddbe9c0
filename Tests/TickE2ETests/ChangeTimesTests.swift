import Foundation
import Testing

/// Per-field change times end to end: what the CLI stamps, hand edits, a task
/// left in two lists, and the watcher merging Syncthing conflict copies.
@Suite struct ChangeTimesTests {
    static let t1 = "2026-11-21T10:00:00Z", t2 = "2026-11-21T11:00:00Z", t3 = "2026-11-21T12:00:00Z"

    static func changed(_ task: [String: Any]?) -> [String: String] {
        (task?["changed"] as? [String: String]) ?? [:]
    }

    @Test("a field edited by hand gets the file's mtime as its change time on tick's next write")
    func handEditIsStamped() throws {
        let s = try Sandbox()
        try s.add("Call the bank", now: Self.t1)
        // tick has written the inbox; now an editor renames the task.
        let text = try s.text("inbox.json").replacingOccurrences(of: "Call the bank", with: "Call the bank about the card")
        try s.write("inbox.json", text)
        try setMtime(s.path("inbox.json"), 1_795_260_000)   // 2026-11-21T11:20:00Z
        try s.ok("edit", "1", "due:2026-11-30", now: Self.t3)
        let task = try s.tasks("inbox.json").first
        #expect(task?.string("title") == "Call the bank about the card")
        #expect(Self.changed(task) == ["title": "2026-11-21T11:20:00Z", "due": Self.t3])
    }

    @Test("a task left in two lists (an interrupted mv, or a move merged file by file) is joined by tick resolve")
    func twoListsJoined() throws {
        let s = try Sandbox()
        try s.ok("lists", "add", "Work")
        try s.add("Renew passport", "list:Work", now: Self.t1)
        let work = try s.text("lists/work.json")
        try s.ok("mv", "1", "inbox", now: Self.t2)
        // The other machine renamed it in Work before it saw the move; a file merge kept that copy.
        let renamed = work.replacingOccurrences(of: "\"title\": \"Renew passport\"", with: "\"title\": \"Renew the passport\"")
            .replacingOccurrences(of: "\"modifiedAt\": \"\(Self.t1)\"", with: "\"modifiedAt\": \"2026-11-21T10:30:00Z\",\n      \"changed\": {\n        \"title\": \"2026-11-21T10:30:00Z\"\n      }")
        try s.write("lists/work.json", renamed)
        #expect(try s.tasks("lists/work.json").count == 1 && s.tasks("inbox.json").count == 1)

        let r = try s.tick("resolve")
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.hasPrefix("Joined 1 task found in more than one list"), "\(r.stdout)")
        #expect(!r.stdout.contains("passport"), "ids, not titles")
        #expect(try s.tasks("lists/work.json").isEmpty)
        let task = try s.tasks("inbox.json").first
        #expect(task?.string("title") == "Renew the passport")
        #expect(Self.changed(task) == ["title": "2026-11-21T10:30:00Z", "list": Self.t2])
        #expect(try s.tick("resolve").stdout == "No conflicts to resolve\n")
    }

    @Test("a task in two files (an interrupted mv): status reports it, a UUID prefix picks it, and the next write joins it")
    func interruptedMoveIsHealedByTheNextWrite() throws {
        let s = try Sandbox()
        try s.ok("lists", "add", "Work")
        try s.add("Renew passport", "list:Work", now: Self.t1)
        let work = try s.text("lists/work.json")
        try s.ok("mv", "1", "inbox", now: Self.t2)
        // kill -9 between the two writes of mv: the destination is written, the source still has the task.
        try s.write("lists/work.json", work)
        let id = try #require(try s.tasks("inbox.json").first?.string("id"))
        let status = try s.tick("status")
        #expect(status.stdout.contains("1 in more than one list"), "\(status.stdout)")
        #expect(status.stdout.contains(String(id.prefix(8))), "\(status.stdout)")
        #expect(try s.statusJSON()["inSeveralLists"] as? [String] == [id])
        // Listings show it once, in the list the move put it in.
        let listed = try s.json("list", "--all")
        #expect(listed.count == 1, "\(listed)")
        #expect(listed.first?["list"] is NSNull, "in the inbox: \(listed)")

        // A UUID prefix names the task, not "matches 2 tasks"; the write joins the copies first.
        let done = try s.tick("done", String(id.prefix(8)), now: Self.t3)
        #expect(done.status == 0, "\(done)")
        #expect(try s.tasks("lists/work.json").isEmpty)
        let task = try s.tasks("inbox.json").first
        #expect(task?.string("state") == "done")
        #expect(Self.changed(task)["list"] == Self.t2)
        #expect(try s.statusJSON()["inSeveralLists"] as? [String] == [])
    }

    @Test("resolve names each field where a later change replaced the other machine's")
    func overridesAreReported() throws {
        let s = try Sandbox()
        try s.ok("lists", "add", "Work")
        try s.add("Book flights", "list:Work", now: Self.t1)
        let start = try s.text("lists/work.json")
        try s.ok("edit", "1", "--title", "Book flights to Lisbon", now: Self.t3)
        // The other machine's version: renamed earlier, and a due date.
        let theirs = start.replacingOccurrences(of: "\"title\": \"Book flights\"", with: "\"title\": \"Book the train\"")
            .replacingOccurrences(of: "\"modifiedAt\": \"\(Self.t1)\"", with: "\"due\": \"2026-12-01\",\n      \"modifiedAt\": \"\(Self.t2)\",\n      \"changed\": {\n        \"title\": \"\(Self.t2)\",\n        \"due\": \"\(Self.t2)\"\n      }")
        try s.write("lists/work.sync-conflict-20261121-110000-ABCDEF7.json", theirs)
        let id = try #require(try s.tasks("lists/work.json").first?.string("id"))
        let r = try s.tick("resolve")
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("the later change was kept: \(id.prefix(8)) title"), "\(r.stdout)")
        let task = try s.tasks("lists/work.json").first
        #expect(task?.string("title") == "Book flights to Lisbon")
        #expect(task?.string("due") == "2026-12-01")
        // The replaced value is kept outside the store.
        let kept = try FileManager.default.subpathsOfDirectory(atPath: s.stateHome).filter { $0.contains("/resolved/") }
        #expect(kept.count == 1, "\(kept)")
        let copy = try String(contentsOfFile: s.stateHome + "/" + (kept.first ?? ""), encoding: .utf8)
        #expect(copy.contains("Book the train"))
        #expect(r.stdout.contains("the versions merged away are kept in \(s.stateHome)/tick/"), "\(r.stdout)")
    }

    #if os(Linux)
    @Test("tick watch merges a Syncthing conflict copy as it arrives, keeping both machines' fields")
    func watcherResolvesCopies() throws {
        let s = try Sandbox()
        try s.ok("lists", "add", "Work")
        try s.add("Call Anna", "list:Work", now: Self.t1)
        let start = try s.text("lists/work.json")
        try s.ok("edit", "1", "--title", "Call Anna today", now: Self.t2)
        let w = try s.startWatcher()
        defer { _ = w.stop() }
        let mark = w.messages.count
        let theirs = start.replacingOccurrences(of: "\"modifiedAt\": \"\(Self.t1)\"",
                                                with: "\"modifiedAt\": \"\(Self.t3)\",\n      \"changed\": {\n        \"+phone\": \"\(Self.t3)\"\n      }")
            .replacingOccurrences(of: "\"state\": \"open\",", with: "\"state\": \"open\",\n      \"tags\": [\"phone\"],")
        try s.write("lists/work.sync-conflict-20261121-120000-ABCDEF7.json", theirs)
        let line = w.waitForMessage(after: mark, timeout: 10) { $0.contains("merged lists/work.sync-conflict-20261121-120000-ABCDEF7.json") }
        #expect(line != nil, "\(w.messages)")
        #expect(line.map { !$0.contains("Anna") } ?? true, "the log carries no titles")
        #expect(!s.exists("lists/work.sync-conflict-20261121-120000-ABCDEF7.json"))
        let task = try s.tasks("lists/work.json").first
        #expect(task?.string("title") == "Call Anna today")
        #expect(task?.tagList == ["phone"])
    }

    @Test("with [sync] auto-resolve = false the watcher leaves conflict copies alone")
    func watcherAutoResolveOff() throws {
        let s = try Sandbox()
        try FileManager.default.createDirectory(atPath: s.home + "/.config/tick", withIntermediateDirectories: true)
        try Data("[sync]\nauto-resolve = false\n".utf8).write(to: URL(fileURLWithPath: s.home + "/.config/tick/config.toml"))
        try s.ok("lists", "add", "Work")
        try s.add("Call Anna", "list:Work", now: Self.t1)
        let w = try s.startWatcher()
        defer { _ = w.stop() }
        let mark = w.messages.count
        try s.write("lists/work.sync-conflict-20261121-120000-ABCDEF7.json", try s.text("lists/work.json"))
        // Wait for an event that proves the watcher saw the store change: a reindex of a touched list.
        try s.write("lists/home.json", "{\"name\": \"Home\", \"tasks\": []}\n")
        #expect(w.waitFor("reindexed lists/home.json", after: mark, timeout: 10) != nil)
        #expect(s.exists("lists/work.sync-conflict-20261121-120000-ABCDEF7.json"))
    }
    #endif
}
