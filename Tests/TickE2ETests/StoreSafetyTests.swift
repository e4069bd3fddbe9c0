import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Issue 13, store safety: a file tick may not read is reported like a broken
/// one, a read-only file is never replaced, and a store the user named must exist.
@Suite("Store safety")
struct StoreSafetyTests {
    static func chmod(_ s: Sandbox, _ relative: String, _ mode: mode_t) {
        #expect(Glibc.chmod(s.path(relative), mode) == 0, "chmod \(relative)")
    }

    static func mode(_ path: String) -> mode_t {
        var st = stat()
        return stat(path, &st) == 0 ? st.st_mode & 0o7777 : 0
    }

    // MARK: A file tick may not read

    @Test("a list file without read permission is reported by ls, lists and status, and lists add refuses its name (exit 4)",
          .enabled(if: Unprivileged.available, "needs setpriv (util-linux) to run tick as nobody: root ignores file permissions"))
    func unreadableListIsReported() throws {
        let s = try Sandbox()
        try s.handToUnprivileged()
        for args in [["lists", "add", "Work"], ["lists", "add", "Home"], ["add", "Plan the week", "list:Work"],
                     ["add", "Water plants", "list:Home"], ["add", "Inbox thing"]] {
            let r = try s.tickUnprivileged(args)
            #expect(r.status == 0, "\(args): \(r)")
        }
        // Indexed while readable, written an hour ago (so its stamp is settled,
        // not within the index's racy window); then the owner takes away read
        // permission, which changes neither size, mtime nor inode.
        let hourAgo = timeval(tv_sec: time(nil) - 3600, tv_usec: 0)
        #expect(utimes(s.path("lists/work.json"), [hourAgo, hourAgo]) == 0)
        #expect(try s.tickUnprivileged("ls").stdout.contains("Plan the week"))
        Self.chmod(s, "lists/work.json", 0o200)
        let problem = "store/lists/work.json: cannot read it: Permission denied"

        let ls = try s.tickUnprivileged("ls")
        #expect(ls.status == 0, "\(ls)")
        #expect(ls.stderr.contains("tick: warning: \(problem)"), "\(ls)")
        #expect(ls.stdout.contains("Water plants"), "the other lists are still listed: \(ls)")

        let lists = try s.tickUnprivileged("lists")
        #expect(lists.status == 0, "\(lists)")
        #expect(lists.stdout.contains("unreadable: \(problem)"), "\(lists)")
        let listsJSON = try s.tickUnprivileged("lists", "--json")
        let rows = try #require(try JSONSerialization.jsonObject(with: listsJSON.stdoutData) as? [[String: Any]])
        #expect(rows.first { $0.string("file") == "lists/work.json" }?.string("error") == problem, "\(listsJSON)")

        let status = try s.tickUnprivileged("status")
        #expect(!status.stdout.contains("all readable"), "\(status)")
        #expect(status.stdout.contains("files     1 unreadable:\n          \(problem)\n"), "\(status)")
        let statusJSON = try s.tickUnprivileged("status", "--json")
        let st = try #require(try JSONSerialization.jsonObject(with: statusJSON.stdoutData) as? [String: Any])
        #expect(st["unreadable"] as? [String] == [problem], "\(statusJSON)")

        // The name may be taken by the file tick cannot read: not claimed free.
        let add = try s.tickUnprivileged("lists", "add", "Work")
        #expect(add.status == 4, "\(add)")
        #expect(add.stderr == "store/lists/work.json: error: cannot read it: Permission denied\n    make it a readable regular file (e.g. chmod u+r store/lists/work.json), then run the command again\n", "\(add)")
        let other = try s.tickUnprivileged("lists", "add", "Garden")
        #expect(other.status == 4, "any unreadable list file might be Garden: \(other)")
        #expect(!s.exists("lists/garden.json"))

        // A fresh index (rebuilt from nothing) reports it the same way.
        try FileManager.default.removeItem(atPath: s.cacheHome + "/tick")
        let fresh = try s.tickUnprivileged("ls")
        #expect(fresh.stderr.contains("tick: warning: \(problem)"), "\(fresh)")
        #expect(try s.tickUnprivileged("status", "--json").stdoutData.count > 0)

        // Readable again: back, without a warning, though its stamp never changed.
        Self.chmod(s, "lists/work.json", 0o644)
        let back = try s.tickUnprivileged("ls")
        #expect(back.status == 0 && back.stderr.isEmpty, "\(back)")
        #expect(back.stdout.contains("Plan the week"), "\(back)")
        #expect(try s.tickUnprivileged("status").stdout.contains("files     all readable"))
    }

    @Test("a lists/ directory tick may not read is an error, not a store without lists",
          .enabled(if: Unprivileged.available, "needs setpriv (util-linux) to run tick as nobody: root ignores file permissions"))
    func unreadableListsDirectory() throws {
        let s = try Sandbox()
        try s.handToUnprivileged()
        #expect(try s.tickUnprivileged("lists", "add", "Work").status == 0)
        #expect(try s.tickUnprivileged("add", "Secret plan", "list:Work").status == 0)
        Self.chmod(s, "lists", 0o300)
        defer { Self.chmod(s, "lists", 0o755) }
        let r = try s.tickUnprivileged("ls")
        #expect(r.status == 1, "\(r)")
        #expect(r.stderr == "tick: error: cannot read \(s.store)/lists: Permission denied\n", "\(r)")
    }

    // MARK: A read-only file

    /// The refusal of a write to `relative`, and the store left as it was.
    static func expectRefused(_ r: RunResult, _ s: Sandbox, _ relative: String, before: [String: FileFingerprint],
                              sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(r.status == 1, "\(r)", sourceLocation: sourceLocation)
        #expect(r.stdout == "", sourceLocation: sourceLocation)
        #expect(r.stderr == "tick: error: cannot write store/\(relative): the file is read-only (no write permission) and tick respects that; nothing was written. To allow writes: chmod u+w store/\(relative)\n",
                "\(r)", sourceLocation: sourceLocation)
        #expect(try s.fingerprint() == before, "nothing written", sourceLocation: sourceLocation)
    }

    @Test("chmod 444 inbox.json: root too is refused every write to it, nothing is written (exit 1); chmod u+w allows it again")
    func readOnlyFileAsRoot() throws {
        let s = try Sandbox()
        try s.add("Call the bank")
        try s.ok("lists", "add", "Work")
        try s.add("Report", "list:Work")
        Self.chmod(s, "inbox.json", 0o444)
        let before = try s.fingerprint()
        try Self.expectRefused(try s.tick("done", "1"), s, "inbox.json", before: before)
        try Self.expectRefused(try s.tick("add", "Another"), s, "inbox.json", before: before)
        try Self.expectRefused(try s.tick("edit", "1", "due:fri"), s, "inbox.json", before: before)
        // A move touches two files: the read-only one stops it before either is written.
        try Self.expectRefused(try s.tick("mv", "2", "inbox"), s, "inbox.json", before: before)
        try Self.expectRefused(try s.tick("mv", "1", "Work"), s, "inbox.json", before: before)
        #expect(Self.mode(s.path("inbox.json")) == 0o444, "the mode is kept")
        // The other files are still writable.
        #expect(try s.tick("done", "2").status == 0)
        #expect(try s.json("list", "--all", "--state", "done").titles == ["Report"])

        Self.chmod(s, "inbox.json", 0o644)
        #expect(try s.tick("done", "1").status == 0)
        #expect(try s.tasks("inbox.json").first?.string("state") == "done")
    }

    @Test("a read-only list file: lists rm, lists rename and undo refuse it too")
    func readOnlyListFile() throws {
        let s = try Sandbox()
        try s.ok("lists", "add", "Work")
        try s.add("Report", "list:Work")
        try s.ok("done", "1")
        Self.chmod(s, "lists/work.json", 0o444)
        let before = try s.fingerprint()
        try Self.expectRefused(try s.tick("lists", "rename", "Work", "Job"), s, "lists/work.json", before: before)
        try Self.expectRefused(try s.tick("lists", "rm", "Work", "--yes"), s, "lists/work.json", before: before)
        let undo = try s.tick("undo")
        #expect(undo.status == 1, "\(undo)")
        #expect(undo.stderr.contains("store/lists/work.json: the file is read-only") && undo.stderr.contains("chmod u+w store/lists/work.json"), "\(undo)")
        #expect(try s.fingerprint() == before)
        #expect(s.exists("lists/work.json"))
    }

    @Test("as an ordinary user: a file without write permission for that user is refused",
          .enabled(if: Unprivileged.available, "needs setpriv (util-linux) to run tick as nobody: root ignores file permissions"))
    func readOnlyFileAsUser() throws {
        let s = try Sandbox()
        try s.handToUnprivileged()
        #expect(try s.tickUnprivileged("add", "Call the bank").status == 0)
        Self.chmod(s, "inbox.json", 0o444)
        var before = try s.fingerprint()
        try Self.expectRefused(try s.tickUnprivileged("done", "1"), s, "inbox.json", before: before)
        // Owned by someone else, writable only by its owner: the directory would
        // allow the rename, the file does not allow the write.
        if getuid() == 0 {
            #expect(Glibc.chown(s.path("inbox.json"), 0, 0) == 0)
            Self.chmod(s, "inbox.json", 0o644)
            before = try s.fingerprint()
            try Self.expectRefused(try s.tickUnprivileged("done", "1"), s, "inbox.json", before: before)
        }
    }

    // MARK: A store the user named

    @Test("--store or TICK_STORE naming a missing directory: every command fails (exit 1) and asks for tick init; nothing is created")
    func namedStoreMustExist() throws {
        let s = try Sandbox()
        let typo = s.root + "/tasks-typo"
        let message = "tick: error: no store at \(typo); create it with `tick init \(typo)`\n"
        for args in [["--store", typo, "list"], ["--store", typo, "add", "Buy milk"], ["--store", typo, "status"],
                     ["--store", typo, "lists", "add", "Work"], ["--store", typo, "today"]] {
            let r = try s.tick(args)
            #expect(r.status == 1, "\(args): \(r)")
            #expect(r.stdout == "", "\(args): \(r)")
            #expect(r.stderr == message, "\(args): \(r)")
        }
        for args in [["add", "Buy milk"], ["list"]] {
            let r = try s.tick(args, env: ["TICK_STORE": typo])
            #expect(r.status == 1, "\(args): \(r)")
            #expect(r.stderr == message, "\(args): \(r)")
        }
        // Relative to the working directory, as given.
        let relative = try s.tick("--store", "tasks-typo", "add", "Buy milk")
        #expect(relative.stderr == message, "\(relative)")
        #expect(!FileManager.default.fileExists(atPath: typo), "the typo is not created")
        #expect(s.storeFiles().isEmpty, "nothing went to the real store either")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: s.dataHome)) == [], "nor to the default store")

        // A dangling link is no store either.
        #expect(symlink(s.root + "/nowhere", s.root + "/link") == 0)
        #expect(try s.tick("--store", s.root + "/link", "list").stderr
                == "tick: error: no store at \(s.root)/link; create it with `tick init \(s.root)/link`\n")

        // tick init creates it; then it works.
        #expect(try s.ok("init", typo) == "Created the store \(typo)\nTo use it: export TICK_STORE=\(typo)  (or pass --store \(typo))\n")
        #expect(try s.tick("--store", typo, "add", "Buy milk").status == 0)
        #expect(FileManager.default.fileExists(atPath: typo + "/inbox.json"))
    }

    @Test("the default store ($XDG_DATA_HOME/tick) is still created on the first write")
    func defaultStoreIsCreated() throws {
        let s = try Sandbox(setsStore: false)
        let store = s.dataHome + "/tick"
        #expect(try s.ok("list") == "No tasks. Add one with: tick add Something to do\n")
        #expect(!FileManager.default.fileExists(atPath: store))
        #expect(try s.add("First") == "1")
        #expect(FileManager.default.fileExists(atPath: store + "/inbox.json"))
    }
}
