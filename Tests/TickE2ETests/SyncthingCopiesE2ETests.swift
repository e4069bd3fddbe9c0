import Foundation
import Testing

/// Syncthing conflict copies on three machines (issue 44; Docs/MERGE.md §17,
/// §18) against the built binary. No Syncthing runs: a conflict copy is a
/// file named as Syncthing names it, every version has the mtime Syncthing
/// would give it (it keeps the mtime of the version it carries), and each
/// machine's clock is pinned with `TICK_NOW`.
@Suite struct SyncthingCopiesE2ETests {
    /// Seconds since 1970 of an ISO 8601 instant (for mtimes).
    static func seconds(_ iso: String) throws -> TimeInterval {
        try #require(ISO8601DateFormatter().date(from: iso)).timeIntervalSince1970
    }

    /// Writes `text` as `relative` in `s`'s store with the mtime `at`.
    static func put(_ s: Sandbox, _ relative: String, _ text: String, at: String) throws {
        try s.write(relative, text)
        try setMtime(s.path(relative), try seconds(at))
    }

    static func changed(_ task: [String: Any]?) -> [String: String] {
        (task?["changed"] as? [String: String]) ?? [:]
    }

    @Test("a conflict copy from another machine, holding that machine's old title, is not stamped as a hand edit: resolve keeps the real edit, two machines write the same bytes, and the edit's own stamp wins when it arrives")
    func foreignCopyIsNotStamped() throws {
        // X makes the list at 09:00 (tick's written copy of it: 09:00).
        let x = try Sandbox()
        try x.ok("lists", "add", "Work", now: "2026-11-21T09:00:00Z")
        try x.add("Draft report", "list:Work", now: "2026-11-21T09:00:00Z")
        try x.add("Other", "list:Work", now: "2026-11-21T09:00:00Z")
        let base = try x.text("lists/work.json")
        // M renames the report in an editor; its tick has not seen it, and its
        // clock runs behind: the save's mtime is 08:50.
        let renamed = base.replacingOccurrences(of: "\"Draft report\"", with: "\"Final report\"")
        #expect(renamed != base)

        // X receives M's version: older than its own last write of the file, so
        // it is not an edit made here (MERGE.md §17): seen, unstamped.
        try Self.put(x, "lists/work.json", renamed, at: "2026-11-21T08:50:00Z")
        #expect(try x.tick("resolve", now: "2026-11-21T09:25:00Z").stdout == "No conflicts to resolve\n")
        #expect((Self.changed(try x.tasks("lists/work.json").task("Final report"))["title"] ?? "2026-11-21T09:00:00Z") == "2026-11-21T09:00:00Z")
        // Y gets the list first as M's version, and sees it at 09:45.
        let y = try Sandbox()
        try Self.put(y, "lists/work.json", renamed, at: "2026-11-21T08:50:00Z")
        #expect(try y.tick("resolve", now: "2026-11-21T09:45:00Z").status == 0)

        // Z had X's first version and noted Other with tick at 09:40.
        let z = try Sandbox()
        try Self.put(z, "lists/work.json", base, at: "2026-11-21T09:00:00Z")
        try z.ok("edit", try z.uuidPrefix("Other"), "--note", "from Z", now: "2026-11-21T09:40:00Z")
        let fromZ = try z.text("lists/work.json")
        #expect(fromZ.contains("\"Draft report\""))

        // X renames Other in an editor at 09:50. Syncthing meets the two versions:
        // X's (09:50) is newer and wins; Z's becomes the conflict copy, on X and on Y.
        let fromX = renamed.replacingOccurrences(of: "\"title\": \"Other\"", with: "\"title\": \"Other, renamed\"")
        #expect(fromX != renamed)
        let copy = "lists/work.sync-conflict-20261121-100000-ZZZZZZZ.json"
        for m in [x, y] {
            try Self.put(m, "lists/work.json", fromX, at: "2026-11-21T09:50:00Z")
            try Self.put(m, copy, fromZ, at: "2026-11-21T09:40:00Z")
            let r = try m.tick("resolve", now: "2026-11-21T10:10:00Z")
            #expect(r.status == 0, "\(r)")
            #expect(r.stdout.contains("Merged the Syncthing conflict copy"), "\(r.stdout)")
            #expect(!m.exists(copy))
        }
        // The copy is Z's (its note carries a stamp X never wrote): Z's old title is
        // not a hand edit made at the copy's mtime. Stamped as one (the rule before
        // issue 44), it beat the rename on X, which took the copy for its own
        // replaced version, and X and Y wrote different bytes.
        #expect(try x.bytes("lists/work.json") == y.bytes("lists/work.json"), "the same versions merge to the same bytes")
        let tasks = try x.tasks("lists/work.json")
        #expect(tasks.titles == ["Final report", "Other, renamed"])
        #expect((Self.changed(tasks.task("Final report"))["title"] ?? "2026-11-21T09:00:00Z") == "2026-11-21T09:00:00Z",
                "an old value nobody edited got no new change time (not the copy's mtime, 09:40)")
        let other = tasks.task("Other, renamed")
        #expect(other?.string("notes") == "from Z")
        #expect(Self.changed(other)["title"] == "2026-11-21T09:50:00Z", "X's own hand edit, stamped at its save")

        // M's tick then stamps the rename; its version reaches X as another conflict
        // copy (X's merged file is newer). The real edit keeps its title, now stamped.
        let m = try Sandbox()
        try Self.put(m, "lists/work.json", base, at: "2026-11-21T08:30:00Z")
        #expect(try m.tick("resolve", now: "2026-11-21T08:30:00Z").status == 0)
        try Self.put(m, "lists/work.json", renamed, at: "2026-11-21T08:50:00Z")
        #expect(try m.tick("resolve", now: "2026-11-21T08:55:00Z").status == 0)
        let stamp = try #require(Self.changed(try m.tasks("lists/work.json").task("Final report"))["title"], "M stamps its own hand edit")
        let second = "lists/work.sync-conflict-20261121-102000-MMMMMMM.json"
        try Self.put(x, second, try m.text("lists/work.json"), at: "2026-11-21T08:55:00Z")
        #expect(try x.tick("resolve", now: "2026-11-21T10:20:00Z").status == 0)
        let report = try x.tasks("lists/work.json").task("Final report")
        #expect(report != nil, "the real edit stays")
        #expect(Self.changed(report)["title"] == stamp)
    }

    @Test("an unstamped hand edit of an archived task survives the join with an older list file that still holds the task")
    func archivedHandEditSurvivesTheJoin() throws {
        let s = try Sandbox()
        try s.ok("lists", "add", "Work", now: "2026-11-19T08:00:00Z")
        try s.add("Write report", "list:Work", now: "2026-11-19T08:00:00Z")
        try s.add("Other", "list:Work", now: "2026-11-19T08:00:00Z")
        let id = try #require(try s.tasks("lists/work.json").task("Write report")?.string("id"))
        try s.ok("done", String(id.prefix(8)), now: "2026-11-20T10:00:00Z")
        // Another machine's lists/work.json from before the archive: it still holds the done task.
        let older = try s.text("lists/work.json")
        #expect(try s.tick("archive", "--yes", now: "2026-11-21T09:00:00Z").status == 0)
        #expect(try s.tasks("archive/2026.json").titles == ["Write report"])
        #expect(try s.tasks("lists/work.json").titles == ["Other"])

        // The title edited by hand in the archive file at 09:20; no tick has seen it.
        let archive = try s.text("archive/2026.json")
        let edited = archive.replacingOccurrences(of: "\"Write report\"", with: "\"Draft report\"")
        #expect(edited != archive)
        try Self.put(s, "archive/2026.json", edited, at: "2026-11-21T09:20:00Z")
        // The older list file arrives (saved before tick's last write of it here).
        try Self.put(s, "lists/work.json", older, at: "2026-11-20T10:00:00Z")

        let r = try s.tick("resolve", now: "2026-11-21T09:30:00Z")
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("Joined 1 task"), "\(r.stdout)")
        // The edit is stamped before the join plans: planned from the unstamped file,
        // the list's older title won by value order ("Write report" sorts last).
        let task = try s.tasks("archive/2026.json").first { $0.string("id") == id }
        #expect(task?.string("title") == "Draft report", "the hand edit stays")
        #expect(Self.changed(task)["title"] == "2026-11-21T09:20:00Z")
        #expect(task?.string("state") == "done")
        #expect(try s.tasks("lists/work.json").titles == ["Other"], "the task stays archived, once")
    }
}
