import Foundation
import Testing

/// Hand edits are stamped the first time tick sees them, before the file can
/// travel (issue 33, class 6; Docs/MERGE.md §17, §18): by `tick watch` as soon
/// as it sees the file change, by `tick sync` before it commits, and by
/// `tick resolve` in a Syncthing conflict copy.
@Suite struct HandEditSyncE2ETests {
    static let t1 = "2026-11-21T10:00:00Z", t3 = "2026-11-21T12:00:00Z"
    /// When the editor saved (after tick's last write, at the pinned clock).
    static let editedAt = "2026-11-21T11:20:00Z"
    static let editedSeconds: TimeInterval = 1_795_260_000

    static func changed(_ task: [String: Any]?) -> [String: String] {
        (task?["changed"] as? [String: String]) ?? [:]
    }

    /// Saves `text` as `relative` the way an editor does (a temp file renamed
    /// over it), with the mtime of the save already set when it appears.
    static func editorSave(_ s: Sandbox, _ relative: String, _ text: String) throws {
        let tmp = s.root + "/io/editor-save"
        try Data(text.utf8).write(to: URL(fileURLWithPath: tmp))
        try setMtime(tmp, editedSeconds)
        #expect(rename(tmp, s.path(relative)) == 0)
    }

    #if os(Linux)
    @Test("tick watch stamps a hand edit as soon as it sees it, writes it back once, and leaves a file it cannot parse alone")
    func watchStampsAtOnce() throws {
        let s = try Sandbox()
        try s.add("Call the bank", now: Self.t1)
        let w = try s.startWatcher()
        defer { _ = w.stop() }
        let mark = w.mark
        try Self.editorSave(s, "inbox.json", try s.text("inbox.json").replacingOccurrences(of: "Call the bank", with: "Call the bank about the card"))
        let line = w.waitFor("stamped hand edits in inbox.json", after: mark, timeout: 10)
        #expect(line == "stamped hand edits in inbox.json (1 task)", "\(w.messages(after: mark))")
        let task = try s.tasks("inbox.json").first
        #expect(task?.string("title") == "Call the bank about the card")
        #expect(Self.changed(task) == ["title": Self.editedAt])
        #expect(task?.string("modifiedAt") == Self.editedAt)

        // Its own write is not stamped again: a later event finds one stamp line only.
        try s.write("lists/home.json", "{\"name\": \"Home\", \"tasks\": []}\n")
        #expect(w.waitFor("reindexed lists/home.json", after: mark, timeout: 10) != nil)
        #expect(w.messages(after: mark).filter { $0.hasPrefix("stamped") }.count == 1, "\(w.messages(after: mark))")

        // A file tick cannot parse is never rewritten.
        let broken = "{\"name\": \"Inbox\", \"tasks\": [\n"
        let brokenMark = w.mark
        try s.write("inbox.json", broken)
        #expect(w.waitForMessage(after: brokenMark, timeout: 10) { $0.hasPrefix("error:") && $0.contains("inbox.json") } != nil)
        #expect(try s.text("inbox.json") == broken)
    }
    #endif

    @Test("tick sync stamps a hand edit before it commits it, so the other machine gets the change time")
    func syncStampsBeforeCommit() throws {
        let m = try GitMachines { s in
            try s.ok("lists", "add", "Work")
            try s.add("Call the bank", "list:Work")
        }
        let (a, b) = (m.a, m.b)
        try Self.editorSave(a, "lists/work.json", try a.text("lists/work.json").replacingOccurrences(of: "Call the bank", with: "Call the bank about the card"))
        let ra = try a.tick("sync", now: Self.t3)
        #expect(ra.status == 0, "\(ra)")
        let committed = try a.git("show", "HEAD:lists/work.json").stdout
        #expect(committed.contains("\"title\": \"\(Self.editedAt)\""), "\(committed)")
        #expect(try a.git("status", "--porcelain").stdout == "", "the stamped file is what was committed")

        let rb = try b.tick("sync", now: Self.t3)
        #expect(rb.status == 0, "\(rb)")
        let task = try b.tasks("lists/work.json").first
        #expect(task?.string("title") == "Call the bank about the card")
        #expect(Self.changed(task) == ["title": Self.editedAt])
    }

    @Test("tick resolve keeps a hand edit in the Syncthing conflict copy: it is a change made after tick's last write, not noise")
    func resolveKeepsHandEditedCopy() throws {
        let a = try Sandbox()
        try a.ok("lists", "add", "Work")
        for t in ["T1", "T2", "T3"] { try a.add(t, "list:Work") }
        let base = try a.text("lists/work.json")
        let b = try Sandbox()
        try b.write("lists/work.json", base)
        try b.add("Remote", "list:Work", now: Self.t1)
        // Here T2 was renamed in an editor; Syncthing then put b's version in
        // place and renamed the edited file to the conflict copy.
        let copy = "lists/work.sync-conflict-20261121-112000-ABCDEF7.json"
        try Self.editorSave(a, copy, base.replacingOccurrences(of: "\"T2\"", with: "\"T2 renamed by hand\""))
        try a.write("lists/work.json", try b.text("lists/work.json"))

        let r = try a.tick("resolve", now: Self.t3)
        #expect(r.status == 0, "\(r)")
        #expect(!a.exists(copy))
        let tasks = try a.tasks("lists/work.json")
        #expect(tasks.compactMap { $0.string("title") } == ["T1", "T2 renamed by hand", "T3", "Remote"])
        #expect(Self.changed(tasks.task("T2 renamed by hand")) == ["title": Self.editedAt])
    }
}
