import Foundation
import Testing

/// `tick resolve`: Syncthing conflict copies (named exactly as Syncthing names
/// them) and files with git conflict markers, merged into the store.
@Suite("tick resolve")
struct ResolveTests {
    static let atA = "2026-11-21T10:00:00Z"
    static let atB = "2026-11-21T10:30:00Z"
    static let atC = "2026-11-21T10:45:00Z"
    static let copyB = "lists/work.sync-conflict-20261121-093512-ABCDEF7.json"
    static let copyC = "lists/work.sync-conflict-20261121-101500-CCCCCC2.json"

    /// This device (`a`) with list Work (T1..T3), and other devices that start
    /// from the same file (as Syncthing would have copied it).
    static func devices(_ others: Int = 1) throws -> (Sandbox, [Sandbox]) {
        let a = try Sandbox()
        try a.ok("lists", "add", "Work")
        for t in ["T1", "T2", "T3"] { try a.add(t, "list:Work") }
        let base = try a.text("lists/work.json")
        let rest = try (0..<others).map { _ in
            let s = try Sandbox()
            try s.write("lists/work.json", base)
            return s
        }
        return (a, rest)
    }

    static func id(_ s: Sandbox, _ title: String) throws -> String {
        try #require(try s.tasks("lists/work.json").task(title)?.string("id"))
    }

    /// `mine` with the blocks of `extra` tasks (from other files) appended.
    static func appending(_ mine: String, _ extra: [(file: String, id: String)]) throws -> String {
        let f = try CanonicalFile(mine)
        let blocks = try f.blocks.map(\.lines) + extra.map { try CanonicalFile($0.file).block($0.id) }
        return CanonicalFile.assemble(header: f.header, blocks: blocks, footer: f.footer)
    }

    @Test("a conflict copy is merged two-way into its file, written, then removed")
    func twoWay() throws {
        let (a, others) = try Self.devices()
        let b = others[0]
        try a.ok("done", try a.uuidPrefix("T1"), now: Self.atA)
        try b.add("Remote", "list:Work", now: Self.atB)
        let theirs = try b.text("lists/work.json")
        try a.write(Self.copyB, theirs)
        let mine = try a.text("lists/work.json")

        let r = try a.tick("resolve")
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout == """
        Merged the Syncthing conflict copy store/\(Self.copyB) into store/lists/work.json (two-way): 1 task added, 0 updated, 0 deleted, 1 conflict resolved
          removed the copy

        """)
        #expect(!r.stdout.contains("Remote"), "counts, not titles")
        // T1 stays done (the copy's T1 is older than the completion); Remote is added.
        #expect(try a.text("lists/work.json") == Self.appending(mine, [(theirs, try Self.id(b, "Remote"))]))
        #expect(!a.exists(Self.copyB))
        #expect(try a.tick("resolve").stdout == "No conflicts to resolve\n")
        #expect(try a.tasks("lists/work.json").titles == ["T1", "T2", "T3", "Remote"])
    }

    @Test("several copies of one file are all merged, oldest first")
    func severalCopies() throws {
        let (a, others) = try Self.devices(2)
        let (b, c) = (others[0], others[1])
        try a.ok("done", try a.uuidPrefix("T1"), now: Self.atA)
        try b.add("From B", "list:Work", now: Self.atB)
        try c.add("From C", "list:Work", now: Self.atC)
        let fromB = try b.text("lists/work.json"), fromC = try c.text("lists/work.json")
        try a.write(Self.copyC, fromC)
        try a.write(Self.copyB, fromB)
        let mine = try a.text("lists/work.json")

        let r = try a.tick("resolve")
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout == """
        Merged 2 Syncthing conflict copies into store/lists/work.json (two-way): 2 tasks added, 0 updated, 0 deleted, 2 conflicts resolved
          removed store/\(Self.copyB)
          removed store/\(Self.copyC)

        """)
        #expect(try a.text("lists/work.json") == Self.appending(mine, [(fromB, try Self.id(b, "From B")), (fromC, try Self.id(c, "From C"))]))
        #expect(!a.exists(Self.copyB) && !a.exists(Self.copyC))
    }

    @Test("--dry-run says what it would merge and changes nothing")
    func dryRun() throws {
        let (a, others) = try Self.devices()
        let b = others[0]
        try b.add("Remote", "list:Work", now: Self.atB)
        try a.write(Self.copyB, try b.text("lists/work.json"))
        let before = try a.fingerprint()
        let r = try a.tick("resolve", "--dry-run")
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout == """
        Would merge the Syncthing conflict copy store/\(Self.copyB) into store/lists/work.json (two-way): 1 task added, 0 updated, 0 deleted, 0 conflicts resolved
        Dry run: nothing was changed

        """)
        #expect(try a.fingerprint() == before)
    }

    @Test("a task deleted on purpose on this device is not brought back by an older copy (tombstone)")
    func tombstone() throws {
        let (a, others) = try Self.devices()
        let b = others[0]
        let t3 = try Self.id(a, "T3")
        try a.ok("rm", try a.uuidPrefix("T3"), now: Self.atA)
        let deleted = try #require(try a.file("lists/work.json")["deleted"] as? [[String: Any]])
        #expect(deleted.first?.string("id") == t3)
        try b.add("Remote", "list:Work", now: Self.atB)
        let theirs = try b.text("lists/work.json")
        #expect(try b.tasks("lists/work.json").titles == ["T1", "T2", "T3", "Remote"], "the copy still has T3")
        try a.write(Self.copyB, theirs)
        let mine = try a.text("lists/work.json")

        let r = try a.tick("resolve")
        #expect(r.status == 0, "\(r)")
        #expect(try a.text("lists/work.json") == Self.appending(mine, [(theirs, try Self.id(b, "Remote"))]))
        #expect(try a.tasks("lists/work.json").titles == ["T1", "T2", "Remote"])
        #expect((try a.file("lists/work.json")["deleted"] as? [[String: Any]])?.first?.string("id") == t3, "the tombstone stays")
    }

    @Test("a copy of the inbox (in the store root) merges into inbox.json")
    func inboxCopy() throws {
        let a = try Sandbox(), b = try Sandbox()
        try a.add("Mine")
        try b.write("inbox.json", try a.text("inbox.json"))
        try b.add("Theirs", now: Self.atB)
        let copy = "inbox.sync-conflict-20261121-093512-ABCDEF7.json"
        try a.write(copy, try b.text("inbox.json"))
        let r = try a.tick("resolve")
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.hasPrefix("Merged the Syncthing conflict copy store/\(copy) into store/inbox.json (two-way): 1 task added"), "\(r.stdout)")
        #expect(try a.tasks("inbox.json").titles == ["Mine", "Theirs"])
        #expect(!a.exists(copy))
    }

    @Test("a file with git conflict markers is merged (three-way with the diff3 base, two-way without)", arguments: [true, false])
    func gitMarkers(diff3: Bool) throws {
        let (a, others) = try Self.devices()
        let b = others[0]
        let base = try a.text("lists/work.json")
        try a.add("Alpha", "list:Work", now: Self.atA)
        try b.add("Beta", "list:Work", now: Self.atB)
        let mine = try a.text("lists/work.json"), theirs = try b.text("lists/work.json")
        // What `git merge` leaves in the work tree when the line merge conflicts.
        try Data(base.utf8).write(to: URL(fileURLWithPath: a.root + "/base.json"))
        try Data(theirs.utf8).write(to: URL(fileURLWithPath: a.root + "/theirs.json"))
        let merged = try a.run("/usr/bin/env", ["git", "merge-file", "-p"] + (diff3 ? ["--diff3"] : []) + [
            "-L", "HEAD", "-L", "merged common ancestors", "-L", "origin/main",
            a.path("lists/work.json"), a.root + "/base.json", a.root + "/theirs.json"])
        #expect(merged.status == 1, "one conflict: \(merged)")
        try a.write("lists/work.json", merged.stdout)
        #expect(try a.text("lists/work.json").contains("<<<<<<< HEAD\n"))
        #expect(try a.text("lists/work.json").contains("||||||| merged common ancestors\n") == diff3)

        // tick status sees it; the file is unreadable until resolved.
        let st = try a.statusJSON()
        let conflicts = try #require(st["conflicts"] as? [[String: Any]])
        #expect(conflicts.map { $0.string("path") } == ["lists/work.json"])
        #expect(try a.tick("status").stdout.contains("conflicts 1 pending (run `tick resolve`):\n          lists/work.json (git conflict markers)\n"))

        let r = try a.tick("resolve")
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout == "Merged store/lists/work.json (1 git conflict, \(diff3 ? "three-way" : "two-way")): 1 task added, 0 updated, 0 deleted, 0 conflicts resolved\n")
        #expect(try a.text("lists/work.json") == Self.appending(mine, [(theirs, try Self.id(b, "Beta"))]))
        #expect((try a.statusJSON()["conflicts"] as? [Any])?.isEmpty == true)
        #expect(try a.tasks("lists/work.json").titles == ["T1", "T2", "T3", "Alpha", "Beta"])
    }

    @Test("markers and a conflict copy of the same file: the markers first, then the copy (a dry run too)")
    func markersThenCopy() throws {
        let (a, others) = try Self.devices(2)
        let (b, c) = (others[0], others[1])
        let base = try a.text("lists/work.json")
        try a.add("Alpha", "list:Work", now: Self.atA)
        try b.add("Beta", "list:Work", now: Self.atB)
        try c.add("Gamma", "list:Work", now: Self.atC)
        try Data(base.utf8).write(to: URL(fileURLWithPath: a.root + "/base.json"))
        try Data(try b.text("lists/work.json").utf8).write(to: URL(fileURLWithPath: a.root + "/theirs.json"))
        let merged = try a.run("/usr/bin/env", ["git", "merge-file", "-p", a.path("lists/work.json"), a.root + "/base.json", a.root + "/theirs.json"])
        try a.write("lists/work.json", merged.stdout)
        try a.write(Self.copyC, try c.text("lists/work.json"))
        let before = try a.fingerprint()

        let dry = try a.tick("resolve", "--dry-run")
        #expect(dry.status == 0, "\(dry)")
        #expect(lines(dry.stdout) == [
            "Would merge store/lists/work.json (1 git conflict, two-way): 1 task added, 0 updated, 0 deleted, 0 conflicts resolved",
            "Would merge the Syncthing conflict copy store/\(Self.copyC) into store/lists/work.json (two-way): 1 task added, 0 updated, 0 deleted, 0 conflicts resolved",
            "Dry run: nothing was changed",
        ])
        #expect(try a.fingerprint() == before)

        let r = try a.tick("resolve")
        #expect(r.status == 0, "\(r)")
        #expect(try a.tasks("lists/work.json").titles == ["T1", "T2", "T3", "Alpha", "Beta", "Gamma"])
        #expect(!a.exists(Self.copyC))
    }

    @Test("a copy that cannot be parsed is reported with line and column and left alone (exit 4); the others are merged")
    func unparseableCopy() throws {
        let (a, others) = try Self.devices()
        let b = others[0]
        try b.add("Remote", "list:Work", now: Self.atB)
        try a.write(Self.copyB, "{\n  \"tasks\": [\n    {\"title\": \"x\" \"state\": \"open\"}\n  ]\n}\n")
        try a.write(Self.copyC, try b.text("lists/work.json"))

        // tick status lists both copies.
        let st = try a.statusJSON()
        let conflicts = try #require(st["conflicts"] as? [[String: Any]])
        #expect(conflicts.map { $0.string("path") } == [Self.copyB, Self.copyC])
        #expect(conflicts.allSatisfy { $0.string("type") == "sync-conflict-copy" && $0.string("file") == "lists/work.json" })

        let r = try a.tick("resolve")
        #expect(r.status == 4, "\(r)")
        #expect(r.stderr.hasPrefix("store/\(Self.copyB):3:19: error: "), "\(r.stderr)")
        #expect(r.stderr.contains("tick: error: 1 version could not be read and was left alone"), "\(r.stderr)")
        #expect(r.stdout.hasPrefix("Merged the Syncthing conflict copy store/\(Self.copyC) into store/lists/work.json (two-way): 1 task added"), "\(r.stdout)")
        #expect(a.exists(Self.copyB), "the unreadable copy is kept")
        #expect(!a.exists(Self.copyC))
        #expect(try a.tasks("lists/work.json").titles == ["T1", "T2", "T3", "Remote"])
    }

    @Test("markers whose versions cannot be parsed are reported at the file's line, and nothing is written")
    func unparseableMarkers() throws {
        let a = try Sandbox()
        let text = """
        {
          "tasks": [
        <<<<<<< ours
            {"title": "ours"}
        =======
            {"title": "theirs"
        >>>>>>> theirs
          ]
        }

        """
        try a.write("inbox.json", text)
        let r = try a.tick("resolve")
        #expect(r.status == 4, "\(r)")
        #expect(r.stderr.hasPrefix("store/inbox.json:8:3: error: "), "line 8 of the file, not of the version: \(r.stderr)")
        #expect(r.stderr.contains("(in the second (theirs) version of the conflict)"), "\(r.stderr)")
        #expect(try a.text("inbox.json") == text)
    }

    // MARK: A reorder against a later edit (issue 25)

    /// Two machines from the same Work list (T1, T2, T3): `a` moved T3 to the
    /// top at atA; `b`, not having seen that, renamed T3 at atB (later).
    static func reorderedAndRenamed() throws -> (a: Sandbox, b: Sandbox, id: String) {
        let (a, others) = try Self.devices()
        let b = others[0]
        let id = try a.uuidPrefix("T3")
        try a.ok("reorder", id, "--top", now: Self.atA)
        try b.ok("edit", id, "--title", "T3 renamed", now: Self.atB)
        #expect(try a.tasks("lists/work.json").titles == ["T3", "T1", "T2"])
        #expect(try b.tasks("lists/work.json").titles == ["T1", "T2", "T3 renamed"])
        return (a, b, id)
    }

    @Test("a reorder on one machine and a later rename of the task on the other both survive a conflict copy, whichever machine resolves it")
    func reorderAndLaterRename() throws {
        let (a, b, id) = try Self.reorderedAndRenamed()
        let versions = [try a.text("lists/work.json"), try b.text("lists/work.json")]
        // Each machine receives the other's version as a conflict copy.
        for (me, theirs) in [(a, versions[1]), (b, versions[0])] {
            try me.write(Self.copyB, theirs)
            let r = try me.tick("resolve")
            #expect(r.status == 0, "\(r)")
            #expect(r.stdout.hasPrefix("Merged the Syncthing conflict copy"), "\(r.stdout)")
            #expect(!r.stdout.contains("later change was kept"), "nothing was overridden: \(r.stdout)")
            #expect(!me.exists(Self.copyB))
            #expect(try me.tasks("lists/work.json").titles == ["T3 renamed", "T1", "T2"])
            #expect(try me.showJSON(id).string("title") == "T3 renamed")
            #expect(try me.json("list", "list:Work").map { $0.string("title") ?? "" } == ["T3 renamed", "T1", "T2"])
        }
        #expect(try a.text("lists/work.json") == b.text("lists/work.json"), "both machines end with the same file")
    }

    #if os(Linux)
    @Test("tick watch merges the conflict copy of a reordered task renamed later elsewhere: both the order and the title survive, on either machine")
    func reorderAndLaterRenameWithWatch() throws {
        let (a, b, id) = try Self.reorderedAndRenamed()
        let versions = [try a.text("lists/work.json"), try b.text("lists/work.json")]
        for (me, theirs) in [(a, versions[1]), (b, versions[0])] {
            let w = try me.startWatcher()
            defer { _ = w.stop() }
            let mark = w.messages.count
            try me.write(Self.copyB, theirs)
            let line = w.waitForMessage(after: mark, timeout: 10) { $0.contains("merged \(Self.copyB)") }
            #expect(line != nil, "\(w.messages)")
            #expect(!me.exists(Self.copyB))
            #expect(try me.tasks("lists/work.json").titles == ["T3 renamed", "T1", "T2"])
            #expect(try me.showJSON(id).string("title") == "T3 renamed")
        }
        #expect(try a.text("lists/work.json") == b.text("lists/work.json"), "both machines end with the same file")
    }
    #endif
}
