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
}
