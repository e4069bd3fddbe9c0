import Foundation
import Testing
@testable import TickKit

/// SplitMix64: a tiny deterministic generator, so every case can be replayed by its seed.
struct MergeRandom {
    private var state: UInt64

    init(seed: UInt64) { state = seed &* 0x2545_F491_4F6C_DD1D }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// 0..<n (n > 0).
    mutating func int(_ n: Int) -> Int { Int(next() % UInt64(max(n, 1))) }
    mutating func chance(_ percent: Int) -> Bool { int(100) < percent }
    mutating func pick<T>(_ items: [T]) -> T { items[int(items.count)] }

    mutating func uuid() -> UUID {
        var a = next(), b = next()
        a = (a & ~0xF000) | 0x4000
        b = (b & ~(0xC << 60)) | (0x8 << 60)
        let x = withUnsafeBytes(of: (a.bigEndian, b.bigEndian)) { Array($0) }
        return UUID(uuid: (x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], x[8], x[9], x[10], x[11], x[12], x[13], x[14], x[15]))
    }
}

/// Generates a base file and edit histories on two sides.
struct MergeHistoryGenerator {
    var rng: MergeRandom
    /// Tasks that either side may "move in" from another list (same id on both sides).
    var shared: [UUID] = []
    /// Base tasks that both sides edit often, so that edits collide.
    var hot: [UUID] = []
    let start = MergeFixture.at("12:00")

    static let titles = ["Buy milk", "Call mom", "Pay rent", "Fix bike", "Read Dune", "Water plants", "Book flights", "Café receipts – März"]
    static let names = ["Work", "Home", "Errands", "Q1 plans", "Reading"]
    static let colors: [String?] = [nil, "#3b82f6", "#ef4444", "#22c55e"]
    static let dues: [TaskDate?] = [nil, TaskDate(fileString: "2026-11-24"), TaskDate(fileString: "2026-12-01T16:00:00Z"), TaskDate(fileString: "2027-01-05")]
    static let notes: [String?] = [nil, "ask first", "line one\nline two", "see the blue folder"]
    static let tagSets: [[String]] = [[], ["home"], ["work", "q1"], ["admin"], ["home", "errand", "küche"]]
    static let dependencyIDs = (1...4).map { MergeFixture.id("d\($0)") }
    static let dependSets: [[UUID]] = [[], [dependencyIDs[0]], [dependencyIDs[1], dependencyIDs[2]], [dependencyIDs[3], dependencyIDs[0]]]

    init(seed: UInt64) {
        rng = MergeRandom(seed: seed)
        shared = [rng.uuid(), rng.uuid()]
    }

    mutating func extraValue() -> JSONNode {
        switch rng.int(5) {
        case 0: return JSONNode(.number(rng.pick(["1", "2.50", "3e2", "-7"])))
        case 1: return JSONNode(.bool(rng.chance(50)))
        case 2: return .string(rng.pick(["sam", "alex", "kim"]))
        case 3: return .array([.string("a"), .object([JSONMember("b", JSONNode(.number("1.50")))])])
        default: return JSONNode(.null)
        }
    }

    mutating func task(id: UUID? = nil, at time: Date) -> TaskItem {
        var t = TaskItem(id: id ?? rng.uuid(), title: rng.pick(Self.titles), createdAt: time, modifiedAt: time)
        if rng.chance(40) { t.due = rng.pick(Self.dues) }
        if rng.chance(30) { t.priority = rng.pick([Priority.must, .flexible]) }
        if rng.chance(20) { t.energy = rng.pick(Energy.allCases) }
        if rng.chance(40) { t.tags = rng.pick(Self.tagSets) }
        if rng.chance(20) { t.wait = rng.pick(Self.dues) }
        if rng.chance(25) { t.depends = rng.pick(Self.dependSets) }
        if rng.chance(30) { t.notes = rng.pick(Self.notes) }
        if rng.chance(20) { t.scheduled = LocalDate(iso: "2026-11-23") }
        if rng.chance(25) { t.extra = [JSONMember("x-estimate", extraValue())] }
        if rng.chance(15) { t.extra.append(JSONMember("x-links", extraValue())) }
        switch rng.int(5) {
        case 0: t.setState(.done, at: time)
        case 1: t.state = .active
        default: break
        }
        return t
    }

    /// A file of 0–12 tasks last changed before `start`.
    mutating func base() -> TaskFile {
        let created = start.addingTimeInterval(-Double(10 + rng.int(100)) * 86_400)
        var file = TaskFile(kind: .list(slug: "work"), id: rng.uuid(), name: rng.pick(Self.names), color: rng.pick(Self.colors),
                            createdAt: created, modifiedAt: created.addingTimeInterval(Double(rng.int(5)) * 3600))
        if rng.chance(40) { file.extra = [JSONMember("x-owner", extraValue())] }
        for _ in 0..<rng.int(13) {
            let time = start.addingTimeInterval(-Double(1 + rng.int(20 * 24)) * 3600)
            var t = task(at: time)
            if rng.chance(50) { t.modifiedAt = time.addingTimeInterval(Double(rng.int(600)) * 60) }
            if t.state == .done { t.completedAt = t.modifiedAt }
            file.tasks.append(t)
        }
        hot = file.tasks.prefix(1).map(\.id)
        for _ in 0..<rng.int(3) {
            file.deleted.append(Tombstone(id: rng.uuid(), at: start.addingTimeInterval(-Double(rng.int(120)) * 86_400)))
        }
        return file
    }

    /// Applies 0–8 random edits; each bumps what it touches to the side's clock.
    mutating func edit(_ file: inout TaskFile) {
        var clock = start
        for _ in 0..<rng.int(9) {
            clock = clock.addingTimeInterval(Double(rng.int(3)) * 60)
            let kind = rng.int(18)
            if kind == 17 {
                if let id = shared.first(where: { file.index(of: $0) == nil }) {
                    file.tasks.insert(task(id: id, at: clock), at: rng.int(file.tasks.count + 1))
                }
                continue
            }
            if kind >= 14 {
                switch kind {
                case 14:
                    file.name = rng.pick(Self.names)
                case 15:
                    file.color = rng.pick(Self.colors)
                default:
                    if rng.chance(30) { file.extra.removeAll() } else {
                        let key = rng.pick(["x-owner", "x-sort"])
                        file.extra.removeAll { $0.key == key }
                        file.extra.append(JSONMember(key, extraValue()))
                    }
                }
                file.modifiedAt = clock
                continue
            }
            if kind == 0 || file.tasks.isEmpty {
                file.tasks.insert(task(at: clock), at: rng.int(file.tasks.count + 1))
                continue
            }
            var i = rng.int(file.tasks.count)
            if rng.chance(70), let h = file.index(of: rng.pick(hot.isEmpty ? [file.tasks[i].id] : hot)) { i = h }
            let id = file.tasks[i].id
            switch kind {
            case 1:
                file.tasks.remove(at: i)
                if rng.chance(70) { file.recordDeletion(of: [id], at: clock) }
                continue
            case 2: file.tasks[i].title = rng.pick(Self.titles)
            case 3: file.tasks[i].notes = rng.pick(Self.notes)
            case 4:
                if rng.chance(30) { file.tasks[i].depends = rng.pick(Self.dependSets) } else { file.tasks[i].tags = rng.pick(Self.tagSets) }
            case 5:
                if rng.chance(30) { file.tasks[i].wait = rng.pick(Self.dues) } else { file.tasks[i].due = rng.pick(Self.dues) }
            case 6: file.tasks[i].priority = rng.pick([nil, Priority.must, .flexible])
            case 7: file.tasks[i].setState(.done, at: clock)
            case 8: file.tasks[i].setState(.open, at: clock)
            case 9: file.tasks[i].setState(.active, at: clock)
            case 10:
                let other = file.tasks[rng.int(file.tasks.count)].id
                let position: ReorderPosition = rng.pick([.top, .bottom, .before(other), .after(other)])
                _ = try? file.reorder(id, to: position, now: clock)
                continue
            default:
                let key = rng.pick(["x-estimate", "x-links", "x-flag"])
                if rng.chance(30) {
                    file.tasks[i].extra.removeAll { $0.key == key }
                } else if let k = file.tasks[i].extra.firstIndex(where: { $0.key == key }) {
                    file.tasks[i].extra[k].value = extraValue()
                } else {
                    file.tasks[i].extra.append(JSONMember(key, extraValue()))
                }
            }
            file.tasks[i].modifiedAt = clock
        }
    }

    /// A base and two edited sides.
    mutating func history() -> (base: TaskFile, ours: TaskFile, theirs: TaskFile) {
        let base = base()
        var ours = base, theirs = base
        edit(&ours)
        edit(&theirs)
        return (base, ours, theirs)
    }
}

/// Merge properties over a few hundred generated edit histories per check.
@Suite struct MergePropertyTests {
    static let cases: UInt64 = 400

    func bytes(_ file: TaskFile) -> [UInt8] { TaskFileEncoder.encode(file) }

    func byID(_ tasks: [TaskItem]) -> [UUID: TaskItem] {
        Dictionary(tasks.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// The result decodes again, with unique ids and no tombstone for a live task.
    func checkValid(_ file: TaskFile, _ seed: UInt64) {
        let data = bytes(file)
        let decoded = try? TaskFileDecoder(bytes: data, path: "work.json", kind: file.kind, fallbackDate: MergeFixture.day).decode()
        #expect(decoded != nil, "seed \(seed): result does not decode")
        #expect(Set(file.tasks.map(\.id)).count == file.tasks.count, "seed \(seed): duplicate ids")
        let live = Set(file.tasks.map(\.id))
        #expect(!file.deleted.contains { live.contains($0.id) }, "seed \(seed): tombstone for a live task")
        if let decoded { #expect(bytes(decoded) == data, "seed \(seed): not canonical") }
    }

    /// Every field of every result task is one of the sides' values.
    func checkNoInventedValues(_ result: TaskFile, _ ours: TaskFile, _ theirs: TaskFile, _ seed: UInt64) {
        let o = byID(ours.tasks), t = byID(theirs.tasks)
        func check<V: Equatable>(_ name: String, _ r: TaskItem, _ path: KeyPath<TaskItem, V>) {
            let options = [o[r.id], t[r.id]].compactMap { $0?[keyPath: path] }
            #expect(options.contains(r[keyPath: path]), "seed \(seed): \(name) invented")
        }
        for r in result.tasks {
            #expect(o[r.id] != nil || t[r.id] != nil, "seed \(seed): invented task")
            check("title", r, \.title); check("state", r, \.state); check("due", r, \.due)
            check("scheduled", r, \.scheduled); check("remind", r, \.remind); check("repeat", r, \.repeatRule)
            check("priority", r, \.priority); check("energy", r, \.energy)
            // Tags merge as a set: each one comes from a side.
            let tagOptions = Set([o[r.id], t[r.id]].compactMap { $0?.tags }.joined())
            #expect(r.tags.allSatisfy(tagOptions.contains), "seed \(seed): tag invented")
            // So do dependencies.
            check("wait", r, \.wait)
            let dependOptions = Set([o[r.id], t[r.id]].compactMap { $0?.depends }.joined())
            #expect(r.depends.allSatisfy(dependOptions.contains), "seed \(seed): dependency invented")
            #expect(Set(r.depends).count == r.depends.count, "seed \(seed): dependency listed twice")
            check("notes", r, \.notes); check("createdAt", r, \.createdAt); check("modifiedAt", r, \.modifiedAt)
            check("completedAt", r, \.completedAt)
            let sides = [o[r.id], t[r.id]].compactMap { $0 }
            for key in Set(sides.flatMap { $0.extra.map(\.key) }).union(r.extra.map(\.key)) {
                let value = r.extra.first { $0.key == key }?.value
                #expect(sides.contains { $0.extra.first { $0.key == key }?.value == value }, "seed \(seed): \(key) invented")
            }
        }
        #expect([ours.name, theirs.name].contains(result.name), "seed \(seed): name invented")
        #expect([ours.color, theirs.color].contains(result.color), "seed \(seed): color invented")
        #expect([ours.modifiedAt, theirs.modifiedAt].contains(result.modifiedAt), "seed \(seed): modifiedAt invented")
        for key in Set((ours.extra + theirs.extra + result.extra).map(\.key)) {
            let value = result.extra.first { $0.key == key }?.value
            #expect([ours, theirs].contains { $0.extra.first { $0.key == key }?.value == value }, "seed \(seed): file \(key) invented")
        }
        let od = Dictionary(ours.deleted.map { ($0.id, $0.at) }, uniquingKeysWith: max)
        let td = Dictionary(theirs.deleted.map { ($0.id, $0.at) }, uniquingKeysWith: max)
        for stone in result.deleted {
            #expect(od[stone.id] == stone.at || td[stone.id] == stone.at, "seed \(seed): tombstone invented")
        }
    }

    /// The ids the policy keeps: all tasks of both sides except those a
    /// delete rule removes.
    func expectedIDs(base: TaskFile?, ours: TaskFile, theirs: TaskFile) -> Set<UUID> {
        let b = base.map { byID($0.tasks) }, o = byID(ours.tasks), t = byID(theirs.tasks)
        let bd = base.map { Dictionary($0.deleted.map { ($0.id, $0.at) }, uniquingKeysWith: max) }
        let od = Dictionary(ours.deleted.map { ($0.id, $0.at) }, uniquingKeysWith: max)
        let td = Dictionary(theirs.deleted.map { ($0.id, $0.at) }, uniquingKeysWith: max)
        var keep = Set<UUID>()
        for id in Set(o.keys).union(t.keys) {
            guard let task = o[id] ?? t[id] else { continue }
            if o[id] != nil, t[id] != nil { keep.insert(id); continue }
            let otherStone = o[id] == nil ? od[id] : td[id]
            if let baseTask = b?[id] {
                // Deleted on the other side: kept when edited, unless the
                // deletion was recorded after the edit.
                guard !task.sameIgnoringOrder(as: baseTask) else { continue }
                if let at = otherStone, !(bd?[id].map { $0 >= at } ?? false), !(task.modifiedAt > at) { continue }
                keep.insert(id)
            } else if let at = otherStone, !(bd?[id].map { $0 >= at } ?? false) {
                if task.modifiedAt > at { keep.insert(id) }
            } else {
                keep.insert(id)
            }
        }
        return keep
    }

    func checkReport(_ outcome: MergeOutcome, ours: TaskFile, _ seed: UInt64) {
        let result = Set(outcome.file.tasks.map(\.id)), mine = Set(ours.tasks.map(\.id))
        #expect(outcome.report.added == result.subtracting(mine).count, "seed \(seed): added")
        #expect(outcome.report.deleted == mine.subtracting(result).count, "seed \(seed): deleted")
        let o = byID(ours.tasks)
        let updated = outcome.file.tasks.count { r in o[r.id].map { !$0.sameContent(as: r) } ?? false }
        #expect(outcome.report.updated == updated, "seed \(seed): updated")
    }

    @Test func threeWayKeepsTasksSymmetricValidAndUninvented() {
        for seed in 0..<Self.cases {
            var gen = MergeHistoryGenerator(seed: seed)
            let (base, ours, theirs) = gen.history()
            let outcome = MergeEngine.merge(base: base, ours: ours, theirs: theirs)
            let swapped = MergeEngine.merge(base: base, ours: theirs, theirs: ours)
            #expect(bytes(outcome.file) == bytes(swapped.file), "seed \(seed): not symmetric")
            #expect(outcome.report.conflictsResolved == swapped.report.conflictsResolved, "seed \(seed): conflicts")
            #expect(Set(outcome.file.tasks.map(\.id)) == expectedIDs(base: base, ours: ours, theirs: theirs), "seed \(seed): wrong tasks kept")
            checkValid(outcome.file, seed)
            checkNoInventedValues(outcome.file, ours, theirs, seed)
            checkReport(outcome, ours: ours, seed)
            checkReport(swapped, ours: theirs, seed)
        }
    }

    @Test func threeWayOneSidedChangesAreTakenAsTheyAre() {
        for seed in 0..<Self.cases {
            var gen = MergeHistoryGenerator(seed: seed)
            let (base, ours, theirs) = gen.history()
            for side in [ours, theirs] {
                #expect(bytes(MergeEngine.merge(base: base, ours: base, theirs: side).file) == bytes(side), "seed \(seed): base, X")
                #expect(bytes(MergeEngine.merge(base: base, ours: side, theirs: base).file) == bytes(side), "seed \(seed): X, base")
                #expect(bytes(MergeEngine.merge(base: base, ours: side, theirs: side).file) == bytes(side), "seed \(seed): X, X")
                let identity = MergeEngine.merge(base: side, ours: side, theirs: side)
                #expect(bytes(identity.file) == bytes(side), "seed \(seed): identity")
                #expect(identity.report == MergeReport(), "seed \(seed): identity report")
            }
        }
    }

    @Test func twoWayKeepsTasksSymmetricValidAndUninvented() {
        for seed in 0..<Self.cases {
            var gen = MergeHistoryGenerator(seed: seed &+ 1_000_000)
            let (_, ours, theirs) = gen.history()
            let outcome = MergeEngine.merge(base: nil, ours: ours, theirs: theirs)
            let swapped = MergeEngine.merge(base: nil, ours: theirs, theirs: ours)
            #expect(bytes(outcome.file) == bytes(swapped.file), "seed \(seed): not symmetric")
            #expect(Set(outcome.file.tasks.map(\.id)) == expectedIDs(base: nil, ours: ours, theirs: theirs), "seed \(seed): wrong tasks kept")
            checkValid(outcome.file, seed)
            checkNoInventedValues(outcome.file, ours, theirs, seed)
            checkReport(outcome, ours: ours, seed)
            // Tombstones: the union (latest time per id) minus the tasks in the result.
            var union: [UUID: Date] = [:]
            for stone in ours.deleted + theirs.deleted { union[stone.id] = max(union[stone.id] ?? stone.at, stone.at) }
            for task in outcome.file.tasks { union[task.id] = nil }
            #expect(Dictionary(outcome.file.deleted.map { ($0.id, $0.at) }, uniquingKeysWith: max) == union, "seed \(seed): tombstones")
            #expect(outcome.file.deleted.count == union.count, "seed \(seed): duplicate tombstones")
        }
    }

    @Test func twoWayOfAFileWithItselfIsTheFile() {
        for seed in 0..<Self.cases {
            var gen = MergeHistoryGenerator(seed: seed &+ 2_000_000)
            let (_, ours, _) = gen.history()
            let outcome = MergeEngine.merge(base: nil, ours: ours, theirs: ours)
            #expect(bytes(outcome.file) == bytes(ours), "seed \(seed)")
            #expect(outcome.report == MergeReport(), "seed \(seed): report")
        }
    }

    /// When only one side reordered the tasks it shares with the base, the
    /// result keeps exactly that side's order (additions of the other side
    /// are inserted without disturbing it).
    @Test func aOneSidedReorderIsKeptExactly() {
        var checked = 0
        for seed in 0..<Self.cases {
            var gen = MergeHistoryGenerator(seed: seed &+ 4_000_000)
            let (base, ours, theirs) = gen.history()
            let baseIDs = Set(base.tasks.map(\.id))
            for (mover, other) in [(ours, theirs), (theirs, ours)] {
                let otherIDs = Set(other.tasks.map(\.id))
                let otherOrder = other.tasks.map(\.id).filter { baseIDs.contains($0) }
                guard otherOrder == base.tasks.map(\.id).filter({ otherIDs.contains($0) }) else { continue }
                let result = MergeEngine.merge(base: base, ours: mover, theirs: other).file.tasks.map(\.id)
                let resultIDs = Set(result)
                let moverIDs = Set(mover.tasks.map(\.id))
                // Tasks both sides added (same id) may be placed by the other side.
                let placedByMover = moverIDs.filter { !otherIDs.contains($0) || baseIDs.contains($0) }
                #expect(result.filter { placedByMover.contains($0) } == mover.tasks.map(\.id).filter { placedByMover.contains($0) && resultIDs.contains($0) },
                        "seed \(seed): one-sided order not kept")
                checked += 1
            }
        }
        #expect(checked >= 100)
    }

    /// Both sides changing only different tasks (fields or positions) never
    /// counts a conflict, and a task edited on one side only equals that side's version.
    @Test func disjointEditsDoNotConflict() {
        for seed in 0..<Self.cases {
            var gen = MergeHistoryGenerator(seed: seed &+ 3_000_000)
            let (base, ours, theirs) = gen.history()
            let b = byID(base.tasks), o = byID(ours.tasks), t = byID(theirs.tasks)
            let touchedByOurs = Set(o.keys.filter { id in b[id].map { !$0.sameContent(as: o[id] ?? $0) } ?? true })
            let touchedByTheirs = Set(t.keys.filter { id in b[id].map { !$0.sameContent(as: t[id] ?? $0) } ?? true })
            let outcome = MergeEngine.merge(base: base, ours: ours, theirs: theirs)
            let result = byID(outcome.file.tasks)
            for id in touchedByOurs.subtracting(touchedByTheirs) where t[id] != nil {
                #expect(result[id].map { $0.sameContent(as: o[id] ?? $0) } ?? false, "seed \(seed): ours-only edit not taken")
            }
            let metadataBoth = ours.modifiedAt != base.modifiedAt && theirs.modifiedAt != base.modifiedAt
            if touchedByOurs.isDisjoint(with: touchedByTheirs), !metadataBoth {
                #expect(outcome.report.conflictsResolved == 0, "seed \(seed): conflicts without overlap")
            }
        }
    }
}

extension MergePropertyTests {
    /// The generator reaches the interesting cases often enough.
    @Test func generatorCoversTheRules() {
        var conflicts = 0, keptAgainstDelete = 0, deletedByRule = 0, tombstoneDeletes = 0, tombstoneKeeps = 0
        var bothMoved = 0, sharedAdds = 0, metadataConflicts = 0, stateConflicts = 0
        for seed in 0..<Self.cases {
            var gen = MergeHistoryGenerator(seed: seed)
            let (base, ours, theirs) = gen.history()
            let outcome = MergeEngine.merge(base: base, ours: ours, theirs: theirs)
            if outcome.report.conflictsResolved > 0 { conflicts += 1 }
            let b = byID(base.tasks), o = byID(ours.tasks), t = byID(theirs.tasks), r = byID(outcome.file.tasks)
            for (id, task) in b {
                if (o[id] == nil) != (t[id] == nil) {
                    if r[id] == nil { deletedByRule += 1 } else { keptAgainstDelete += 1 }
                }
                if let x = o[id], let y = t[id], x.state != y.state, x.state != task.state, y.state != task.state { stateConflicts += 1 }
            }
            if ours.tasks.map(\.id) != base.tasks.map(\.id), theirs.tasks.map(\.id) != base.tasks.map(\.id),
               ours.tasks.map(\.id) != theirs.tasks.map(\.id) { bothMoved += 1 }
            if gen.shared.contains(where: { o[$0] != nil && t[$0] != nil }) { sharedAdds += 1 }
            if ours.modifiedAt != base.modifiedAt, theirs.modifiedAt != base.modifiedAt { metadataConflicts += 1 }

            var two = MergeHistoryGenerator(seed: seed &+ 1_000_000)
            let (_, x, y) = two.history()
            let merged = byID(MergeEngine.merge(base: nil, ours: x, theirs: y).file.tasks)
            let xd = Set(x.deleted.map(\.id)), yd = Set(y.deleted.map(\.id))
            for task in x.tasks where y.index(of: task.id) == nil && yd.contains(task.id) {
                if merged[task.id] == nil { tombstoneDeletes += 1 } else { tombstoneKeeps += 1 }
            }
            for task in y.tasks where x.index(of: task.id) == nil && xd.contains(task.id) {
                if merged[task.id] == nil { tombstoneDeletes += 1 } else { tombstoneKeeps += 1 }
            }
        }
        let counts = [conflicts, keptAgainstDelete, deletedByRule, tombstoneDeletes, tombstoneKeeps, bothMoved, sharedAdds, metadataConflicts, stateConflicts]
        #expect(counts.allSatisfy { $0 >= 5 }, "coverage: \(counts)")
    }
}
