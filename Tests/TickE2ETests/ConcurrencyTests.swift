import Foundation
import Testing

/// Many tick processes writing to one store at once.
@Suite("concurrency")
struct ConcurrencyTests {
    @Test("8 concurrent shell loops of 50 `tick add` each leave exactly 400 tasks, valid and distinct")
    func concurrentAdds() throws {
        let s = try Sandbox()
        let processes = 8
        let perProcess = 50
        var running: [Sandbox.Running] = []
        for p in 1...processes {
            // Each loop stops at the first failure and reports it through its exit status.
            let loop = "for i in $(seq \(perProcess)); do \"$TICK\" add task-\(p)-$i >/dev/null || exit 1; done"
            running.append(try s.start("/bin/sh", ["-c", loop]))
        }
        for (i, r) in running.enumerated() {
            let result = try r.wait()
            #expect(result.status == 0, "loop \(i + 1): \(result)")
        }

        // Only the inbox, no leftover temp files.
        #expect(s.storeFiles() == ["inbox.json"])
        let tasks = try s.tasks("inbox.json")
        #expect(tasks.count == processes * perProcess)
        let ids = tasks.compactMap { $0.string("id") }
        #expect(ids.count == processes * perProcess)
        #expect(Set(ids).count == processes * perProcess, "400 distinct ids")
        #expect(ids.allSatisfy(isLowercaseUUID))

        var counts: [String: Int] = [:]
        for t in tasks.titles { counts[t, default: 0] += 1 }
        var expected: [String: Int] = [:]
        for p in 1...processes { for i in 1...perProcess { expected["task-\(p)-\(i)"] = 1 } }
        #expect(counts == expected, "every title exactly once")

        // Each loop's own tasks are in the order it added them.
        for p in 1...processes {
            let mine = tasks.titles.filter { $0.hasPrefix("task-\(p)-") }
            #expect(mine == (1...perProcess).map { "task-\(p)-\($0)" })
        }

        // The short ids are 1...400, without gaps or duplicates.
        let listed = try s.json("list")
        #expect(listed.count == processes * perProcess)
        #expect(Set(listed.compactMap { $0.int("shortId") }) == Set(1...(processes * perProcess)))
    }

    @Test("concurrent done and add on one file, with readers: every change lands, readers never see a torn file")
    func mixedWritersAndReaders() throws {
        let s = try Sandbox()
        let input = (1...100).map { "old-\($0)" }.joined(separator: "\n") + "\n"
        #expect(try s.tick("add", "-", stdin: input).status == 0)
        let ids = try s.tasks("inbox.json").compactMap { $0.string("id") }
        #expect(ids.count == 100)

        var running: [Sandbox.Running] = []
        // 4 loops complete 25 tasks each, by full UUID (short ids move while others work).
        for p in 0..<4 {
            let mine = ids[(p * 25)..<((p + 1) * 25)].joined(separator: " ")
            running.append(try s.start("/bin/sh", ["-c", "for id in \(mine); do \"$TICK\" done \"$id\" >/dev/null || exit 1; done"]))
        }
        // 4 loops add 25 tasks each.
        for p in 1...4 {
            running.append(try s.start("/bin/sh", ["-c", "for i in $(seq 25); do \"$TICK\" add new-\(p)-$i >/dev/null || exit 1; done"]))
        }
        // 2 readers: a view of the inbox fails (exit 4) or warns if it ever reads half a file.
        for _ in 1...2 {
            running.append(try s.start("/bin/sh", ["-c", """
            for i in $(seq 40); do
              err=$("$TICK" inbox --all --json 2>&1 >/dev/null) || { echo "exit $?: $err" >&2; exit 1; }
              [ -z "$err" ] || { echo "$err" >&2; exit 1; }
            done
            """]))
        }
        for r in running {
            let result = try r.wait()
            #expect(result.status == 0, "\(result)")
        }

        let tasks = try s.tasks("inbox.json")
        #expect(tasks.count == 200)
        #expect(Set(tasks.compactMap { $0.string("id") }).count == 200)
        let old = tasks.filter { ($0.string("title") ?? "").hasPrefix("old-") }
        let new = tasks.filter { ($0.string("title") ?? "").hasPrefix("new-") }
        #expect(old.count == 100 && new.count == 100)
        #expect(old.allSatisfy { $0.string("state") == "done" && $0.string("completedAt") == pinnedNow })
        #expect(new.allSatisfy { $0.string("state") == "open" && $0["completedAt"] == nil })
        // The original order is kept: tick never reorders on its own.
        #expect(old.titles == (1...100).map { "old-\($0)" })
        #expect(s.storeFiles() == ["inbox.json"])
        // The 100 pending tasks hold 100 distinct short ids. Which numbers
        // depends on how adds and dones interleave (a new task takes the
        // smallest number free at that moment), but none can exceed the
        // number of tasks that were ever pending at once plus those added.
        let shortIDs = try s.json("list").compactMap { $0.int("shortId") }
        #expect(shortIDs.count == 100)
        #expect(Set(shortIDs).count == 100)
        #expect(shortIDs.allSatisfy { (1...200).contains($0) })
    }
}
