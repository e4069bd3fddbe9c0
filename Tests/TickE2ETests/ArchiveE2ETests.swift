import Foundation
import Testing

/// `tick archive` against the built binary: which tasks move where, undo,
/// stats, search --archived, refusals, and a real-git sync with an edit on
/// the other machine.
@Suite("tick archive")
struct ArchiveE2ETests {
    /// Now is 2026-11-21 10:00 in Berlin (pinnedZone): today starts at 2026-11-20T23:00Z.
    static let now = "2026-11-21T09:00:00Z"

    /// Work: Old report (done 2025-06-10), Recent call (done yesterday),
    /// Today task (done today), Open task. Inbox: Inbox done (done 2026-03-01).
    static func seeded() throws -> Sandbox {
        let s = try Sandbox()
        try s.ok("lists", "add", "Work", now: "2025-06-01T08:00:00Z")
        try s.add("Old report", "list:Work", now: "2025-06-01T08:00:00Z")
        try s.add("Recent call", "list:Work", now: "2025-06-01T08:00:00Z")
        try s.add("Today task", "list:Work", now: "2025-06-01T08:00:00Z")
        try s.add("Open task", "list:Work", now: "2025-06-01T08:00:00Z")
        try s.add("Inbox done", now: "2025-06-01T08:00:00Z")
        try s.ok("done", try s.uuidPrefix("Old report"), now: "2025-06-10T10:00:00Z")
        try s.ok("done", try s.uuidPrefix("Inbox done"), now: "2026-03-01T10:00:00Z")
        try s.ok("done", try s.uuidPrefix("Recent call"), now: "2026-11-20T10:00:00Z")
        try s.ok("done", try s.uuidPrefix("Today task"), now: "2026-11-21T08:00:00Z")
        return s
    }

    static func stats(_ s: Sandbox) throws -> String {
        let r = try s.tick("stats", "--period", "month", "--since", "2025-01-01", "--json", now: now)
        #expect(r.status == 0, "\(r)")
        return r.stdout
    }

    @Test("archive moves done tasks completed before today into archive/YYYY.json; undo puts them back exactly")
    func archiveAndUndo() throws {
        let s = try Self.seeded()
        let before = try s.fingerprint()
        let statsBefore = try Self.stats(s)
        #expect(statsBefore.contains("\"total\""), "\(statsBefore)")

        let r = try s.tick("archive", "--yes", now: Self.now)
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("Archived 3 tasks"), "\(r.stdout)")
        #expect(try s.tasks("lists/work.json").titles == ["Today task", "Open task"])
        #expect(try s.tasks("inbox.json").titles == [])
        let y2025 = try s.tasks("archive/2025.json")
        let y2026 = try s.tasks("archive/2026.json")
        #expect(y2025.titles == ["Old report"])
        #expect(y2026.titles.sorted() == ["Inbox done", "Recent call"])
        #expect(y2025.task("Old report")?.string("archivedFrom") == "lists/work.json")
        #expect(y2026.task("Inbox done")?.string("archivedFrom") == "inbox.json")
        #expect(y2026.task("Recent call")?.string("state") == "done")
        // Moved, not deleted: no tombstone anywhere.
        for file in ["inbox.json", "lists/work.json", "archive/2025.json", "archive/2026.json"] {
            #expect((try s.file(file)["deleted"] as? [Any] ?? []).isEmpty, "\(file) has tombstones")
        }
        // The archive file is a list file: same format, a name, an id.
        #expect(try s.file("archive/2026.json")["name"] as? String == "Archive 2026")

        // Out of every listing; stats unchanged; search finds them only with --archived.
        let listed = try s.tick("list", "--all", now: Self.now)
        #expect(!listed.stdout.contains("Old report") && listed.stdout.contains("Today task"), "\(listed)")
        #expect(try Self.stats(s) == statsBefore)
        #expect(try s.tick("search", "report", now: Self.now).status == 1)
        let found = try s.tick("search", "--archived", "report", now: Self.now)
        #expect(found.status == 0 && found.stdout.contains("Old report") && found.stdout.contains("archived"), "\(found)")
        let json = try s.json("search", "--archived", "call", now: Self.now)
        #expect(json.first?.string("file") == "archive/2026.json")
        #expect(json.first?.string("list") == "Work")
        let scoped = try s.tick("search", "--archived", "--list", "inbox", "report", now: Self.now)
        #expect(scoped.status == 1, "\(scoped)")
        let status = try s.tick("status", now: Self.now)
        #expect(status.stdout.contains("archive   3 done task(s) in 2 file(s)"), "\(status)")

        // Nothing left to archive: nothing written.
        let settled = try s.fingerprint()
        let again = try s.tick("archive", "--yes", now: Self.now)
        #expect(again.status == 0 && again.stdout.hasPrefix("Nothing to archive"), "\(again)")
        #expect(try s.fingerprint() == settled)

        // One undo entry puts every task back where it was, with every value it
        // had; the undo is a change, so the moves back are stamped (Docs/MERGE.md "Undo under sync").
        let u = try s.tick("undo", now: Self.now)
        #expect(u.status == 0, "\(u)")
        let after = try s.fingerprint()
        #expect(after.keys.sorted() == before.keys.sorted())
        for (path, print) in before {
            let now = try #require(after[path]).bytes
            if path.hasSuffix(".json") {
                #expect(try undoValues(String(decoding: now, as: UTF8.self)) == undoValues(String(decoding: print.bytes, as: UTF8.self)), "\(path) differs after undo")
            } else {
                #expect(now == print.bytes, "\(path) differs after undo")
            }
        }
        #expect(try Self.stats(s) == statsBefore)
    }

    @Test("--before picks the cutoff; --dry-run writes nothing; no terminal and no --yes refuses")
    func beforeAndDryRun() throws {
        let s = try Self.seeded()
        let untouched = try s.fingerprint()
        let dry = try s.tick("archive", "--dry-run", now: Self.now)
        #expect(dry.status == 0, "\(dry)")
        #expect(dry.stdout.contains("Would archive 3 tasks") && dry.stdout.contains("Old report"), "\(dry)")
        #expect(try s.fingerprint() == untouched)
        let refused = try s.tick("archive", now: Self.now)
        #expect(refused.status == 1 && refused.stderr.contains("--yes"), "\(refused)")
        #expect(try s.fingerprint() == untouched)
        let bad = try s.tick("archive", "--before", "someday", "--yes", now: Self.now)
        #expect(bad.status == 2, "\(bad)")

        let r = try s.tick("archive", "--before", "2026-01-01", "--yes", now: Self.now)
        #expect(r.status == 0, "\(r)")
        #expect(try s.tasks("archive/2025.json").titles == ["Old report"])
        #expect(!s.exists("archive/2026.json"))
        #expect(try s.tasks("inbox.json").titles == ["Inbox done"])
        // An instant: Recent call (2026-11-20T10:00Z) and Inbox done, not Today task.
        let r2 = try s.tick("archive", "--before", "2026-11-20T12:00", "--yes", now: Self.now)
        #expect(r2.status == 0, "\(r2)")
        #expect(try s.tasks("archive/2026.json").titles.sorted() == ["Inbox done", "Recent call"])
        #expect(try s.tasks("lists/work.json").titles == ["Today task", "Open task"])
    }

    @Test("a store file that cannot be parsed stops archive before anything is written (exit 4)")
    func refusesBrokenFile() throws {
        let s = try Self.seeded()
        try s.ok("lists", "add", "Home")
        try s.write("lists/home.json", "{\"version\": 1, \"name\": \"Home\", \"tasks\": [ {\"title\": }")
        let untouched = try s.fingerprint()
        let r = try s.tick("archive", "--yes", now: Self.now)
        #expect(r.status == 4, "\(r)")
        #expect(r.stderr.contains("lists/home.json"), "\(r)")
        #expect(try s.fingerprint() == untouched)
        // A broken archive file is refused too, and the lists stay as they were.
        try s.write("lists/home.json", "{\"version\": 1, \"name\": \"Home\", \"tasks\": []}")
        try s.write("archive/2026.json", "{\"version\": 1, \"name\": \"Archive 2026\", \"tasks\": [ oops")
        let untouched2 = try s.fingerprint()
        let r2 = try s.tick("archive", "--yes", now: Self.now)
        #expect(r2.status == 4, "\(r2)")
        #expect(r2.stderr.contains("archive/2026.json"), "\(r2)")
        #expect(try s.fingerprint() == untouched2)
    }

    /// Pay rent is done on both machines; A archives it, B edits it meanwhile.
    static func machines() throws -> GitMachines {
        try GitMachines { s in
            try s.ok("lists", "add", "Work", now: "2026-11-01T08:00:00Z")
            try s.add("Pay rent", "list:Work", now: "2026-11-01T08:00:00Z")
            try s.add("Keep me", "list:Work", now: "2026-11-01T08:00:00Z")
            try s.ok("done", try s.uuidPrefix("Pay rent"), now: "2026-11-02T08:00:00Z")
        }
    }

    /// Every copy of the task with this id, by file, in a machine's store.
    static func copies(_ s: Sandbox, _ id: String) throws -> [String: [String: Any]] {
        var out: [String: [String: Any]] = [:]
        for rel in s.storeFiles() where rel.hasSuffix(".json") && (rel == "inbox.json" || rel.hasPrefix("lists/") || rel.hasPrefix("archive/")) {
            if let t = try s.tasks(rel).first(where: { ($0["id"] as? String)?.hasPrefix(id) == true }) { out[rel] = t }
        }
        return out
    }

    @Test("git: A archives while B edits the done task's note, or reopens it: after sync on both, one task, nothing lost",
          arguments: [false, true])
    func gitArchiveVersusEdit(reopen: Bool) throws {
        let m = try Self.machines()
        let (a, b) = (m.a, m.b)
        let id = try a.uuidPrefix("Pay rent")
        let ra = try a.tick("archive", "--yes", now: "2026-11-21T10:00:00Z")
        #expect(ra.status == 0, "\(ra)")
        #expect(try a.tick("sync", now: "2026-11-21T10:00:00Z").status == 0)
        if reopen {
            try b.ok("reopen", id, now: "2026-11-21T10:30:00Z")
        } else {
            try b.ok("edit", id, "--note", "paid by transfer", now: "2026-11-21T10:30:00Z")
        }
        let rb = try b.tick("sync", now: "2026-11-21T10:30:00Z")
        #expect(rb.status == 0, "\(rb)")
        let ra2 = try a.tick("sync", now: "2026-11-21T10:40:00Z")
        #expect(ra2.status == 0, "\(ra2)")
        for s in [a, b] {
            let found = try Self.copies(s, id)
            #expect(found.count == 1, "\(found.keys.sorted())")
            if reopen {
                #expect(found["lists/work.json"]?.string("state") == "open", "\(found)")
                #expect(found["lists/work.json"]?["archivedFrom"] == nil)
            } else {
                #expect(found["archive/2026.json"]?.string("notes") == "paid by transfer", "\(found)")
                #expect(found["archive/2026.json"]?.string("state") == "done")
            }
            #expect(try s.tasks("lists/work.json").titles.contains("Keep me"))
            #expect(try s.git("status", "--porcelain").stdout == "")
        }
        for file in ["lists/work.json", "archive/2026.json"] where a.exists(file) {
            #expect(try a.text(file) == b.text(file), "\(file) differs")
        }
    }

    @Test("git: both machines archive into the same year file; the driver merges it, and .gitattributes covers archive/")
    func gitBothArchive() throws {
        let m = try GitMachines { s in
            try s.ok("lists", "add", "Work", now: "2026-11-01T08:00:00Z")
            try s.add("Pay rent", "list:Work", now: "2026-11-01T08:00:00Z")
            try s.add("Buy stamps", now: "2026-11-01T08:00:00Z")
        }
        let (a, b) = (m.a, m.b)
        #expect(try a.git("check-attr", "merge", "archive/2026.json").stdout == "archive/2026.json: merge: tick\n")
        try a.ok("done", try a.uuidPrefix("Pay rent"), now: "2026-11-02T08:00:00Z")
        #expect(try a.tick("archive", "--yes", now: "2026-11-21T10:00:00Z").status == 0)
        #expect(try a.tick("sync", now: "2026-11-21T10:00:00Z").status == 0)
        try b.ok("done", try b.uuidPrefix("Buy stamps"), now: "2026-11-03T08:00:00Z")
        #expect(try b.tick("archive", "--yes", now: "2026-11-21T10:30:00Z").status == 0)
        let rb = try b.tick("sync", now: "2026-11-21T10:30:00Z")
        #expect(rb.status == 0, "\(rb)")
        #expect(try a.tick("sync", now: "2026-11-21T10:40:00Z").status == 0)
        for s in [a, b] {
            #expect(try s.tasks("archive/2026.json").titles.sorted() == ["Buy stamps", "Pay rent"])
            #expect(try s.tasks("lists/work.json").titles == [])
            #expect(try s.tasks("inbox.json").titles == [])
            #expect(!(try s.text("archive/2026.json")).contains("<<<<<<<"))
        }
        #expect(try a.text("archive/2026.json") == b.text("archive/2026.json"))
    }

    @Test("a Syncthing conflict copy of an archive file is listed by status and merged by resolve")
    func syncthingCopy() throws {
        let s = try Self.seeded()
        #expect(try s.tick("archive", "--yes", now: Self.now).status == 0)
        // The other device archived the same year with one more note on Recent call.
        var other = try s.text("archive/2026.json")
        other = other.replacingOccurrences(of: "\"title\": \"Recent call\",", with: "\"title\": \"Recent call\",\n      \"notes\": \"from the other device\",")
        other = other.replacingOccurrences(of: "\"modifiedAt\": \"2026-11-21T09:00:00Z\"", with: "\"modifiedAt\": \"2026-11-21T09:30:00Z\"")
        let copy = "archive/2026.sync-conflict-20261121-093512-ABCDEF7.json"
        try s.write(copy, other)
        let status = try s.tick("status", now: Self.now)
        #expect(status.stdout.contains(copy), "\(status)")
        let r = try s.tick("resolve", now: Self.now)
        #expect(r.status == 0, "\(r)")
        #expect(!s.exists(copy))
        #expect(try s.tasks("archive/2026.json").task("Recent call")?.string("notes") == "from the other device")
        #expect(try s.tasks("archive/2026.json").titles.sorted() == ["Inbox done", "Recent call"])
    }

    @Test("a streak that runs through archived days and past the chart's first day is counted as before")
    func streakThroughTheArchive() throws {
        let s = try Sandbox()
        // One completion a day from Nov 1 to Nov 21: a 21-day streak, longer than the 14-day chart.
        for day in 1...21 {
            let title = "Daily \(day)"
            try s.add(title, now: "2026-10-31T08:00:00Z")
            try s.ok("done", try s.uuidPrefix(title), now: String(format: "2026-11-%02dT08:00:00Z", day))
        }
        func stats() throws -> [String: Any] {
            let r = try s.tick("stats", "--period", "day", "--json", now: Self.now)
            #expect(r.status == 0, "\(r)")
            return try #require(try JSONSerialization.jsonObject(with: r.stdoutData) as? [String: Any])
        }
        let before = try stats()
        #expect((before["streak"] as? [String: Any])?["days"] as? Int == 21, "\(before)")
        // Archive the first half: the chart's first days and the days before it come from the archive.
        #expect(try s.tick("archive", "--before", "2026-11-12", "--yes", now: Self.now).status == 0)
        #expect(try s.tasks("archive/2026.json").count == 11)
        let after = try stats()
        #expect(NSDictionary(dictionary: after) == NSDictionary(dictionary: before), "\(after)\nvs\n\(before)")
    }
}
