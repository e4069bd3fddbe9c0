import Foundation
import Testing

/// The post-merge and post-rewrite hooks of `tick git setup`: installed,
/// idempotent, never over a hook tick did not write, and run by a plain
/// `git pull` (merge or rebase) but not by `tick sync`.
@Suite("git hooks")
struct GitHooksTests {
    static let hooks = ["post-merge", "post-rewrite"]
    static let marker = "# installed by tick git setup"

    /// The tick binary as `tick git setup` writes it (symlinks resolved).
    static var binary: String { URL(fileURLWithPath: TickBinary.path).resolvingSymlinksInPath().path }

    static func mode(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    static func text(_ path: String) throws -> String {
        String(decoding: try #require(FileManager.default.contents(atPath: path)), as: UTF8.self)
    }

    @Test("setup installs executable hooks that run tick resolve for the store; again, nothing changes")
    func installed() throws {
        let s = try Sandbox()
        try s.git("init", "-q", s.store, in: s.root)
        try s.configureGitIdentity()
        let first = try s.tick("git", "setup")
        #expect(first.status == 0, "\(first)")
        for name in Self.hooks {
            let path = s.store + "/.git/hooks/" + name
            #expect(first.stdout.contains("Installed the git hook \(name) (runs `tick resolve` after git pull): \(path)\n"), "\(first.stdout)")
            #expect(try Self.mode(path) & 0o111 == 0o111, "\(name) is executable")
            let script = try Self.text(path)
            let scriptLines = lines(script)
            #expect(scriptLines.first == "#!/bin/sh")
            #expect(scriptLines.contains(Self.marker))
            #expect(scriptLines.contains("TICK='\(Self.binary)'"), "the merge driver's binary: \(script)")
            #expect(scriptLines.contains("STORE='\(s.store)'"), "\(script)")
            #expect(scriptLines.contains("\"$TICK\" --store \"$STORE\" resolve --quiet || true"), "\(script)")
            #expect(scriptLines.last == "exit 0")
            // Valid sh.
            #expect(try s.run("/bin/sh", ["-n", path]).status == 0)
        }
        #expect(try s.git("status", "--porcelain").stdout == "", "hooks are not in the work tree")

        let second = try s.tick("git", "setup")
        #expect(second.status == 0)
        #expect(second.stdout == "Already set up: git merges the task files in \(s.store) with tick (nothing changed)\n")
        #expect(second.stderr == "")

        // A hook of an older tick (other text, still marked) is brought up to date.
        let merge = s.store + "/.git/hooks/post-merge"
        try Data("#!/bin/sh\n\(Self.marker)\ntick resolve\n".utf8).write(to: URL(fileURLWithPath: merge))
        let third = try s.tick("git", "setup")
        #expect(third.stdout.contains("Updated the git hook post-merge: \(merge)\n"), "\(third.stdout)")
        #expect(try Self.text(merge) == Self.text(s.store + "/.git/hooks/post-rewrite")
            .replacingOccurrences(of: "[ \"$1\" = rebase ] || exit 0\n", with: ""))
        #expect(try Self.mode(merge) & 0o111 == 0o111)
    }

    @Test("core.hooksPath is respected")
    func hooksPath() throws {
        let s = try Sandbox()
        try s.git("init", "-q", s.store, in: s.root)
        try s.configureGitIdentity()
        let dir = s.root + "/shared-hooks"
        try s.git("config", "core.hooksPath", dir)
        #expect(try s.tick("git", "setup").status == 0)
        for name in Self.hooks {
            #expect(FileManager.default.isExecutableFile(atPath: dir + "/" + name))
            #expect(!FileManager.default.fileExists(atPath: s.store + "/.git/hooks/" + name))
        }
    }

    @Test("a hook tick did not write is left alone, with a warning that gives the line to add")
    func foreignHook() throws {
        let s = try Sandbox()
        try s.git("init", "-q", s.store, in: s.root)
        try s.configureGitIdentity()
        let mine = "#!/bin/sh\necho my own post-merge\n"
        let path = s.store + "/.git/hooks/post-merge"
        try Data(mine.utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: path)
        for run in 1...2 {
            let r = try s.tick("git", "setup")
            #expect(r.status == 0, "\(r)")
            #expect(r.stderr.contains("tick: warning: \(path) is not tick's hook, so it was left alone."), "\(r.stderr)")
            #expect(r.stderr.contains("\n  '\(Self.binary)' --store '\(s.store)' resolve --quiet || true\n"), "\(r.stderr)")
            #expect(!r.stdout.contains("git hook post-merge"), "\(r.stdout)")
            #expect(r.stdout.contains("git hook post-rewrite") == (run == 1), "\(r.stdout)")
            #expect(try Self.text(path) == mine)
            #expect(try Self.mode(path) == 0o700)
        }
        #expect(FileManager.default.isExecutableFile(atPath: s.store + "/.git/hooks/post-rewrite"))
    }

    @Test("git pull (merge and rebase) runs the hook for the store; tick sync and commit --amend do not")
    func pullRunsHook() throws {
        let m = try GitMachines { s in
            try s.ok("lists", "add", "Work")
            for t in ["T1", "T2"] { try s.add(t, "list:Work") }
        }
        let (a, b) = (m.a, m.b)
        // B's hooks call a wrapper that records its arguments, then runs tick
        // (without --quiet, which `tick resolve` may not know yet).
        let calls = b.root + "/hook-calls"
        let wrapper = try b.script("tick-wrapper", """
            printf '%s\\n' "$*" >> '\(calls)'
            for arg in "$@"; do shift; [ "$arg" = --quiet ] || set -- "$@" "$arg"; done
            exec '\(TickBinary.path)' "$@"
            """)
        for name in Self.hooks {
            let path = b.store + "/.git/hooks/" + name
            let script = try Self.text(path).replacingOccurrences(of: "TICK='\(Self.binary)'", with: "TICK='\(wrapper)'")
            #expect(script.contains(wrapper))
            try Data(script.utf8).write(to: URL(fileURLWithPath: path))
        }
        func recorded() throws -> [String] {
            FileManager.default.fileExists(atPath: calls) ? lines(try Self.text(calls)) : []
        }
        let expected = "--store \(b.store) resolve --quiet"

        // A Syncthing conflict copy waits in B's store.
        let copy = "lists/work.sync-conflict-20261121-093512-ABCDEF7.json"
        try b.add("From the copy", "list:Work", now: "2026-11-21T09:30:00Z")
        try b.write(copy, try b.text("lists/work.json"))
        try b.git("checkout", "--", "lists/work.json")

        // A plain git pull (merge): the hook merges the copy.
        try a.add("Alpha", "list:Work", now: "2026-11-21T10:00:00Z")
        try a.commitAll("alpha")
        try a.git("push", "-q")
        let pull = try b.gitResult("pull", "--no-rebase", "--no-edit")
        #expect(pull.status == 0, "\(pull)")
        #expect(try recorded() == [expected])
        #expect(!b.exists(copy), "tick resolve ran and merged the copy")
        #expect(Set(try b.tasks("lists/work.json").titles) == ["T1", "T2", "Alpha", "From the copy"])
        try b.commitAll("resolved")

        // git pull --rebase: post-rewrite.
        try a.add("Beta", "list:Work", now: "2026-11-21T10:10:00Z")
        try a.commitAll("beta")
        try a.git("push", "-q")
        try b.add("Gamma", "list:Work", now: "2026-11-21T10:20:00Z")
        try b.commitAll("gamma")
        let rebase = try b.gitResult("pull", "--rebase")
        #expect(rebase.status == 0, "\(rebase)")
        #expect(try recorded() == [expected, expected])

        // Not after commit --amend, and not from tick sync (it holds the store lock while it pulls).
        try b.git("commit", "-q", "--amend", "-m", "gamma again")
        try b.git("push", "-q")
        try a.add("Delta", "list:Work", now: "2026-11-21T10:30:00Z")
        try a.commitAll("delta")
        try a.git("pull", "-q", "--no-rebase", "--no-edit")
        try a.git("push", "-q")
        let sync = try b.tick("sync")
        #expect(sync.status == 0, "\(sync)")
        #expect(sync.stdout.contains("Pulled from origin/main"), "\(sync.stdout)")
        #expect(try recorded() == [expected, expected])

        // Setup puts tick's own hook back.
        let setup = try b.tick("git", "setup")
        #expect(setup.stdout.contains("Updated the git hook post-merge"), "\(setup.stdout)")
        #expect(!(try Self.text(b.store + "/.git/hooks/post-merge")).contains(wrapper))
    }
}
