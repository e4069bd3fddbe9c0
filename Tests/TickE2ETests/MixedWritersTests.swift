import Foundation
import Testing

/// Concurrent mixed writers with the watcher running and an editor saving
/// (hardening issue, "concurrent writers + watcher"): six shell loops move,
/// tag, complete and add their own tasks across lists while `tick watch` runs
/// and an editor saves one of the lists every 50 ms. Every command must exit 0,
/// and at the end every change that was acknowledged is in the store, each
/// task exactly once, and every editor save is kept.
///
/// CI runs `TICK_TORTURE_ROUNDS` steps per writer (default 12);
/// `scripts/torture.sh writers SECONDS` repeats sessions for as long as asked.
@Suite("concurrent writers with the watcher and an editor")
struct MixedWritersTests {
    struct Expected {
        var list: String
        var done = false
        var tags: Set<String> = []
    }

    @Test("6 writers, the watcher and an editor at once: no change lost, no task twice, every save kept")
    func mixedWriters() throws {
        let budget = TortureBudget(defaultSeed: 77, defaultRounds: 12)
        var session = 0
        repeat {
            session += 1
            try runSession(steps: budget.rounds, seed: budget.seed &+ UInt64(session))
        } while budget.deadline.map { Date() < $0 } ?? false
    }

    func runSession(steps: Int, seed: UInt64) throws {
        var rng = SplitMix(seed: seed)
        let s = try Sandbox()
        let lists = ["inbox", "A", "B", "C"]
        for list in lists.dropFirst() { try s.ok("lists", "add", list) }
        let writers = 6
        var expected: [String: Expected] = [:]
        var scripts: [String] = []
        for w in 0..<writers {
            var script = "set -u\n"
            var mine: [(title: String, prefix: String)] = []
            for k in 0..<3 {
                let title = "w\(w)-\(k)"
                try s.ok("add", title)
                mine.append((title, try s.uuidPrefix(title)))
                expected[title] = Expected(list: "inbox")
            }
            func run(_ args: String) {
                script += "\"$TICK\" \(args) >/dev/null || { echo \"failed: tick \(args)\" >&2; exit 1; }\n"
            }
            for step in 0..<steps {
                let (title, prefix) = mine[rng.int(mine.count)]
                let list = lists[rng.int(lists.count)]
                switch rng.int(4) {
                case 0:
                    run("mv \(prefix) \(list)")
                    expected[title]?.list = list
                case 1:
                    run("edit \(prefix) +w\(w)s\(step)")
                    expected[title]?.tags.insert("w\(w)s\(step)")
                case 2:
                    run("done \(prefix)")
                    expected[title]?.done = true
                default:
                    let new = "w\(w)-new\(step)"
                    run("add \(new) list:\(list)")
                    expected[new] = Expected(list: list)
                }
            }
            scripts.append(script)
        }
        let watcher = try s.startWatcher()
        defer { watcher.stop() }
        let python = try #require(RaceEditorTests.python, "python3 is needed for the editor")
        let editorPath = s.root + "/editor.py"
        try Data(RaceEditorTests.editor.utf8).write(to: URL(fileURLWithPath: editorPath))
        let log = s.root + "/editor.log"
        let editor = try s.start(python, [editorPath, s.path("lists/a.json"), "40", "0.05", log, s.root + "/editor.done"])
        let running = try scripts.map { try s.start("/bin/sh", ["-c", $0]) }
        for (w, r) in running.enumerated() {
            let result = try r.wait()
            #expect(result.status == 0, "seed \(seed), writer \(w): \(result.stderr)")
        }
        let editorResult = try editor.wait()
        #expect(editorResult.status == 0, "seed \(seed), editor: \(editorResult)")
        let stopped = watcher.stop()
        #expect(!stopped.stderr.contains("error"), "seed \(seed): the watcher logged an error: \(stopped.stderr)")

        // What an editor save resurrected (a task moved away meanwhile) is joined by the next write.
        try s.ok("resolve", "--quiet")
        var found: [String: [(list: String, task: [String: Any])]] = [:]
        for rel in s.storeFiles() where rel == "inbox.json" || (rel.hasPrefix("lists/") && rel.hasSuffix(".json")) {
            let list = rel == "inbox.json" ? "inbox" : String(rel.dropFirst(6).dropLast(5)).uppercased()
            for t in try s.tasks(rel) { found[t.string("title") ?? "", default: []].append((list, t)) }
        }
        for (title, want) in expected.sorted(by: { $0.key < $1.key }) {
            let copies = found[title] ?? []
            #expect(copies.count == 1, "seed \(seed): \(title) is in the store \(copies.count) times (\(copies.map(\.list)))")
            guard let got = copies.first else { continue }
            #expect(got.list == want.list, "seed \(seed): \(title) is in \(got.list), expected \(want.list)")
            #expect((got.task.string("state") == "done") == want.done, "seed \(seed): \(title) state \(got.task.string("state") ?? "?")")
            let tags = Set(got.task.tagList ?? [])
            #expect(want.tags.isSubset(of: tags), "seed \(seed): \(title) lost tags \(want.tags.subtracting(tags).sorted())")
        }
        let file = try s.file("lists/a.json")
        let saves = lines(String(decoding: FileManager.default.contents(atPath: log) ?? Data(), as: UTF8.self))
        let lost = saves.filter { save in
            guard let n = Int(save.dropFirst("editor-".count)) else { return true }
            return file["x-editor-\(n)"] as? Int != n || (n % 8 == 0 && found[save] == nil)
        }
        #expect(saves.count == 40 && lost.isEmpty, "seed \(seed): \(lost.count) of \(saves.count) editor saves lost: \(lost.prefix(8))")
        #expect(s.storeFiles().filter { $0.hasSuffix(".tmp") }.isEmpty, "seed \(seed): temp files left")
        print("mixed writers (seed \(seed)): \(writers) writers × \(steps) steps, \(expected.count) tasks, \(saves.count) editor saves, \(lost.count) lost")
    }
}
