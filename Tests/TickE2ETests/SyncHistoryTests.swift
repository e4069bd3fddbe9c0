import Foundation
import Testing

/// The oracle of "sync without loss" (issue 11, Docs/MERGE.md), checked on
/// random two-machine histories through the real CLI: every history is
/// synced through real git (merge or `pull --rebase`, either machine first,
/// then `tick resolve` as the post-merge hook runs it) and, separately,
/// through Syncthing-style conflict copies (no base, `tick resolve`), both
/// ways round. Checked: no conflict markers, every file parses, the two git
/// clones are byte-identical, no task is in two files, git and the conflict
/// copies give the same tasks, every change either machine made is there
/// unless a later change of the same field (or a later deletion) replaced it,
/// and each list's order keeps every task's latest placement (a reorder or a
/// move into the list) however the other machine edited the task meanwhile.
///
/// `TICK_SYNC_HISTORIES` sets how many histories run (default 1000; the
/// longer run is `scripts/sync-histories.sh`, 10,000).
@Suite(.serialized) struct SyncHistoryTests {
    static let total = Int(ProcessInfo.processInfo.environment["TICK_SYNC_HISTORIES"] ?? "") ?? 1000
    static let batches = 4

    @Test("random two-machine histories keep every change, through git and through conflict copies alike",
          arguments: 0..<batches)
    func histories(batch: Int) throws {
        let per = max(1, Self.total / Self.batches)
        let template = try HistoryTemplate()
        if let seeds = ProcessInfo.processInfo.environment["TICK_SYNC_SEED"] {
            // Replays histories (a failure's message prints its seed): "5" or "4-5".
            let bounds = seeds.split(separator: "-").compactMap { UInt64($0) }
            if batch == 0, let low = bounds.first {
                for seed in low...(bounds.last ?? low) { try SyncHistory(seed: seed, template: template).check() }
            }
            return
        }
        for i in 0..<per {
            let seed = UInt64(batch * per + i)
            try SyncHistory(seed: seed, template: template).check()
        }
    }
}

/// A store every history starts from: three files, five tasks, committed in a bare remote.
final class HistoryTemplate {
    let sandbox: Sandbox
    let remote: String
    /// A clone set up with `tick git setup` (driver, hooks), copied for each machine.
    let clone: String
    /// The initial tasks: id, file, title.
    let tasks: [(id: String, file: String, title: String)]

    init() throws {
        sandbox = try Sandbox()
        let s = sandbox
        remote = s.root + "/remote.git"
        try s.git("init", "-q", "--bare", "--initial-branch=main", remote, in: s.root)
        try s.git("clone", "-q", remote, s.store, in: s.root)
        try s.configureGitIdentity(name: "Template")
        try s.git("symbolic-ref", "HEAD", "refs/heads/main")
        try s.ok("git", "setup")
        try s.ok("lists", "add", "Work")
        try s.ok("lists", "add", "Home")
        try s.add("I1", "+a")
        for t in ["W1", "W2", "W3"] { try s.add(t, "list:Work") }
        try s.add("H1", "list:Home", "+b")
        try s.commitAll("base")
        try s.git("push", "-q", "-u", "origin", "main")
        var found: [(String, String, String)] = []
        for file in ["inbox.json", "lists/work.json", "lists/home.json"] {
            for t in try s.tasks(file) { found.append((t.string("id") ?? "", file, t.string("title") ?? "")) }
        }
        tasks = found
        clone = s.root + "/clone"
        try s.git("clone", "-q", remote, clone, in: s.root)
        try s.configureGitIdentity(in: clone, name: "Machine")
        try s.ok("--store", clone, "git", "setup")
    }
}

/// One generated history and its checks.
struct SyncHistory {
    enum Side: Int { case a = 0, b = 1 }

    enum Op: CustomStringConvertible {
        case title(String), due(String), note(String), tag(String, add: Bool), state(String), move(String), remove, reorder

        var description: String {
            switch self {
            case .title(let v): return "title \(v)"
            case .due(let v): return "due \(v)"
            case .note(let v): return "note \(v)"
            case let .tag(t, add): return "\(add ? "+" : "-")\(t)"
            case .state(let v): return "state \(v)"
            case .move(let v): return "mv \(v)"
            case .remove: return "rm"
            case .reorder: return "reorder"
            }
        }

        /// The model's field this op changes (nil: not a change of a field).
        var field: String? {
            switch self {
            case .title: return "title"
            case .due: return "due"
            case .note: return "notes"
            case .tag(let t, _): return "+" + t
            case .state: return "state"
            case .move: return "list"
            case .remove, .reorder: return nil
            }
        }
    }

    /// `file`: the task's file on that side just before the step; `moves`:
    /// false for a reorder to the top of a task already there (tick writes
    /// nothing, so it places nothing).
    struct Step { var side: Side; var task: String; var op: Op; var time: String; var file: String; var moves = true }

    /// One side's view of a task.
    struct View: Equatable {
        var title: String, due: String?, notes: String?, tags: Set<String>, state: String, file: String
        var removed = false
    }

    static let lists = ["inbox.json": "inbox", "lists/work.json": "Work", "lists/home.json": "Home"]

    let seed: UInt64
    let template: HistoryTemplate
    var steps: [Step] = []
    var initial: [String: View] = [:]

    init(seed: UInt64, template: HistoryTemplate) {
        self.seed = seed
        self.template = template
        var rng = SplitMix(seed: seed)
        for t in template.tasks {
            initial[t.id] = View(title: t.title, due: nil, notes: nil, tags: t.title == "I1" ? ["a"] : t.title == "H1" ? ["b"] : [],
                                 state: "open", file: t.file)
        }
        var views = [initial, initial]
        // Each side's manual order of each file (tick mv appends, rm removes).
        var start: [String: [String]] = [:]
        for t in template.tasks { start[t.file, default: []].append(t.id) }
        var orders = [start, start]
        let count = 2 + rng.int(5)
        let ids = template.tasks.map(\.id)
        // Two or three tasks per history, so that ops often collide on one task.
        let hot = Array(ids.shuffled(using: &rng).prefix(2 + rng.int(2)))
        for i in 0..<count {
            let side = Side(rawValue: rng.int(2)) ?? .a
            let id = hot[rng.int(hot.count)]
            guard var v = views[side.rawValue][id], !v.removed else { continue }
            let time = String(format: "2026-11-23T10:%02d:00Z", i + 1)
            let op: Op
            switch rng.int(10) {
            case 0: op = .title("T\(seed)-\(i)")
            case 1: op = .due(String(format: "2026-12-%02d", 1 + rng.int(28)))
            case 2: op = .note("n\(i)")
            case 3, 4:
                let tag = ["a", "b", "c"][rng.int(3)]
                op = .tag(tag, add: !v.tags.contains(tag))
            case 5:
                op = .state(["open", "active", "done"].filter { $0 != v.state }[rng.int(2)])
            case 6, 7:
                op = .move(Self.lists.keys.sorted().filter { $0 != v.file }[rng.int(2)])
            case 8: op = .remove
            default: op = .reorder
            }
            let file = v.file
            var moves = true
            switch op {
            case .reorder:
                moves = orders[side.rawValue][file]?.first != id
                orders[side.rawValue][file]?.removeAll { $0 == id }
                orders[side.rawValue][file]?.insert(id, at: 0)
            case .move(let to):
                orders[side.rawValue][file]?.removeAll { $0 == id }
                orders[side.rawValue][to, default: []].append(id)
            case .remove:
                orders[side.rawValue][file]?.removeAll { $0 == id }
            default: break
            }
            Self.apply(op, to: &v)
            if case .remove = op { v.removed = true }
            views[side.rawValue][id] = v
            steps.append(Step(side: side, task: id, op: op, time: time, file: file, moves: moves))
        }
    }

    var label: String {
        "seed \(seed): " + steps.map { "\($0.side == .a ? "A" : "B") \($0.task.prefix(4)) \($0.op) @\($0.time.dropFirst(14).prefix(2))" }.joined(separator: "; ")
    }

    // MARK: The oracle

    /// What each task must be after syncing (nil: deleted).
    func expected() -> [String: View] {
        expectedWithSteps().mapValues(\.view)
    }

    /// Each task that must be there, and the steps its result comes from
    /// (those of the side that kept it, when the other side removed it).
    func expectedWithSteps() -> [String: (view: View, steps: [Step])] {
        var out: [String: (view: View, steps: [Step])] = [:]
        for (id, start) in initial {
            let mine = steps.filter { $0.task == id }
            // Deleted on one side: kept only when the other side changed it later.
            let removals = mine.filter { if case .remove = $0.op { return true } else { return false } }
            if let rm = removals.first {
                // Removed on both machines: gone, whatever either did before.
                if Set(removals.map(\.side)).count == 2 { continue }
                let laterByOther = mine.contains { $0.side != rm.side && $0.op.field != nil && $0.time > rm.time }
                if !laterByOther { continue }
                // Kept as the other side has it.
                var v = start
                let kept = mine.filter { $0.side != rm.side }
                for step in kept { Self.apply(step.op, to: &v) }
                out[id] = (v, kept)
                continue
            }
            // Every field: the latest change of it (ops are already in time order).
            var v = start
            for step in mine { Self.apply(step.op, to: &v) }
            out[id] = (v, mine)
        }
        return out
    }

    /// Where a task's place in its final list comes from: nowhere (it kept
    /// its place from the start), its latest reorder to the top of that list
    /// made after it last moved (one that moved it), else that move (which
    /// appends it).
    enum Placement: Equatable {
        case initial(index: Int)
        case top(time: String, side: Side)
        case appended(time: String, side: Side)
    }

    static func placement(of steps: [Step], in file: String, initialIndex: Int) -> Placement {
        let lastMove = steps.last { if case .move = $0.op { return true } else { return false } }
        let reorder = steps.last { step in
            guard case .reorder = step.op, step.moves, step.file == file else { return false }
            return lastMove.map { step.time > $0.time } ?? true
        }
        if let reorder { return .top(time: reorder.time, side: reorder.side) }
        if let lastMove { return .appended(time: lastMove.time, side: lastMove.side) }
        return .initial(index: initialIndex)
    }

    /// Whether `x` must come before `y` in their list (nil: either order).
    /// Reorders go to the top, moves to the bottom, and the tasks nobody
    /// placed keep their order between them. Two placements on one machine
    /// keep that machine's order (the later top first, the earlier move
    /// first); placements on different machines at the same end were
    /// concurrent, and either order is right.
    static func mustPrecede(_ x: Placement, _ y: Placement) -> Bool? {
        func rank(_ p: Placement) -> Int {
            switch p {
            case .top: return 0
            case .initial: return 1
            case .appended: return 2
            }
        }
        if rank(x) != rank(y) { return rank(x) < rank(y) }
        switch (x, y) {
        case let (.initial(i), .initial(j)): return i < j
        case let (.top(t, s), .top(u, r)): return s == r ? t > u : nil
        case let (.appended(t, s), .appended(u, r)): return s == r ? t < u : nil
        default: return nil
        }
    }

    /// Checks each list's order against the placements of its tasks.
    func checkOrder(_ result: Found, _ what: String) {
        let want = expectedWithSteps()
        let initialIndex = Dictionary(uniqueKeysWithValues: template.tasks.enumerated().map { ($1.id, $0) })
        var byFile: [String: [(id: String, index: Int, placement: Placement)]] = [:]
        for (id, got) in result {
            guard let w = want[id], w.view.file == got.file else { continue }
            let p = Self.placement(of: w.steps, in: got.file, initialIndex: initialIndex[id] ?? 0)
            byFile[got.file, default: []].append((id, got.index, p))
        }
        // A task one machine removed and the other kept (it changed it later)
        // is where the keeping machine has it: the removing machine's
        // placements of other tasks never saw it, so they do not order it.
        var removedBy: [String: Side] = [:]
        for step in steps { if case .remove = step.op { removedBy[step.task] = step.side } }
        func placedBy(_ p: Placement) -> Side? {
            switch p {
            case .top(_, let side), .appended(_, let side): return side
            case .initial: return nil
            }
        }
        func unordered(_ a: (id: String, index: Int, placement: Placement), _ b: (id: String, index: Int, placement: Placement)) -> Bool {
            if let side = removedBy[a.id], placedBy(b.placement) == side { return true }
            if let side = removedBy[b.id], placedBy(a.placement) == side { return true }
            return false
        }
        for (file, tasks) in byFile {
            let ordered = tasks.sorted { $0.index < $1.index }
            for (i, x) in ordered.enumerated() {
                for y in ordered[(i + 1)...] where !unordered(x, y) && Self.mustPrecede(y.placement, x.placement) == true {
                    #expect(Bool(false), "\(label): \(what): in \(file), \(y.id.prefix(4)) (\(y.placement)) should come before \(x.id.prefix(4)) (\(x.placement)); order \(ordered.map { $0.id.prefix(4) })")
                }
            }
        }
    }

    static func apply(_ op: Op, to v: inout View) {
        switch op {
        case .title(let x): v.title = x
        case .due(let x): v.due = x
        case .note(let x): v.notes = x
        case let .tag(t, add): if add { v.tags.insert(t) } else { v.tags.remove(t) }
        case .state(let x): v.state = x
        case .move(let f): v.file = f
        case .remove, .reorder: break
        }
    }

    // MARK: Running it

    func run(_ step: Step, on s: Sandbox) throws {
        let id = String(step.task.prefix(8))
        let args: [String]
        switch step.op {
        case .title(let x): args = ["edit", id, "--title", x]
        case .due(let x): args = ["edit", id, "due:" + x]
        case .note(let x): args = ["edit", id, "--note", x]
        case let .tag(t, add): args = add ? ["edit", id, "+" + t] : ["edit", id, "--untag", t]
        // A done task is started only when asked to reopen it (issue 46).
        case .state(let x): args = x == "done" ? ["done", id] : x == "active" ? ["start", "--reopen", id] : ["reopen", id]
        case .move(let f): args = ["mv", id, Self.lists[f] ?? "inbox"]
        case .remove: args = ["rm", id]
        case .reorder: args = ["reorder", id, "--top"]
        }
        let r = try s.tick(args, now: step.time)
        if ProcessInfo.processInfo.environment["TICK_SYNC_SEED"] != nil { print("tick \(args.joined(separator: " ")): \(r.stdout)\(r.stderr)") }
        #expect(r.status == 0, "\(label): tick \(args.joined(separator: " ")) failed: \(r.stderr)")
    }

    /// id → (file, task JSON, position in the file) of a whole store.
    typealias Found = [String: (file: String, task: [String: Any], index: Int)]

    /// The tasks of a whole store; fails on a task in two files or a file that does not parse.
    func tasks(of s: Sandbox, _ what: String) throws -> Found {
        var out: Found = [:]
        for file in Self.lists.keys.sorted() where s.exists(file) {
            let text = try s.text(file)
            #expect(!text.contains("<<<<<<<"), "\(label): \(what): markers in \(file)")
            for (i, t) in try s.tasks(file).enumerated() {
                let id = t.string("id") ?? ""
                #expect(out[id] == nil, "\(label): \(what): \(id.prefix(8)) is in two files")
                out[id] = (file, t, i)
            }
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: s.store + "/lists").filter { $0.contains("sync-conflict") }
        #expect(leftovers.isEmpty, "\(label): \(what): conflict copies left: \(leftovers)")
        return out
    }

    func checkOracle(_ result: Found, _ what: String) {
        let want = expected()
        #expect(Set(result.keys) == Set(want.keys), "\(label): \(what): tasks \(result.keys.sorted().map { $0.prefix(4) }) expected \(want.keys.sorted().map { $0.prefix(4) })")
        for (id, v) in want {
            guard let got = result[id] else { continue }
            let t = got.task
            let actual = View(title: t.string("title") ?? "", due: t.string("due"), notes: t.string("notes"),
                              tags: Set(t.tagList ?? []), state: t.string("state") ?? "", file: got.file)
            #expect(actual == v, "\(label): \(what): \(id.prefix(8)) is \(actual), expected \(v)")
        }
        checkOrder(result, what)
    }

    func check() throws {
        let (gitResult, before) = try throughGit()
        checkOracle(gitResult, "git")
        let copies = try throughConflictCopies(before, receiver: .a)
        checkOracle(copies, "conflict copies on A")
        let reverse = try throughConflictCopies(before, receiver: .b)
        checkOracle(reverse, "conflict copies on B")
        // The same tasks, field for field (change times included), whichever route.
        for (name, other) in [("conflict copies on A", copies), ("conflict copies on B", reverse)] {
            for (id, g) in gitResult {
                guard let o = other[id] else { continue }
                #expect(g.file == o.file && (try? canonicalJSON(g.task)) == (try? canonicalJSON(o.task)),
                        "\(label): git and \(name) differ for \(id.prefix(8)):\n\((try? canonicalJSON(g.task)) ?? "")\n\((try? canonicalJSON(o.task)) ?? "")")
            }
        }
    }

    /// Each machine's store files after its steps, before any sync.
    typealias Versions = [[String: String]]

    /// Two clones; each commits its steps; one pushes, the other pulls (merge or
    /// rebase, through the merge driver), runs `tick resolve` as the hook does,
    /// commits and pushes; the first pulls and resolves.
    func throughGit() throws -> (result: Found, before: Versions) {
        let a = try Sandbox(), b = try Sandbox()
        // A remote of its own, at the template's base commit, and two copies of a set-up clone.
        let remote = a.root + "/remote.git"
        try a.git("clone", "-q", "--bare", template.remote, remote, in: a.root)
        for (s, name) in [(a, "A"), (b, "B")] {
            try FileManager.default.removeItem(atPath: s.store)   // the Sandbox's empty store, replaced by the clone
            try FileManager.default.copyItem(atPath: template.clone, toPath: s.store)
            // Its hooks name the template's path; the history runs `tick resolve` itself.
            for hook in ["post-merge", "post-rewrite"] { try? FileManager.default.removeItem(atPath: s.store + "/.git/hooks/" + hook) }
            try s.git("config", "remote.origin.url", remote)
            try s.git("config", "user.name", "Machine \(name)")
        }
        for step in steps { try run(step, on: step.side == .a ? a : b) }
        var before: Versions = [[:], [:]]
        for (i, s) in [a, b].enumerated() {
            for file in Self.lists.keys { before[i][file] = try s.text(file) }
        }
        let (first, second) = seed % 2 == 0 ? (a, b) : (b, a)
        let rebase = seed % 3 == 0
        try first.commitIfChanged("first")
        try first.git("push", "-q")
        try second.commitIfChanged("second")
        let pulled = try second.gitResult("pull", "-q", rebase ? "--rebase" : "--no-rebase", "--no-edit")
        #expect(pulled.status == 0, "\(label): pull failed: \(pulled.stderr)")
        try second.ok("resolve", "--quiet")
        try second.commitIfChanged("resolved")
        try second.git("push", "-q")
        let pulledBack = try first.gitResult("pull", "-q", "--no-rebase", "--no-edit")
        #expect(pulledBack.status == 0, "\(label): pull back failed: \(pulledBack.stderr)")
        try first.ok("resolve", "--quiet")
        for file in Self.lists.keys.sorted() {
            #expect(try first.text(file) == second.text(file), "\(label): \(file) differs between the clones")
        }
        return (try tasks(of: first, "git"), before)
    }

    /// The receiver's files after its steps, with the other machine's version
    /// of every file that machine changed (a conflict copy where both changed
    /// it, as Syncthing makes), then `tick resolve`.
    func throughConflictCopies(_ before: Versions, receiver: Side) throws -> Found {
        let me = try Sandbox()
        let (mineAll, theirsAll) = receiver == .a ? (before[0], before[1]) : (before[1], before[0])
        for file in Self.lists.keys.sorted() {
            let initial = try template.sandbox.text(file)
            let mine = mineAll[file] ?? initial, theirs = theirsAll[file] ?? initial
            if mine == initial {
                try me.write(file, theirs)
            } else {
                try me.write(file, mine)
                if theirs != initial && theirs != mine {
                    let copy = String(file.dropLast(5)) + ".sync-conflict-20261123-110000-\(receiver == .a ? "BBBBBBB" : "AAAAAAA").json"
                    try me.write(copy, theirs)
                }
            }
        }
        try me.ok("resolve", "--quiet")
        return try tasks(of: me, "conflict copies")
    }
}

/// SplitMix64, seeded: every history replays from its seed.
struct SplitMix: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 &+ 1 }
    /// Starts from a given state (StoreHistoryTests' seeds).
    init(state: UInt64) { self.state = state }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func int(_ n: Int) -> Int { Int(next() % UInt64(max(n, 1))) }
}

extension Sandbox {
    /// Commits every change, if there is one.
    func commitIfChanged(_ message: String) throws {
        guard try !git("status", "--porcelain").stdout.isEmpty else { return }
        try commitAll(message)
    }
}
