import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `tick watch`: a foreground daemon that keeps the index current with
/// inotify, whoever changes the files. Each test starts its own watcher on its
/// own sandbox and stops it (SIGTERM, then SIGKILL after 5 s) even when it fails.
///
/// "The watcher did the work" is checked without letting a command do it:
/// wait for the watcher's own log line, then `tick status --json` must report
/// `indexWasFresh: true` (its staleness check runs before it refreshes).
#if os(Linux)
@Suite("watch", .serialized)
struct WatchTests {
    // MARK: Fixtures

    /// A hand-written list file with fixed ids (`<idBase + i>`), one task per line.
    static func listFile(_ name: String?, _ titles: [String], idBase: Int) -> String {
        let tasks = titles.enumerated().map { i, title in
            #"    {"id": "\#(uuid(idBase + i))", "title": "\#(title)"}"#
        }
        let head = name.map { "{\n  \"name\": \"\($0)\",\n" } ?? "{\n"
        return head + "  \"tasks\": [\n" + tasks.joined(separator: ",\n") + "\n  ]\n}\n"
    }

    static func uuid(_ n: Int) -> String { String(format: "%08x-0000-4000-8000-000000000000", n) }

    /// Inbox (1 task), Work (2 tasks), Home (1 task).
    static func fixture() throws -> Sandbox {
        let s = try Sandbox()
        try s.write("inbox.json", listFile(nil, ["Call mom"], idBase: 0x100))
        try s.write("lists/work.json", listFile("Work", ["Draft the plan", "Review budget"], idBase: 0x200))
        try s.write("lists/home.json", listFile("Home", ["Water plants"], idBase: 0x300))
        return s
    }

    /// Requires the watcher to log a message starting with `prefix` after `mark`.
    @discardableResult
    static func expectMessage(_ w: Watcher, _ prefix: String, after mark: Int, timeout: TimeInterval = 5,
                              sourceLocation: SourceLocation = #_sourceLocation) -> String? {
        let m = w.waitFor(prefix, after: mark, timeout: timeout)
        if m == nil {
            Issue.record("the watcher did not log \"\(prefix)…\" within \(timeout) s; log:\n\(w.log)", sourceLocation: sourceLocation)
        }
        return m
    }

    /// `tick status --json` reports that the index was already fresh: the watcher did the work.
    static func expectFresh(_ s: Sandbox, _ w: Watcher, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let st = try s.statusJSON(sourceLocation: sourceLocation)
        #expect(st["indexWasFresh"] as? Bool == true, "status: \(st)\nlog:\n\(w.log)", sourceLocation: sourceLocation)
        #expect((st["staleFiles"] as? [String]) == [], sourceLocation: sourceLocation)
        #expect((st["watcherPid"] as? NSNumber)?.int32Value == w.pid, sourceLocation: sourceLocation)
    }

    /// Titles per file from `tick list --all --json`.
    static func listed(_ s: Sandbox) throws -> [String: [String]] {
        var out: [String: [String]] = [:]
        for t in try s.json("list", "--all") {
            out[t.string("file") ?? "?", default: []].append(t.string("title") ?? "?")
        }
        return out
    }

    /// Titles per file as the files say (inbox.json and lists/*.json).
    static func onDisk(_ s: Sandbox) throws -> [String: [String]] {
        var out: [String: [String]] = [:]
        for rel in s.storeFiles() where rel == "inbox.json" || (rel.hasPrefix("lists/") && rel.hasSuffix(".json") && !rel.dropFirst(6).hasPrefix(".")) {
            let titles = try s.tasks(rel).titles
            if !titles.isEmpty { out[rel] = titles }
        }
        return out
    }

    // MARK: Changes the watcher picks up

    @Test("(1) sed -i of a title: the watcher reindexes it, status finds the index fresh, search finds the word; the log has no titles")
    func sedEdit() throws {
        let s = try Self.fixture()
        let w = try s.startWatcher()
        defer { w.stop() }
        #expect(w.messages.first?.hasPrefix("watching \(s.store) (pid \(w.pid))") == true)
        #expect(w.messages.contains("watch established on \(s.store) (2 directories)"))
        // Settle the initial rescan, so the next line is about our change.
        Self.expectMessage(w, "rescanned ", after: 0)
        #expect(try s.statusJSON()["indexWasFresh"] as? Bool == true)

        let mark = w.mark
        try s.sed("-i", "s/Draft the plan/Draft the zeppelin plan/", "lists/work.json")
        let line = Self.expectMessage(w, "reindexed lists/work.json: ", after: mark, timeout: 30)
        #expect(line?.range(of: #"^reindexed lists/work\.json: 2 tasks in [0-9]+\.[0-9] ms$"#, options: .regularExpression) != nil, "\(line ?? "")")
        try Self.expectFresh(s, w)

        let found = try s.json("search", "zeppelin")
        #expect(found.titles == ["Draft the zeppelin plan"])
        #expect(found.first?.string("id") == Self.uuid(0x200), "an edited title keeps the task's id")
        #expect(try s.json("search", "draft").titles == ["Draft the zeppelin plan"])
        // sed's own temp file (sedXXXXXX) never shows up, and titles never do.
        #expect(w.messages(after: mark).allSatisfy { $0.hasPrefix("reindexed lists/work.json: ") }, "\(w.messages(after: mark))")
        #expect(!w.log.contains("zeppelin") && !w.log.contains("Draft"))
    }

    @Test("(2) write-temp-then-rename (Syncthing) and a vim-style save are picked up; the temp files are not")
    func renameOver() throws {
        let s = try Self.fixture()
        let w = try s.startWatcher()
        defer { w.stop() }
        Self.expectMessage(w, "rescanned ", after: 0)

        var mark = w.mark
        try s.write("lists/.syncthing.work.json.tmp", Self.listFile("Work", ["Synced one", "Synced two", "Synced three"], idBase: 0x210))
        #expect(rename(s.path("lists/.syncthing.work.json.tmp"), s.path("lists/work.json")) == 0)
        Self.expectMessage(w, "reindexed lists/work.json: 3 tasks", after: mark)
        try Self.expectFresh(s, w)
        #expect(try Self.listed(s)["lists/work.json"] == ["Synced one", "Synced two", "Synced three"])
        #expect(!w.log.contains("syncthing"))

        // vim with backupcopy=no: probe file 4913, rename to work.json~, write anew, delete the backup.
        mark = w.mark
        let r = try s.sh("""
        set -e
        cd lists
        : > 4913 && rm 4913
        mv work.json work.json~
        printf '%s' '\(Self.listFile("Work", ["Vim one", "Vim two"], idBase: 0x220))' > work.json
        rm work.json~
        """, cwd: s.store)
        #expect(r.status == 0, "\(r)")
        Self.expectMessage(w, "reindexed lists/work.json: 2 tasks", after: mark)
        w.waitUntilQuiet(0.2)
        try Self.expectFresh(s, w)
        #expect(try Self.listed(s)["lists/work.json"] == ["Vim one", "Vim two"])
        #expect(!w.log.contains("4913") && !w.log.contains("~"))
    }

    @Test("(3) deleting a list file removes its tasks; (4) a new hand-made list file appears")
    func deleteAndCreate() throws {
        let s = try Self.fixture()
        let w = try s.startWatcher()
        defer { w.stop() }
        Self.expectMessage(w, "rescanned ", after: 0)

        var mark = w.mark
        try FileManager.default.removeItem(atPath: s.path("lists/home.json"))
        Self.expectMessage(w, "removed lists/home.json", after: mark)
        try Self.expectFresh(s, w)
        #expect(try Self.listed(s) == ["inbox.json": ["Call mom"], "lists/work.json": ["Draft the plan", "Review budget"]])
        #expect(try SearchTests.noMatch(s, "water"))
        #expect(try s.json("lists").compactMap { $0.string("file") } == ["inbox.json", "lists/work.json"])

        mark = w.mark
        try s.write("lists/garden.json", #"{"name": "Garden", "tasks": [{"title": "Plant tulips"}, {"title": "Rake leaves"}]}"#)
        Self.expectMessage(w, "reindexed lists/garden.json: 2 tasks", after: mark)
        try Self.expectFresh(s, w)
        #expect(try s.json("list", "Garden").titles == ["Plant tulips", "Rake leaves"])
        #expect(try s.json("lists").compactMap { $0.string("file") } == ["inbox.json", "lists/garden.json", "lists/work.json"])
    }

    @Test("(5) lists/ created after the watch began: files added to it (at once or later) are indexed")
    func listsDirectoryCreatedLater() throws {
        let s = try Sandbox()
        try s.write("inbox.json", Self.listFile(nil, ["Only inbox"], idBase: 0x100))
        let w = try s.startWatcher()
        defer { w.stop() }
        #expect(w.messages.contains("watch established on \(s.store) (1 directories)"), "\(w.messages)")
        Self.expectMessage(w, "rescanned ", after: 0)

        // mkdir, wait until the watcher noticed it, then add a file.
        var mark = w.mark
        try FileManager.default.createDirectory(atPath: s.path("lists"), withIntermediateDirectories: false)
        let rescan = Self.expectMessage(w, "rescanned ", after: mark)
        #expect(rescan?.hasSuffix("(new directory lists)") == true, "\(rescan ?? "")")
        mark = w.mark
        try s.write("lists/later.json", Self.listFile("Later", ["Added later"], idBase: 0x400))
        Self.expectMessage(w, "reindexed lists/later.json: 1 tasks", after: mark)
        try Self.expectFresh(s, w)
        #expect(try Self.listed(s) == ["inbox.json": ["Only inbox"], "lists/later.json": ["Added later"]])

        // Gone again, then created and filled in one go (the file may land before the new watch).
        mark = w.mark
        try FileManager.default.removeItem(atPath: s.path("lists"))
        Self.expectMessage(w, "removed lists/later.json", after: mark)
        w.waitUntilQuiet(0.2)
        mark = w.mark
        let r = try s.sh("mkdir lists && printf '%s' '\(Self.listFile("Quick", ["Quick one", "Quick two"], idBase: 0x500))' > lists/quick.json", cwd: s.store)
        #expect(r.status == 0, "\(r)")
        Self.expectMessage(w, "reindexed lists/quick.json: 2 tasks", after: mark)
        w.waitUntilQuiet(0.2)
        try Self.expectFresh(s, w)
        #expect(try Self.listed(s) == ["inbox.json": ["Only inbox"], "lists/quick.json": ["Quick one", "Quick two"]])
    }

    @Test("(6) a burst of 200 writes to one file is debounced: the final content is indexed, with far fewer than 200 reindexes")
    func burstDebounced() throws {
        let s = try Self.fixture()
        let w = try s.startWatcher()
        defer { w.stop() }
        Self.expectMessage(w, "rescanned ", after: 0)

        let mark = w.mark
        // 199 versions with one task, then a final one with two: the log tells them apart by the count.
        let one = Self.listFile("Work", ["Burst NUM"], idBase: 0x600).components(separatedBy: "NUM")
        let final = Self.listFile("Work", ["Burst final", "Burst extra"], idBase: 0x700)
        // Builtins only (no fork per write): as tight as a shell loop gets.
        let r = try s.sh("""
        i=1
        while [ $i -lt 200 ]; do
          printf '%s%s%s' '\(one[0])' "$i" '\(one[1])' > lists/work.json
          i=$((i + 1))
        done
        printf '%s' '\(final)' > lists/work.json
        """, cwd: s.store)
        #expect(r.status == 0, "\(r)")
        Self.expectMessage(w, "reindexed lists/work.json: 2 tasks", after: mark, timeout: 10)
        w.waitUntilQuiet(0.4)
        try Self.expectFresh(s, w)
        #expect(try s.json("search", "burst").titles == ["Burst final", "Burst extra"])

        let after = w.messages(after: mark)
        let reindexes = after.filter { $0.hasPrefix("reindexed lists/work.json: ") }
        #expect(reindexes.count >= 1)
        #expect(reindexes.count <= 20, "\(reindexes.count) reindexes for 200 writes:\n\(after.joined(separator: "\n"))")
        #expect(after.last?.hasPrefix("reindexed lists/work.json: 2 tasks") == true, "the last word is the final content")
        #expect(!after.contains { $0.hasPrefix("error:") }, "a half-written file is retried, not reported: \(after)")
    }

    @Test("(7) git checkout of another branch: the index matches the checked-out files, and back again")
    func gitCheckout() throws {
        let s = try Self.fixture()
        try s.git("init", "-q", "-b", "main")
        try s.git("config", "user.name", "Tick Test")
        try s.git("config", "user.email", "tick@example.invalid")
        try s.git("config", "commit.gpgsign", "false")
        try s.git("add", "-A")
        try s.git("commit", "-q", "-m", "main")
        try s.git("checkout", "-q", "-b", "other")
        try s.write("lists/work.json", Self.listFile("Work", ["Other A", "Other B", "Other C"], idBase: 0x800))
        try FileManager.default.removeItem(atPath: s.path("lists/home.json"))
        try s.write("lists/garden.json", Self.listFile("Garden", ["Prune roses"], idBase: 0x900))
        try s.git("add", "-A")
        try s.git("commit", "-q", "-m", "other")
        try s.git("checkout", "-q", "main")
        let mainFiles = try Self.onDisk(s)
        #expect(mainFiles["lists/home.json"] == ["Water plants"])

        let w = try s.startWatcher()
        defer { w.stop() }
        Self.expectMessage(w, "rescanned ", after: 0)
        #expect(try Self.listed(s) == mainFiles)

        var mark = w.mark
        try s.git("checkout", "-q", "other")
        Self.expectMessage(w, "reindexed lists/work.json: 3 tasks", after: mark)
        Self.expectMessage(w, "removed lists/home.json", after: mark)
        Self.expectMessage(w, "reindexed lists/garden.json: 1 tasks", after: mark)
        w.waitUntilQuiet(0.2)
        try Self.expectFresh(s, w)
        let otherFiles = try Self.onDisk(s)
        #expect(otherFiles == ["inbox.json": ["Call mom"], "lists/work.json": ["Other A", "Other B", "Other C"], "lists/garden.json": ["Prune roses"]])
        #expect(try Self.listed(s) == otherFiles)

        mark = w.mark
        try s.git("checkout", "-q", "main")
        Self.expectMessage(w, "reindexed lists/work.json: 2 tasks", after: mark)
        Self.expectMessage(w, "removed lists/garden.json", after: mark)
        Self.expectMessage(w, "reindexed lists/home.json: 1 tasks", after: mark)
        w.waitUntilQuiet(0.2)
        try Self.expectFresh(s, w)
        #expect(try Self.listed(s) == mainFiles)
        #expect(!w.log.contains(".git/"), "nothing under .git is reported")
    }

    @Test("(8) broken JSON: one error line with line:column; its last good tasks stay listed with a warning; a fix is picked up")
    func brokenThenFixed() throws {
        let s = try Self.fixture()
        let w = try s.startWatcher()
        defer { w.stop() }
        Self.expectMessage(w, "rescanned ", after: 0)

        let mark = w.mark
        try s.write("lists/work.json", """
        {
          "name": "Work",
          "tasks": [
            {"title": "a" "state": "open"}
          ]
        }

        """)
        let error = Self.expectMessage(w, "error: ", after: mark)
        #expect(error?.hasPrefix("error: store/lists/work.json:4:19: expected ',' or '}'") == true, "\(error ?? "")")
        #expect(error?.hasSuffix("(keeping its last good tasks, marked stale)") == true, "\(error ?? "")")

        let r = try s.tick("list", "--json")
        #expect(r.status == 0)
        let stale = try #require(try JSONSerialization.jsonObject(with: r.stdoutData) as? [[String: Any]])
        #expect(stale.filter { $0.string("file") == "lists/work.json" }.titles == ["Draft the plan", "Review budget"])
        #expect(lines(r.stderr).count == 1)
        #expect(r.stderr.hasPrefix("tick: warning: store/lists/work.json:4:19: expected ',' or '}'"), "\(r.stderr)")
        let st = try s.statusJSON()
        #expect((st["unreadable"] as? [String])?.count == 1)
        #expect((st["unreadable"] as? [String])?.first?.hasPrefix("store/lists/work.json:4:19: ") == true)
        // The watcher's retry is long over; the failure was reported once.
        w.waitUntilQuiet(0.4)

        let fixMark = w.mark
        try s.write("lists/work.json", Self.listFile("Work", ["Fixed one", "Fixed two", "Fixed three"], idBase: 0x210))
        Self.expectMessage(w, "reindexed lists/work.json: 3 tasks", after: fixMark)
        try Self.expectFresh(s, w)
        let fixed = try s.tick("list", "Work", "--json")
        #expect(fixed.status == 0)
        #expect(fixed.stderr == "")
        #expect(try s.json("list", "Work").titles == ["Fixed one", "Fixed two", "Fixed three"])
        #expect(try s.statusJSON()["unreadable"] as? [String] == [])

        let errors = w.messages(after: mark).filter { $0.hasPrefix("error:") }
        #expect(errors.count == 1, "exactly one error line for one broken write: \(errors)")
        #expect(!w.log.contains("Draft the plan"))
    }

    @Test("(9) the store directory removed and created again: the watcher says so, re-establishes, and indexes the new content")
    func storeGoneAndBack() throws {
        let s = try Self.fixture()
        let w = try s.startWatcher()
        defer { w.stop() }
        Self.expectMessage(w, "rescanned ", after: 0)

        var mark = w.mark
        try FileManager.default.removeItem(atPath: s.store)
        Self.expectMessage(w, "store \(s.store) is gone; waiting for it to come back", after: mark)
        // A new store, made elsewhere and moved into place (like a fresh clone or restore).
        let staging = s.root + "/staging"
        try FileManager.default.createDirectory(atPath: staging + "/lists", withIntermediateDirectories: true)
        try Data(Self.listFile(nil, ["New inbox task"], idBase: 0xa00).utf8).write(to: URL(fileURLWithPath: staging + "/inbox.json"))
        try Data(Self.listFile("Fresh", ["Fresh one", "Fresh two"], idBase: 0xb00).utf8).write(to: URL(fileURLWithPath: staging + "/lists/fresh.json"))
        mark = w.mark
        #expect(rename(staging, s.store) == 0)
        Self.expectMessage(w, "watch established on \(s.store) (2 directories)", after: mark)
        Self.expectMessage(w, "rescanned ", after: mark)
        try Self.expectFresh(s, w)
        #expect(try Self.listed(s) == ["inbox.json": ["New inbox task"], "lists/fresh.json": ["Fresh one", "Fresh two"]])
        #expect(try SearchTests.noMatch(s, "plan"), "the old store's tasks are gone")

        // Live changes are seen again.
        mark = w.mark
        try s.write("lists/fresh.json", Self.listFile("Fresh", ["Fresh one", "Fresh two", "Fresh three"], idBase: 0xb00))
        Self.expectMessage(w, "reindexed lists/fresh.json: 3 tasks", after: mark)
        try Self.expectFresh(s, w)

        // Gone again, then recreated in place: mkdir and files written one by one.
        mark = w.mark
        try FileManager.default.removeItem(atPath: s.store)
        Self.expectMessage(w, "store \(s.store) is gone; waiting for it to come back", after: mark)
        mark = w.mark
        let r = try s.sh("""
        mkdir -p store/lists
        printf '%s' '\(Self.listFile(nil, ["Third inbox"], idBase: 0xc00))' > store/inbox.json
        printf '%s' '\(Self.listFile("Third", ["Third one", "Third two"], idBase: 0xd00))' > store/lists/third.json
        """, cwd: s.root)
        #expect(r.status == 0, "\(r)")
        Self.expectMessage(w, "watch established on \(s.store)", after: mark)
        Self.expectMessage(w, "reindexed inbox.json: 1 tasks", after: mark)
        Self.expectMessage(w, "reindexed lists/third.json: 2 tasks", after: mark)
        w.waitUntilQuiet(0.2)
        try Self.expectFresh(s, w)
        #expect(try Self.listed(s) == ["inbox.json": ["Third inbox"], "lists/third.json": ["Third one", "Third two"]])
    }

    @Test("(10) editors', sed's, git's and Syncthing's temp files never produce a log line")
    func tempFilesIgnored() throws {
        let s = try Self.fixture()
        let w = try s.startWatcher()
        defer { w.stop() }
        Self.expectMessage(w, "rescanned ", after: 0)

        let mark = w.mark
        let names = ["4913", ".work.json.swp", ".work.json.swx", "work.json~", "sedAbc123", ".merge_file_x",
                     ".syncthing.work.json.tmp", ".work.json.tick-abc123.tmp", "#work.json#", ".#work.json"]
        for dir in ["", "lists/"] {
            for name in names {
                try s.write(dir + name, #"{"name": "Temp", "tasks": [{"title": "temp"}]}"#)
                try s.write(dir + name, "{ half")
                try FileManager.default.removeItem(atPath: s.path(dir + name))
            }
        }
        try s.write(".stversions/lists/work~20261121-100000.json", #"{"name": "Old", "tasks": []}"#)
        // A real change after them: once it is logged, the temp files' events were seen too.
        try s.write("lists/home.json", Self.listFile("Home", ["Water plants", "Feed cat"], idBase: 0x300))
        Self.expectMessage(w, "reindexed lists/home.json: 2 tasks", after: mark, timeout: 30)
        let after = w.messages(after: mark)
        #expect(after.count == 1 && after.allSatisfy { $0.hasPrefix("reindexed lists/home.json: 2 tasks") }, "\(after)")
        try Self.expectFresh(s, w)
    }

    // MARK: The process

    @Test("(11) a second tick watch on the same store exits non-zero with \"already running\" and the first one's pid")
    func secondWatcherRefused() throws {
        let s = try Self.fixture()
        let w = try s.startWatcher()
        defer { w.stop() }
        #expect((try s.statusJSON()["watcherPid"] as? NSNumber)?.int32Value == w.pid)

        let second = Watcher(try s.start(TickBinary.path, ["watch"]))
        let exited = eventually(timeout: 5) { !second.running.process.isRunning }
        let r = second.stop()
        #expect(exited, "the second watcher must not run")
        #expect(r.status != 0)
        #expect(r.stderr.contains("already running"), "\(r.stderr)")
        #expect(r.stderr.contains("pid \(w.pid)"), "\(r.stderr)")
        #expect(r.stdout == "")
        // The first one is unaffected.
        #expect(w.running.process.isRunning)
        #expect((try s.statusJSON()["watcherPid"] as? NSNumber)?.int32Value == w.pid)
        let mark = w.mark
        try s.write("lists/home.json", Self.listFile("Home", ["Still watched"], idBase: 0x300))
        Self.expectMessage(w, "reindexed lists/home.json: 1 tasks", after: mark)
    }

    @Test("(12) SIGTERM and SIGINT stop the watcher with exit 0 and a stopping line; the lock is released", arguments: [SIGTERM, SIGINT])
    func stopsOnSignal(signal: Int32) throws {
        let s = try Self.fixture()
        let w = try s.startWatcher()
        defer { w.stop() }
        Self.expectMessage(w, "rescanned ", after: 0)
        // Waits for the exit (an issue is recorded if it has not come within the grace).
        let r = w.stop(signal: signal, grace: 30)
        #expect(r.status == 0, "\(r)")
        let name = signal == SIGTERM ? "SIGTERM" : "SIGINT"
        let last = lines(r.stderr).last ?? ""
        #expect(last.range(of: "^[0-9TZ:-]+ stopping \\(\(name)\\)$", options: .regularExpression) != nil, "\(r.stderr)")
        #expect(r.stdout == "")
        let st = try s.statusJSON()
        #expect(st.isNull("watcherPid"))
        // A new watcher can start right away.
        let again = try s.startWatcher()
        defer { again.stop() }
        #expect((try s.statusJSON()["watcherPid"] as? NSNumber)?.int32Value == again.pid)
    }
}
#endif
