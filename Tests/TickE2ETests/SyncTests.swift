import Foundation
import Testing

/// `tick sync`: commit, pull (through the tick merge driver), push, report —
/// with real git, a bare repository and two clones.
@Suite("tick sync")
struct SyncTests {
    static let atA = "2026-11-21T10:00:00Z"
    static let atB = "2026-11-21T10:30:00Z"

    /// Work (T1..T3) and Errands (E1, E2) on both machines; titles that must
    /// never show up in a commit message.
    static func machines() throws -> GitMachines {
        try GitMachines { s in
            try s.ok("lists", "add", "Work")
            try s.ok("lists", "add", "Errands")
            for t in ["T1", "T2", "T3"] { try s.add(t, "list:Work") }
            for t in ["E1", "E2"] { try s.add(t, "list:Errands") }
        }
    }

    static func prefix(_ s: Sandbox, _ title: String) throws -> String { try s.uuidPrefix(title) }

    /// Every commit message in a clone: counts only, never a title.
    static func expectNoTitles(_ s: Sandbox, _ titles: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let log = try s.git("log", "--format=%B").stdout
        for t in titles { #expect(!log.contains(t), "commit messages mention \(t):\n\(log)", sourceLocation: sourceLocation) }
    }

    @Test("two machines sync: commits count the changes, pulls report what came in, both end with the same files")
    func twoMachines() throws {
        let m = try Self.machines()
        let (a, b) = (m.a, m.b)
        try a.add("Secret alpha", "list:Work", now: Self.atA)
        try a.add("Secret beta", "list:Work", now: Self.atA)
        try a.ok("done", try Self.prefix(a, "T1"), now: Self.atA)
        let ra = try a.tick("sync")
        #expect(ra.status == 0, "\(ra)")
        #expect(ra.stdout == """
        Committed: tick: 2 tasks added, 1 completed in 1 file
        Already up to date with origin/main
        Pushed to origin/main

        """)
        #expect(try a.commitSubjects().first == "tick: 2 tasks added, 1 completed in 1 file")

        try b.add("Private gamma", now: Self.atB)
        try b.ok("edit", try Self.prefix(b, "T2"), "pri:must", now: Self.atB)
        let rb = try b.tick("sync")
        #expect(rb.status == 0, "\(rb)")
        #expect(rb.stdout == """
        Committed: tick: 1 task added, 1 changed in 2 files
        Pulled from origin/main: 2 tasks added, 1 completed in 1 file
          lists/work.json: 2 tasks added, 1 completed
        Pushed to origin/main

        """)
        #expect(try b.git("rev-list", "--parents", "-n", "1", "HEAD").stdout.split(separator: " ").count == 3, "a merge commit")

        let ra2 = try a.tick("sync")
        #expect(ra2.status == 0, "\(ra2)")
        #expect(ra2.stdout == """
        No local changes to commit
        Pulled from origin/main: 1 task added, 1 changed in 2 files
          inbox.json: 1 task added
          lists/work.json: 1 task changed
        Nothing to push to origin/main

        """)
        for file in ["inbox.json", "lists/work.json", "lists/errands.json"] {
            #expect(try a.text(file) == b.text(file), "\(file) differs")
        }
        #expect(try a.tasks("lists/work.json").titles == ["T1", "T2", "T3", "Secret alpha", "Secret beta"])
        #expect(try a.tasks("lists/work.json").task("T2")?.string("priority") == "must")
        #expect(try a.tasks("lists/work.json").task("T1")?.string("state") == "done")
        for s in [a, b] {
            #expect(try s.git("status", "--porcelain").stdout == "")
            try Self.expectNoTitles(s, ["Secret", "Private", "T1", "T2", "E1", "Work", "Errands"])
        }
        // Nothing left to do.
        let again = try b.tick("sync")
        #expect(again.stdout == "No local changes to commit\nAlready up to date with origin/main\nNothing to push to origin/main\n")
    }

    @Test("with pull.rebase=true, sync rebases through the driver: linear history, both tasks")
    func rebase() throws {
        let m = try Self.machines()
        let (a, b) = (m.a, m.b)
        try b.git("config", "pull.rebase", "true")
        try a.add("Alpha", "list:Work", now: Self.atA)
        #expect(try a.tick("sync").status == 0)
        try b.add("Beta", "list:Work", now: Self.atB)
        let r = try b.tick("sync")
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("Pulled from origin/main: 1 task added in 1 file\n"), "\(r.stdout)")
        #expect(try b.git("rev-list", "--merges", "HEAD").stdout == "")
        #expect(try b.tasks("lists/work.json").titles == ["T1", "T2", "T3", "Alpha", "Beta"])
        #expect(try b.git("status", "--porcelain").stdout == "")
        #expect(try a.tick("sync").status == 0)
        #expect(try a.text("lists/work.json") == b.text("lists/work.json"))
    }

    @Test("without a remote, sync commits and says so", arguments: [false, true])
    func noRemote(withRemote: Bool) throws {
        let s = try Sandbox()
        try Data("[user]\n\tname = Tick Test\n\temail = tick@example.invalid\n[init]\n\tdefaultBranch = main\n".utf8)
            .write(to: URL(fileURLWithPath: s.home + "/.gitconfig"))
        #expect(try s.tick("init", "--git").status == 0)
        try s.add("Hidden title")
        let r = try s.tick("sync")
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout == """
        Committed: tick: 1 task added in 1 file
        No git remote: the changes are committed in this repository only. Add one with `git remote add origin URL`, then `git push -u origin main`.

        """)
        #expect(try s.commitSubjects() == ["tick: 1 task added in 1 file", "tick: use the tick merge driver"])
        #expect(try s.git("status", "--porcelain").stdout == "")
        if withRemote {
            // A remote but no upstream: still committed here, and it says how to set one.
            try s.git("remote", "add", "origin", s.root + "/nowhere.git")
            try s.add("Another")
            let r2 = try s.tick("sync")
            #expect(r2.status == 0, "\(r2)")
            #expect(r2.stdout.contains("The branch main has no upstream"), "\(r2.stdout)")
            #expect(try s.commitSubjects().first == "tick: 1 task added in 1 file")
        }
    }

    @Test("a list deleted on one machine and edited on the other is kept with the edit", arguments: [false, true])
    func modifyDelete(rebase: Bool) throws {
        let m = try Self.machines()
        let (a, b) = (m.a, m.b)
        if rebase { try b.git("config", "pull.rebase", "true") }
        try a.ok("lists", "rm", "Errands", "--yes", now: Self.atA)
        let ra = try a.tick("sync")
        #expect(ra.status == 0, "\(ra)")
        #expect(ra.stdout.hasPrefix("Committed: tick: 2 tasks deleted, 1 list removed in 1 file\n"), "\(ra.stdout)")

        try b.ok("done", try Self.prefix(b, "E1"), now: Self.atB)
        let edited = try b.text("lists/errands.json")
        let rb = try b.tick("sync")
        #expect(rb.status == 0, "\(rb)")
        #expect(rb.stdout.contains("lists/errands.json was deleted on one side and changed on the other: kept the changed file\n"), "\(rb.stdout)")
        #expect(rb.stdout.hasSuffix("Pushed to origin/main\n"), "\(rb.stdout)")
        #expect(try b.text("lists/errands.json") == edited)
        #expect(try b.git("status", "--porcelain").stdout == "")
        #expect(try b.git("ls-files", "-u").stdout == "")
        #expect(try b.gitResult("rev-parse", "-q", "--verify", "MERGE_HEAD").status != 0, "the merge is committed")
        if !rebase {
            #expect(try b.git("rev-list", "--parents", "-n", "1", "HEAD").stdout.split(separator: " ").count == 3)
        }

        let ra2 = try a.tick("sync")
        #expect(ra2.status == 0, "\(ra2)")
        #expect(ra2.stdout.contains("  lists/errands.json: 2 tasks added, 1 list added\n"), "\(ra2.stdout)")
        #expect(try a.text("lists/errands.json") == edited)
    }

    @Test("a pull that stops on a conflict git cannot merge: git's message, exit 1, the repository as git left it")
    func failedPull() throws {
        let m = try Self.machines()
        let (a, b) = (m.a, m.b)
        // A commits a file that is not valid JSON (by hand, bypassing sync).
        try a.sed("-i", "s/\"title\": \"T3\",/\"title\": \"T3 by A\"/", "lists/work.json")
        try a.commitAll("broken by hand")
        try a.git("push", "-q")
        try b.ok("edit", try Self.prefix(b, "T3"), "--title", "T3 by B", now: Self.atB)
        let r = try b.tick("sync")
        #expect(r.status == 1, "\(r)")
        #expect(r.stdout.hasPrefix("Committed: tick: 1 task changed in 1 file\n"), "\(r.stdout)")
        #expect(r.stderr.contains("CONFLICT (content): Merge conflict in lists/work.json"), "\(r.stderr)")
        #expect(r.stderr.contains("tick: error: git stopped with conflicts in: lists/work.json."), "\(r.stderr)")
        #expect(r.stderr.contains("tick resolve"), "\(r.stderr)")
        // Nothing lost: our commit is there, the merge waits, both versions are in the file.
        #expect(try b.commitSubjects().first == "tick: 1 task changed in 1 file")
        #expect(try b.gitResult("rev-parse", "-q", "--verify", "MERGE_HEAD").status == 0)
        let text = try b.text("lists/work.json")
        #expect(text.contains("T3 by A") && text.contains("T3 by B") && text.contains("<<<<<<< ours"))
        // Syncing again does not commit the conflicted file.
        let again = try b.tick("sync")
        #expect(again.status == 1)
        #expect(try b.gitResult("rev-parse", "-q", "--verify", "MERGE_HEAD").status == 0)
    }

    @Test("a store file that cannot be parsed is never committed (exit 4)")
    func refusesBrokenFile() throws {
        let m = try Self.machines()
        let a = m.a
        try a.add("Fine", "list:Work", now: Self.atA)
        try a.write("lists/broken.json", "{\"tasks\": [}\n")
        let before = try a.commitSubjects()
        let r = try a.tick("sync")
        #expect(r.status == 4, "\(r)")
        #expect(r.stderr.contains("store/lists/broken.json:1:12: "), "\(r.stderr)")
        #expect(try a.commitSubjects() == before)
        #expect(try a.git("diff", "--cached", "--name-only").stdout == "", "nothing staged")
    }

    @Test("sync outside a git repository says how to start one")
    func notARepository() throws {
        let s = try Sandbox()
        try s.add("Something")
        let r = try s.tick("sync")
        #expect(r.status == 1)
        #expect(r.stderr.contains("is not in a git repository; run `tick init --git"), "\(r.stderr)")
    }
}
