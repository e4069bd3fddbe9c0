import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The index must never take the store down: many commands creating it at
/// once, a full cache disk, and who may read the machine-local files.
@Suite("index races and failures")
struct IndexRaceTests {
    /// Words that only SQLite (or GRDB) puts in a message.
    static let sqliteWords = ["SQLite", "sqlite", "journal_mode", "database disk image", "readonly database", "disk I/O error"]

    @Test("a deleted cache and 8 concurrent add/list/done commands, 8 rounds: every command exits 0, no SQLite text, every add lands exactly once")
    func deletedCacheConcurrentCommands() throws {
        let s = try Sandbox()
        let rounds = 8
        let processes = 8
        try s.add("seed task")
        // Each round deletes the cache, then starts 8 processes at once; each
        // adds a task, lists, and completes the task it added. A failing
        // command appends a line to io/failures; stderr goes to io/err-*.
        let script = """
        for r in $(seq \(rounds)); do
          rm -rf "$XDG_CACHE_HOME/tick"
          for p in $(seq \(processes)); do
            (
              err="$IO/err-$r-$p"
              id=$("$TICK" add "race-$r-$p" 2>>"$err") || echo "add race-$r-$p: exit $?" >> "$IO/failures"
              "$TICK" list >/dev/null 2>>"$err" || echo "list $r-$p: exit $?" >> "$IO/failures"
              "$TICK" done "$id" >/dev/null 2>>"$err" || echo "done race-$r-$p ($id): exit $?" >> "$IO/failures"
            ) &
          done
          wait
        done
        """
        let io = s.root + "/io"
        let r = try s.sh(script, env: ["IO": io])
        #expect(r.status == 0, "\(r)")

        let failures = (try? String(contentsOfFile: io + "/failures", encoding: .utf8)) ?? ""
        #expect(failures.isEmpty, "failed commands:\n\(failures)")
        var stderrText = ""
        for name in (try FileManager.default.contentsOfDirectory(atPath: io)).sorted() where name.hasPrefix("err-") {
            stderrText += (try? String(contentsOfFile: io + "/" + name, encoding: .utf8)) ?? ""
        }
        for word in Self.sqliteWords {
            #expect(!stderrText.contains(word), "raw SQLite text \"\(word)\" on stderr:\n\(stderrText)")
        }

        let tasks = try s.tasks("inbox.json")
        var counts: [String: Int] = [:]
        for t in tasks { counts[t.string("title") ?? "", default: 0] += 1 }
        for round in 1...rounds {
            for p in 1...processes {
                let title = "race-\(round)-\(p)"
                #expect(counts[title] == 1, "\(title) is in the store \(counts[title] ?? 0) times")
                #expect(tasks.first { $0.string("title") == title }?.string("state") == "done", "\(title) was completed")
            }
        }
        #expect(counts["seed task"] == 1)
        // And the index built in that storm answers like the files.
        #expect(try s.json("list").titles == ["seed task"])
        #expect(try s.json("list", "--all").count == rounds * processes + 1)
    }

    // MARK: A full cache disk

    /// Root can mount a tmpfs here (the test mounts one over XDG_CACHE_HOME).
    static let canMountTmpfs: Bool = {
        guard geteuid() == 0 else { return false }
        let dir = NSTemporaryDirectory() + "tick-mount-probe-\(getpid())"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        guard run("/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", dir]) == 0 else { return false }
        return run("/bin/umount", [dir]) == 0
    }()

    private static func run(_ tool: String, _ args: [String]) -> Int32 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: tool)
        p.arguments = args
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return -1 }
        p.waitUntilExit()
        return p.terminationStatus
    }

    @Test("a full cache disk (a 1 MiB tmpfs as XDG_CACHE_HOME, filled up): after a store file changes, reads and writes still succeed with one warning (skipped unless root can mount a tmpfs)",
          .enabled(if: IndexRaceTests.canMountTmpfs, "needs root and `mount -t tmpfs`"))
    func fullCacheDisk() throws {
        let s = try Sandbox()
        #expect(Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", s.cacheHome]) == 0)
        defer { _ = Self.run("/bin/umount", [s.cacheHome]) }
        try s.add("Buy milk")
        try s.add("Call mom")
        #expect(try s.tick("list").status == 0)
        // Fill the disk to the last block.
        _ = try s.sh("dd if=/dev/zero of=\"$XDG_CACHE_HOME/filler\" bs=4k 2>/dev/null; sync")
        let full = try s.sh("echo x > \"$XDG_CACHE_HOME/probe\"")
        #expect(full.status != 0, "the cache disk is full")

        func oneWarning(_ r: RunResult, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(r.status == 0, "\(r)", sourceLocation: sourceLocation)
            let lines = r.stderr.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].hasPrefix("tick: warning: cannot update the index"), "\(r.stderr)", sourceLocation: sourceLocation)
            #expect(!r.stderr.contains("SQLite"), sourceLocation: sourceLocation)
        }
        // A write: the store changes, the index cannot follow.
        let added = try s.tick("add", "Water plants")
        oneWarning(added)
        #expect(try s.tasks("inbox.json").titles == ["Buy milk", "Call mom", "Water plants"])
        // A read after a hand edit too.
        try s.sed("-i", #"s/"title": "Call mom"/"title": "Call dad"/"#, "inbox.json")
        let listed = try s.tick("list")
        oneWarning(listed)
        #expect(listed.stdout.contains("1 [ ] Buy milk"), "\(listed.stdout)")
        #expect(listed.stdout.contains("2 [ ] Call dad"), "short ids kept from the index on disk: \(listed.stdout)")
        #expect(listed.stdout.contains("Water plants"))
        // Writes by short id hit the task they name.
        let done = try s.tick("done", "2")
        oneWarning(done)
        #expect(try s.tasks("inbox.json").first { $0.string("title") == "Call dad" }?.string("state") == "done")
        // Room again: the index catches up, silently.
        try FileManager.default.removeItem(atPath: s.cacheHome + "/filler")
        let after = try s.tick("list")
        #expect(after.status == 0 && after.stderr.isEmpty, "\(after)")
        #expect(try s.json("list").titles == ["Buy milk", "Water plants"])
    }

    // MARK: Who may read the machine-local files

    /// Every file under `dir`, recursively, with its mode.
    static func modes(under dir: String) -> [(path: String, mode: mode_t, isDirectory: Bool)] {
        var out: [(String, mode_t, Bool)] = []
        guard let names = FileManager.default.subpaths(atPath: dir) else { return [] }
        for name in names.sorted() {
            var st = stat()
            guard lstat(dir + "/" + name, &st) == 0 else { continue }
            out.append((name, st.st_mode & 0o777, st.st_mode & S_IFMT == S_IFDIR))
        }
        return out
    }

    @Test("under umask 022 every cache and state file is 0600 and every directory 0700 (index, WAL, locks, undo journal, written copies, resolved archive)")
    func privateModes() throws {
        let s = try Sandbox()
        let tick = "umask 022; \"$TICK\""
        let script = """
        \(tick) lists add Work >/dev/null &&
        \(tick) add Buy milk >/dev/null &&
        \(tick) add Draft plan list:Work >/dev/null &&
        \(tick) list >/dev/null &&
        \(tick) done 1 >/dev/null &&
        \(tick) mv 2 inbox >/dev/null &&
        \(tick) undo >/dev/null &&
        cp "$TICK_STORE/inbox.json" "$TICK_STORE/inbox.sync-conflict-20261121-093512-ABCDEF7.json" &&
        \(tick) resolve >/dev/null &&
        \(tick) reindex >/dev/null &&
        \(tick) status >/dev/null
        """
        let r = try s.sh(script)
        #expect(r.status == 0, "\(r)")
        let cache = Self.modes(under: s.cacheHome)
        let state = Self.modes(under: s.stateHome)
        #expect(cache.contains { $0.path.hasSuffix("/index.sqlite") }, "\(cache)")
        #expect(state.contains { $0.path.hasSuffix("/store.lock") }, "\(state)")
        #expect(state.contains { $0.path.hasSuffix("/undo.jsonl") }, "\(state)")
        #expect(state.contains { $0.path.contains("/written/") && !$0.isDirectory }, "\(state)")
        #expect(state.contains { $0.path.contains("/resolved/") && !$0.isDirectory }, "\(state)")
        for entry in cache + state {
            #expect(entry.mode == (entry.isDirectory ? 0o700 : 0o600), "\(entry.path) is \(String(entry.mode, radix: 8))")
        }
    }

    @Test("an index and cache directory left 0644/0755 by an older tick are tightened by the next command")
    func looseModesAreTightened() throws {
        let s = try Sandbox()
        try s.add("Buy milk")
        let dir = (s.indexPath as NSString).deletingLastPathComponent
        #expect(chmod(s.indexPath, 0o644) == 0)
        #expect(chmod(dir, 0o755) == 0)
        try s.add("Call mom")
        for entry in Self.modes(under: dir) {
            #expect(entry.mode == 0o600, "\(entry.path) is \(String(entry.mode, radix: 8))")
        }
        var st = stat()
        #expect(stat(dir, &st) == 0 && st.st_mode & 0o777 == 0o700)
    }
}
