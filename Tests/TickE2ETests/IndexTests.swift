import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The index: a disposable SQLite cache outside the store that every command
/// brings up to date by itself (no watcher needed), rebuilt silently when
/// damaged or outdated; `tick reindex`; `tick status`.
@Suite("index")
struct IndexTests {
    /// Inbox: 2 tasks; Home: 1 task; Work: 2 tasks. Added in display order, so
    /// the short ids are 1...5 in display order (as a rebuilt index numbers them).
    static func fixture() throws -> Sandbox {
        let s = try Sandbox()
        try s.ok("lists", "add", "Work")
        try s.ok("lists", "add", "Home")
        try s.add("Buy milk", "+errand")
        try s.add("Call mom")
        try s.add("Water plants", "list:Home")
        try s.add("Draft the plan", "list:Work")
        try s.add("Review budget", "list:Work", "+q4")
        return s
    }

    /// Runs `sqlite3 DB SQL`; returns its stdout.
    static func sqlite(_ s: Sandbox, _ sql: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let r = try s.run("/usr/bin/env", ["sqlite3", s.indexPath, sql])
        #expect(r.status == 0, "sqlite3 \(sql): \(r)", sourceLocation: sourceLocation)
        return r.stdout
    }

    // MARK: Where it lives, and freshness without a watcher

    @Test("the index is $XDG_CACHE_HOME/tick/<store-key>/index.sqlite; nothing of it is ever in the store")
    func location() throws {
        let s = try Self.fixture()
        try s.ok("search", "milk")
        try s.ok("reindex")
        #expect(FileManager.default.fileExists(atPath: s.indexPath))
        #expect(s.storeFiles() == ["inbox.json", "lists/home.json", "lists/work.json"])
        #expect(try s.statusJSON().string("index") == s.indexPath)
        #expect(try s.statusJSON().string("store") == s.store)
        #expect(try Self.sqlite(s, "SELECT count(*) FROM tasks") == "5\n")
    }

    @Test("without a watcher, a sed -i hand edit shows up in the next list and search; status sees it as stale once")
    func handEditWithoutWatcher() throws {
        let s = try Self.fixture()
        #expect(try s.json("search", "draft").titles == ["Draft the plan"])
        try s.sed("-i", #"s/"title": "Draft the plan"/"title": "Draft the zeppelin route"/"#, "lists/work.json")
        try s.sed("-i", #"s/"title": "Water plants"/"title": "Water plants",\n      "notes": "the fern needs misting"/"#, "lists/home.json")

        let st = try s.statusJSON()
        #expect(st["indexWasFresh"] as? Bool == false)
        #expect(st["staleFiles"] as? [String] == ["lists/home.json", "lists/work.json"])
        #expect(st.int("tasks") == 5, "status answers after bringing the index up to date")
        let again = try s.statusJSON()
        #expect(again["indexWasFresh"] as? Bool == true)
        #expect(again["staleFiles"] as? [String] == [])

        try s.sed("-i", "s/zeppelin route/zeppelin plan/", "lists/work.json")
        #expect(try s.json("search", "zeppelin").titles == ["Draft the zeppelin plan"])
        #expect(try SearchTests.noMatch(s, "route"))
        #expect(try s.json("search", "misting").titles == ["Water plants"])
        #expect(try s.json("list", "Work").titles == ["Draft the zeppelin plan", "Review budget"])

        // A list file deleted by hand is gone at once; one made by hand is there at once.
        try FileManager.default.removeItem(atPath: s.path("lists/home.json"))
        #expect(try SearchTests.noMatch(s, "water"))
        try s.write("lists/garden.json", #"{"name": "Garden", "tasks": [{"title": "Water the roses"}]}"#)
        #expect(try s.json("search", "water").titles == ["Water the roses"])
        #expect(try s.json("lists").compactMap { $0.string("file") } == ["inbox.json", "lists/garden.json", "lists/work.json"])
        // A tick write leaves the index fresh.
        try s.add("Another")
        #expect(try s.statusJSON()["indexWasFresh"] as? Bool == true)
    }

    @Test("a change that keeps the size (same-length title) is still seen")
    func sameSizeEdit() throws {
        let s = try Self.fixture()
        #expect(try s.json("search", "budget").count == 1)
        let before = try s.bytes("lists/work.json").count
        // Rewrite in place (same inode, same size), as an editor writing over the file would.
        let text = try s.text("lists/work.json").replacingOccurrences(of: "Review budget", with: "Review gadget")
        let handle = try #require(FileHandle(forWritingAtPath: s.path("lists/work.json")))
        try handle.write(contentsOf: Data(text.utf8))
        try handle.close()
        #expect(try s.bytes("lists/work.json").count == before)
        #expect(try s.json("search", "gadget").titles == ["Review gadget"])
        #expect(try SearchTests.noMatch(s, "budget"))
    }

    // MARK: Damaged, outdated or unusable

    @Test("a damaged or outdated index is rebuilt silently: exit 0, the same output, empty stderr", arguments: [
        "garbage", "half", "empty", "user_version 99", "wal garbage",
    ])
    func damagedIndexRebuilt(damage: String) throws {
        let s = try Self.fixture()
        let list = try s.tick("list")
        let search = try s.tick("search", "milk", "--json")
        #expect(list.status == 0 && search.status == 0)
        let index = s.indexPath
        switch damage {
        case "garbage":
            var rng = SystemRandomNumberGenerator()
            let bytes = (0..<16384).map { _ in UInt8.random(in: 0...255, using: &rng) }
            try Data(bytes).write(to: URL(fileURLWithPath: index))
        case "half":
            let d = try Data(contentsOf: URL(fileURLWithPath: index))
            try d.prefix(d.count / 2).write(to: URL(fileURLWithPath: index))
        case "empty":
            try Data().write(to: URL(fileURLWithPath: index))
        case "user_version 99":
            _ = try Self.sqlite(s, "PRAGMA user_version = 99")
        case "wal garbage":
            try Data(repeating: 0x5a, count: 8192).write(to: URL(fileURLWithPath: index + "-wal"))
        default:
            Issue.record("unknown damage \(damage)")
        }
        let list2 = try s.tick("list")
        #expect(list2.status == 0)
        #expect(list2.stdout == list.stdout)
        #expect(list2.stderr == "")
        let search2 = try s.tick("search", "milk", "--json")
        #expect(search2.status == 0)
        #expect(search2.stdout == search.stdout)
        #expect(search2.stderr == "")
        // The rebuilt index is a real one again, and current.
        let st = try s.statusJSON()
        #expect(st.string("index") == index)
        #expect(st["indexWasFresh"] as? Bool == true)
        #expect(st.int("tasks") == 5)
        #expect(try Self.sqlite(s, "PRAGMA user_version") != "99\n")
        #expect(try Self.sqlite(s, "SELECT count(*) FROM tasks") == "5\n")
    }

    @Test("an index with the current version but a table missing is rebuilt silently too")
    func missingTableRebuilt() throws {
        let s = try Self.fixture()
        let list = try s.tick("list")
        _ = try Self.sqlite(s, "DROP TABLE depends")
        let r = try s.tick("list")
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout == list.stdout)
        #expect(r.stderr == "")
    }

    @Test("the cache directory deleted: the next command rebuilds the index, and every short id stays as it was")
    func cacheDeleted() throws {
        let s = try Self.fixture()
        try s.ok("done", "1")
        #expect(try s.json("list").compactMap { $0.int("shortId") } == [2, 3, 4, 5])
        try FileManager.default.removeItem(atPath: s.cacheHome + "/tick")
        let r = try s.tick("list", "--json")
        #expect(r.status == 0)
        #expect(r.stderr == "")
        #expect(try s.json("list").compactMap { $0.int("shortId") } == [2, 3, 4, 5])
        #expect(FileManager.default.fileExists(atPath: s.indexPath))
    }

    @Test("an unusable cache directory (XDG_CACHE_HOME is a regular file): the index moves to the state directory, silently")
    func unusableCacheFallsBack() throws {
        let s = try Self.fixture()
        let blocker = s.root + "/not-a-directory"
        try Data("x".utf8).write(to: URL(fileURLWithPath: blocker))
        let env: [String: String?] = ["XDG_CACHE_HOME": blocker]
        let list = try s.tick(["list", "--json"], env: env)
        #expect(list.status == 0, "\(list)")
        #expect(list.stderr == "")
        let listed = try #require(try JSONSerialization.jsonObject(with: list.stdoutData) as? [[String: Any]])
        #expect(listed.titles == ["Buy milk", "Call mom", "Water plants", "Draft the plan", "Review budget"])
        let search = try s.tick(["search", "milk"], env: env)
        #expect(search.status == 0 && search.stderr == "")
        #expect(search.stdout == "  1 [ ] Buy milk  @Inbox  +errand\n")
        let add = try s.tick(["add", "Fresh", "task"], env: env)
        #expect(add.status == 0 && add.stderr == "")
        #expect(try s.tasks("inbox.json").titles == ["Buy milk", "Call mom", "Fresh task"])
        let st = try s.statusJSON(env: env)
        #expect(st.string("index") == s.stateHome + "/tick/" + s.storeKey + "/index.sqlite")
        #expect(st.int("tasks") == 6)
        #expect(try Data(contentsOf: URL(fileURLWithPath: blocker)) == Data("x".utf8), "the blocking file is left alone")
    }

    @Test("with the fallback index, the short id that add prints names that task in the next command")
    func inMemoryShortIDsStable() throws {
        let s = try Self.fixture()
        let blocker = s.root + "/not-a-directory"
        try Data("x".utf8).write(to: URL(fileURLWithPath: blocker))
        let env: [String: String?] = ["XDG_CACHE_HOME": blocker]
        let add = try s.tick(["add", "Fresh", "task"], env: env)
        #expect(add.status == 0)
        let n = add.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let show = try s.tick(["show", n, "--json"], env: env)
        #expect(show.status == 0)
        let shown = try JSONSerialization.jsonObject(with: show.stdoutData) as? [String: Any]
        #expect(shown?["title"] as? String == "Fresh task", "tick show \(n) after `tick add` printed \(n)")
    }

    // MARK: tick reindex

    @Test("tick reindex prints `Indexed N tasks in M lists (K files) in X ms`, and no progress bar when stderr is not a TTY")
    func reindexReport() throws {
        let s = try Self.fixture()
        try s.ok("done", "2")
        let r = try s.tick("reindex")
        #expect(r.status == 0)
        #expect(r.stdout.range(of: #"^Indexed 5 tasks in 2 lists \(3 files\) in [0-9]+ ms\n$"#, options: .regularExpression) != nil, "\(r.stdout)")
        #expect(r.stderr == "")
        // An empty store.
        let empty = try Sandbox()
        let e = try empty.tick("reindex")
        #expect(e.status == 0)
        #expect(e.stdout.range(of: #"^Indexed 0 tasks in 0 lists \(0 files\) in [0-9]+ ms\n$"#, options: .regularExpression) != nil, "\(e.stdout)")
        #expect(e.stderr == "")
    }

    @Test("a cold tick reindex (no index yet) reports every task and file, like a warm one, and leaves a usable index")
    func coldReindexReport() throws {
        let s = try Self.fixture()
        try FileManager.default.removeItem(atPath: s.cacheHome + "/tick")
        let r = try s.tick("reindex")
        #expect(r.status == 0)
        #expect(r.stdout.range(of: #"^Indexed 5 tasks in 2 lists \(3 files\) in [0-9]+ ms\n$"#, options: .regularExpression) != nil, "\(r.stdout)")
        #expect(r.stderr == "")
        #expect(try Self.sqlite(s, "SELECT count(*) FROM tasks") == "5\n")
        #expect(try s.statusJSON()["indexWasFresh"] as? Bool == true)
    }

    #if os(Linux)
    @Test("tick reindex shows a progress bar when it runs on a terminal", .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func reindexProgressOnTTY() throws {
        let s = try Self.fixture()
        // util-linux script(1) gives the command a pseudo-terminal for stdout and stderr.
        let r = try s.run("/usr/bin/script", ["-qec", "\"$TICK\" reindex", "/dev/null"])
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("] 3/3 files"), "\(r.stdout)")
        #expect(r.stdout.contains("[" + String(repeating: "#", count: 30) + "]"), "\(r.stdout)")
        #expect(r.stdout.contains("Indexed 5 tasks in 2 lists (3 files) in "))
        // Cold: the build that opening the index does shows the same bar.
        try FileManager.default.removeItem(atPath: s.cacheHome + "/tick")
        let cold = try s.run("/usr/bin/script", ["-qec", "\"$TICK\" reindex", "/dev/null"])
        #expect(cold.status == 0, "\(cold)")
        #expect(cold.stdout.contains("] 3/3 files"), "\(cold.stdout)")
        #expect(cold.stdout.contains("Indexed 5 tasks in 2 lists (3 files) in "))
    }
    #endif

    @Test("tick reindex keeps every short id (they are state, not cache); a fresh state directory numbers 1...n in display order")
    func reindexKeepsNumbers() throws {
        let s = try Sandbox()
        try s.add("A")                       // 1
        try s.add("B")                       // 2
        try s.ok("lists", "add", "Work")
        try s.add("W1", "list:Work")         // 3
        try s.ok("done", "1")                // 1 is held for a day
        try s.ok("lists", "add", "Alpha")
        try s.add("X1", "list:Alpha")        // 4 (smallest free)
        try s.add("C")                       // 5
        let before = try s.json("list")
        #expect(before.titles == ["B", "C", "X1", "W1"])
        #expect(before.compactMap { $0.int("shortId") } == [2, 5, 4, 3])
        let r = try s.tick("reindex")
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("Indexed 5 tasks in 2 lists (3 files) in "), "\(r.stdout)")
        let after = try s.json("list")
        #expect(after.titles == ["B", "C", "X1", "W1"])
        #expect(after.compactMap { $0.int("shortId") } == [2, 5, 4, 3])
        #expect(try s.ok("done", "4") == "Completed 4 (\(try s.uuidPrefix("X1"))): X1\n")
        // Another machine (its own state directory) numbers in display order.
        let other = try s.tick("list", "--json", env: ["XDG_STATE_HOME": s.root + "/state2", "XDG_CACHE_HOME": s.root + "/cache2"])
        let fresh = try #require(try JSONSerialization.jsonObject(with: other.stdoutData) as? [[String: Any]])
        #expect(fresh.titles == ["B", "C", "W1"])
        #expect(fresh.compactMap { $0.int("shortId") } == [1, 2, 3])
    }

    // MARK: tick status

    @Test("tick status --json: store, counts, index path, freshness, no watcher, no unreadable files")
    func statusJSON() throws {
        let s = try Self.fixture()
        try s.ok("done", "1")
        let st = try s.statusJSON()
        #expect(Set(st.keys) == ["store", "tasks", "lists", "index", "indexWasFresh", "staleFiles", "watcherPid", "nextReminder", "missedReminders", "unreadable", "conflicts", "inSeveralLists", "archivedTasks", "archiveFiles", "atomicExchange"])
        // The test's temp directory can exchange files (the race tests need it too),
        // in the static release build as well as the debug build (issue 25).
        #expect(st["atomicExchange"] as? Bool == true)
        #expect(st.int("archivedTasks") == 0 && st.int("archiveFiles") == 0)
        #expect((st["conflicts"] as? [Any])?.isEmpty == true)
        #expect(st["inSeveralLists"] as? [String] == [])
        #expect(st.string("store") == s.store)
        #expect(st.int("tasks") == 5)
        #expect(st.int("lists") == 2)
        #expect(st.string("index") == s.indexPath)
        #expect(st["indexWasFresh"] as? Bool == true)
        #expect(st["staleFiles"] as? [String] == [])
        #expect(st.isNull("watcherPid"))
        #expect(st["unreadable"] as? [String] == [])
        // Reading never writes to the store.
        let before = try s.fingerprint()
        _ = try s.statusJSON()
        try s.ok("status")
        #expect(try s.fingerprint() == before)
    }

    @Test("tick status (text): the same facts, one per line")
    func statusText() throws {
        let s = try Self.fixture()
        try s.sed("-i", "s/Call mom/Call dad/", "inbox.json")
        let r = try s.tick("status")
        #expect(r.status == 0)
        #expect(r.stderr == "")
        #expect(r.stdout == """
        store     \(s.store)
        tasks     5 in 2 list(s) and the inbox
        index     \(s.indexPath)
                  was stale (1 file(s) changed); updated now: inbox.json
        writes    atomic exchange (renameat2): saves never overwrite an editor's save unseen
        watcher   not running (commands still check the files themselves)
        files     all readable

        """)
        #expect(try s.tick("status").stdout.contains("\n          was fresh\n"))
    }

    @Test("tick status lists unreadable files with line:column, in text and --json, and exits 0")
    func statusUnreadable() throws {
        let s = try Self.fixture()
        try s.write("lists/broken.json", "{\n  \"name\": \"Broken\",\n  \"tasks\": [\n    {\"title\": \"a\" \"state\": \"open\"}\n  ]\n}\n")
        let r = try s.tick("status", "--json")
        #expect(r.status == 0)
        let st = try #require(try JSONSerialization.jsonObject(with: r.stdoutData) as? [String: Any])
        let unreadable = try #require(st["unreadable"] as? [String])
        #expect(unreadable.count == 1)
        #expect(unreadable.first?.hasPrefix("store/lists/broken.json:4:19: expected ',' or '}'") == true, "\(unreadable)")
        #expect(st.int("tasks") == 5)
        let text = try s.tick("status")
        #expect(text.status == 0)
        #expect(text.stdout.contains("\nfiles     1 unreadable:\n          store/lists/broken.json:4:19: expected ',' or '}'"), "\(text.stdout)")
        // Fixed by hand: readable again.
        try s.sed("-i", #"s/"a" "state"/"a", "state"/"#, "lists/broken.json")
        #expect(try s.statusJSON()["unreadable"] as? [String] == [])
        #expect(try s.statusJSON().int("lists") == 3)
    }

    @Test("tick status on a default store that does not exist yet: zeros, and it does not create the store")
    func statusEmpty() throws {
        let s = try Sandbox(setsStore: false)
        let st = try s.statusJSON()
        #expect(st.int("tasks") == 0)
        #expect(st.int("lists") == 0)
        #expect(st["unreadable"] as? [String] == [])
        #expect(st.string("store") == s.dataHome + "/tick")
        #expect(!FileManager.default.fileExists(atPath: s.dataHome + "/tick"))
    }
}
