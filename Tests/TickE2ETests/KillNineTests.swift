import Foundation
import Testing

/// Write commands killed with SIGKILL at random points (hardening issue,
/// "kill -9 at random points"): whatever the moment, every store file stays
/// valid JSON, a command that exited 0 is never undone by a later kill, a task
/// caught mid-`mv` is one task again after the next write, and no temp file is
/// left in the store once another write has run.
///
/// CI runs `TICK_TORTURE_ROUNDS` rounds (default 150); `scripts/torture.sh kill
/// SECONDS` runs for as long as asked. `TICK_TORTURE_SEED` replays a run.
@Suite("kill -9 at random points")
struct KillNineTests {
    /// What is known about one task: it certainly exists (its add exited 0), the lists it
    /// may be in (more than one after a killed `mv`), and facts no later command can undo.
    struct Known {
        var prefix: String
        var lists: Set<String>
        var mustBeDone = false
        var tags: Set<String> = []
        /// `rm` was tried: the task is gone when it exited 0, may be gone when killed.
        var removal: Removal = .none
        enum Removal { case none, maybe, certain }
    }

    @Test("random write commands killed at random moments: files stay valid, acknowledged changes stay, nothing is split or left behind")
    func killNine() throws {
        let budget = TortureBudget(defaultSeed: 9_001, defaultRounds: 150)
        let seed = budget.seed
        var rng = SplitMix(seed: seed)
        let s = try Sandbox()
        let lists = ["inbox", "A", "B"]
        try s.ok("lists", "add", "A")
        try s.ok("lists", "add", "B")
        var known: [String: Known] = [:]
        var next = 0
        func add(_ title: String, to list: String) throws {
            try s.ok("add", title, "list:\(list)")
            known[title] = Known(prefix: try s.uuidPrefix(title), lists: [list])
        }
        for list in lists {
            for _ in 0..<3 {
                try add("seed\(next)", to: list)
                next += 1
            }
        }
        // Kill moments spread over a whole command: calibrate on one that runs to the end
        // (the time only spreads the kills; no assertion depends on it).
        let started = DispatchTime.now().uptimeNanoseconds
        try s.ok("edit", known["seed0"]?.prefix ?? "1", "+calibrate")
        known["seed0"]?.tags.insert("calibrate")
        let span = max(Int((DispatchTime.now().uptimeNanoseconds - started) / 1000) * 5 / 4, 5_000)
        var killed = 0, finished = 0, round = 0
        while budget.allows(after: round) {
            round += 1
            if known.values.filter({ $0.removal == .none }).count < 6 {
                try add("more\(next)", to: lists[rng.int(lists.count)])
                next += 1
            }
            let live = known.filter { $0.value.removal == .none }.keys.sorted()
            guard let title = live.isEmpty ? nil : live[rng.int(live.count)], var task = known[title] else { break }
            let target = lists[rng.int(lists.count)]
            let args: [String]
            let roll = rng.int(100)
            var newTitle: String?
            switch roll {
            case 0..<25:
                newTitle = "k\(next)"
                next += 1
                args = ["add", newTitle ?? "", "list:\(target)"]
            case 25..<45: args = ["mv", task.prefix, target]
            case 45..<65: args = ["done", task.prefix]
            case 65..<95: args = ["edit", task.prefix, "+t\(rng.int(5))"]
            default: args = ["rm", task.prefix]
            }
            let running = try s.start(TickBinary.path, args)
            usleep(UInt32(rng.int(span)))
            kill(running.process.processIdentifier, SIGKILL)
            let r = try running.wait(expectedSignal: SIGKILL)
            let acknowledged = r.status == 0
            if acknowledged { finished += 1 } else if r.status == 128 + SIGKILL { killed += 1 } else {
                Issue.record("round \(round) (seed \(seed)): tick \(args.joined(separator: " ")) failed: \(r)")
            }
            switch args[0] {
            case "add":
                // A killed add may or may not have landed: only a finished one is tracked.
                if acknowledged, let newTitle { known[newTitle] = Known(prefix: try s.uuidPrefix(newTitle), lists: [target]) }
            case "mv":
                task.lists = acknowledged ? [target] : task.lists.union([target])
            case "done":
                if acknowledged { task.mustBeDone = true }
            case "edit":
                if acknowledged, let tag = args.last { task.tags.insert(String(tag.dropFirst())) }
            default:
                task.removal = acknowledged ? .certain : .maybe
            }
            if args[0] != "add" { known[title] = task }
            // Whatever the moment of the kill, every file is valid JSON with a tasks array.
            for rel in storeTaskFiles(s) {
                #expect((try? s.tasks(rel)) != nil, "round \(round) (seed \(seed)): \(rel) is not a valid task file after a kill during tick \(args.joined(separator: " "))")
            }
        }
        // The next write of each file joins what an interrupted mv split and sweeps temps.
        try s.ok("resolve", "--quiet")
        try s.ok("add", "after", "list:A")
        try s.ok("add", "after", "list:B")
        try s.ok("add", "after")
        var seen: [String: [String]] = [:]
        var byTitle: [String: (list: String, task: [String: Any])] = [:]
        for rel in storeTaskFiles(s) {
            let list = rel == "inbox.json" ? "inbox" : String(rel.dropFirst("lists/".count).dropLast(".json".count)).uppercased()
            for t in try s.tasks(rel) {
                seen[t.string("id") ?? "", default: []].append(rel)
                if let title = t.string("title") { byTitle[title] = (list, t) }
            }
        }
        let split = seen.filter { $0.value.count > 1 }
        #expect(split.isEmpty, "seed \(seed): tasks in several files after the next write: \(split)")
        let litter = s.storeFiles().filter { $0.hasSuffix(".tmp") }
        #expect(litter.isEmpty, "seed \(seed): temp files left in the store: \(litter)")
        for (title, task) in known.sorted(by: { $0.key < $1.key }) {
            guard let found = byTitle[title] else {
                #expect(task.removal != .none, "seed \(seed): \(title) was lost (no rm was tried on it)")
                continue
            }
            #expect(task.removal != .certain, "seed \(seed): \(title) was removed (rm exited 0) and is back")
            #expect(task.lists.contains(found.list), "seed \(seed): \(title) is in \(found.list), expected one of \(task.lists.sorted())")
            if task.mustBeDone {
                #expect(found.task.string("state") == "done", "seed \(seed): \(title) lost its acknowledged completion")
            }
            let tags = Set(found.task.tagList ?? [])
            #expect(task.tags.isSubset(of: tags), "seed \(seed): \(title) lost tags \(task.tags.subtracting(tags).sorted())")
        }
        // Some commands must have been caught mid-way, or the test proves nothing.
        #expect(killed > 0, "no command was killed in \(round) rounds")
        #expect(finished > 0, "no command finished in \(round) rounds")
        print("kill -9 (seed \(seed)): \(round) rounds, \(killed) killed, \(finished) finished, \(known.count) tasks checked")
    }

    /// The inbox and every list file, relative to the store.
    func storeTaskFiles(_ s: Sandbox) -> [String] {
        s.storeFiles().filter { $0 == "inbox.json" || ($0.hasPrefix("lists/") && $0.hasSuffix(".json") && !$0.dropFirst(6).hasPrefix(".")) }
    }
}
