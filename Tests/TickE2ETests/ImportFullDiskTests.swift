import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A small tmpfs the tests can mount (root with CAP_SYS_ADMIN), or nil.
enum SmallDisk {
    /// True when `mount -t tmpfs` works here (tried once on a scratch directory).
    static let available: Bool = {
        let dir = NSTemporaryDirectory() + "tick-tmpfs-probe-\(getpid())"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        guard run("/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", dir]) == 0 else { return false }
        _ = run("/bin/umount", [dir])
        return true
    }()

    static let skipComment: Comment = "cannot mount a tmpfs here (needs root with CAP_SYS_ADMIN): the full-disk test is skipped"

    @discardableResult
    static func run(_ exe: String, _ args: [String]) -> Int32 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe)
        p.arguments = args
        p.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        p.standardError = FileHandle(forWritingAtPath: "/dev/null")
        do { try p.run() } catch { return -1 }
        p.waitUntilExit()
        return p.terminationStatus
    }

    /// Mounts a tmpfs of `size` (e.g. "256k") at `dir`.
    static func mount(_ dir: String, size: String) throws {
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        guard run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", dir]) == 0 else {
            throw HarnessError("mount -t tmpfs at \(dir) failed")
        }
    }

    static func unmount(_ dir: String) {
        run("/bin/umount", ["-l", dir])
    }

    /// Fills the filesystem of `dir` with a hidden file until it is full.
    static func fill(_ dir: String) {
        let fd = open(dir + "/.filler", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { return }
        defer { close(fd) }
        let block = [UInt8](repeating: 0x20, count: 4096)
        while block.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) > 0 {}
        // Smaller writes take the last partial block.
        while block.withUnsafeBytes({ write(fd, $0.baseAddress, 1) }) > 0 {}
    }
}

/// Issue 12 item 4: an import whose write fails part-way changes no store file.
@Suite("Import: all or nothing on a full disk", .serialized, .enabled(if: SmallDisk.available, SmallDisk.skipComment))
struct ImportFullDiskTests {
    @Test("lists/ on a full tmpfs: the inbox is not written either; one error line, exit 1, no temp file left")
    func fullListsDisk() throws {
        let s = try Sandbox()
        let lists = s.path("lists")
        try SmallDisk.mount(lists, size: "256k")
        defer { SmallDisk.unmount(lists) }
        // A store with an inbox (on the big disk) and a list on the small one.
        try Data("list,title\n,Existing inbox task\nWork,Existing work task\n".utf8).write(to: URL(fileURLWithPath: s.root + "/seed.csv"))
        try s.ok("import", s.root + "/seed.csv")
        #expect(s.exists("inbox.json") && s.exists("lists/work.json"))
        SmallDisk.fill(lists)
        // (FileManager's enumerator does not cross into the mount: list the files by name.)
        let files = ["inbox.json", "lists/work.json"]
        func fingerprint() throws -> [FileFingerprint] {
            try files.map { FileFingerprint(bytes: try s.bytes($0), mtime: mtimeNanoseconds(s.path($0))) }
        }
        func leftovers() -> [String] {
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: s.store)) ?? [])
                + ((try? FileManager.default.contentsOfDirectory(atPath: lists)) ?? [])
            return names.filter { $0.hasSuffix(".tmp") || $0.contains("tick-kept") }
        }
        let before = try fingerprint()

        // Enough new text for the work list that its new version cannot fit.
        let notes = String(repeating: "n", count: 2_000)
        var csv = "list,title,notes\n,New inbox task,\n"
        for i in 0..<20 { csv += "Work,Work task \(i),\(notes)\n" }
        let big = s.root + "/big.csv"
        try Data(csv.utf8).write(to: URL(fileURLWithPath: big))
        let r = try s.tick("import", big)

        #expect(r.status == 1, "\(r)")
        let errLines = r.stderr.split(separator: "\n", omittingEmptySubsequences: true)
        #expect(errLines.count == 1, "one error line: \(r.stderr)")
        #expect(r.stderr.hasPrefix("tick: error: cannot write "), "\(r.stderr)")
        #expect(r.stderr.contains("lists/work.json"), "the error names the file that could not be written: \(r.stderr)")
        #expect(r.stderr.contains("nothing was imported"), "\(r.stderr)")
        let after = try fingerprint()
        #expect(after[0] == before[0], "inbox.json must not change when lists/work.json cannot be written")
        #expect(after[1] == before[1], "lists/work.json unchanged")
        #expect(leftovers().isEmpty, "temp files removed: \(leftovers())")
        // The store still works, and once there is room the same import succeeds.
        #expect(try s.ok("list", "--all").contains("Existing work task"))
        unlink(lists + "/.filler")
        let again = try s.tick("import", big)
        #expect(again.status == 0, "\(again)")
        #expect(try s.tasks("inbox.json").titles.contains("New inbox task"))
        #expect(try s.tasks("lists/work.json").count == 21)
    }

    @Test("the undo journal holds what the import wrote: undo removes every list it created; the inbox keeps the tombstone")
    func undoMatchesWhatWasWritten() throws {
        let s = try Sandbox()
        try Data("list,title\n,Inbox one\nWork,Work one\nHome,Home one\n".utf8).write(to: URL(fileURLWithPath: s.root + "/a.csv"))
        try s.ok("import", s.root + "/a.csv")
        #expect(try s.tasks("lists/home.json").titles == ["Home one"])
        let undo = try s.tick("undo")
        #expect(undo.status == 0, "\(undo)")
        #expect(undo.stdout.contains("created list Work") && undo.stdout.contains("created list Home"), "\(undo)")
        #expect(!s.exists("lists/work.json") && !s.exists("lists/home.json"), "\(s.storeFiles())")
        // The undone add is recorded as a deletion, so another machine's copy does not bring it back.
        #expect(try s.tasks("inbox.json").isEmpty)
        #expect((try s.file("inbox.json")["deleted"] as? [[String: Any]])?.count == 1)
    }
}

/// Issue 12 item 13: `--dry-run` of a large import summarises instead of printing every row.
@Suite("import --dry-run summarises beyond a screenful")
struct ImportDryRunSummaryTests {
    @Test("5000 rows in 30 lists: at most a screenful, with counts per list and per state and '… and N more'")
    func summary() throws {
        let s = try Sandbox()
        var csv = "list,title,state\n"
        for i in 0..<5000 { csv += "\(i % 10 == 0 ? "" : "List \(i % 30)"),Task \(i),\(["open", "active", "done", "open"][i % 4])\n" }
        let path = s.root + "/big.csv"
        try Data(csv.utf8).write(to: URL(fileURLWithPath: path))
        let r = try s.tick("import", path, "--dry-run")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.lines.count <= 25, "a screenful, not \(r.lines.count) lines")
        #expect(r.lines.first == "Would import: 5000 added, 0 updated, 0 unchanged, 0 kept (newer here)", "\(r.lines.prefix(3))")
        #expect(r.stdout.contains("by state: 2500 open, 1250 active, 1250 done"), "\(r.stdout)")
        #expect(r.lines.contains { $0.hasPrefix("  … and ") && $0.hasSuffix(" more lists") }, "\(r.stdout)")
        #expect(r.lines.last == "  … and 4990 more tasks", "\(r.stdout)")
        #expect(!s.exists("inbox.json"), "a dry run writes nothing")
    }
}
