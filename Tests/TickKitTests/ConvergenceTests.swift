import Foundation
import Testing
@testable import TickKit

/// Rule 8 of the sync oracle: three machines (a laptop, a desktop, a server)
/// that edit a store and sync in pairs, in any order, end with the same store.
/// A pairwise sync is what Syncthing does: every file both changed is merged
/// two-way (no base), then each machine reconciles its store.
@Suite struct ConvergenceTests {
    typealias Store = [FileKind: TaskFile]
    static let kinds: [FileKind] = [.inbox, .list(slug: "work"), .list(slug: "home")]

    static func start(_ rng: inout MergeRandom) -> Store {
        var store: Store = [:]
        for kind in kinds {
            store[kind] = TaskFile(kind: kind, id: MergeFixture.id(kind.relativePath), name: kind.slug,
                                   createdAt: MergeFixture.at("08:00"), modifiedAt: MergeFixture.at("08:00"))
        }
        for i in 0..<6 {
            let kind = kinds[i % 3]
            store[kind]?.tasks.append(TaskItem(id: rng.uuid(), title: "T\(i)", createdAt: MergeFixture.at("08:00"), modifiedAt: MergeFixture.at("08:00")))
        }
        return store
    }

    /// One random change on one machine at `now`, stamped as StoreWriter stamps it.
    /// A task deleted anywhere is not changed again (see Docs/MERGE.md §6 on
    /// revived tasks: which pre-deletion edits come back depends on the order
    /// the machines met).
    static func edit(_ store: inout Store, _ rng: inout MergeRandom, now: Date, deleted: inout Set<UUID>) {
        let all = kinds.flatMap { kind in (store[kind]?.tasks ?? []).map { (kind, $0) } }.filter { !deleted.contains($0.1.id) }
        guard !all.isEmpty else { return }
        let (kind, task) = all[rng.int(all.count)]
        guard var file = store[kind], let i = file.index(of: task.id) else { return }
        let before = file.tasks[i]
        switch rng.int(8) {
        case 0: file.tasks[i].title = "t\(rng.int(1000))"
        case 1: file.tasks[i].notes = rng.chance(30) ? nil : "n\(rng.int(1000))"
        case 2: file.tasks[i].setState([.open, .active, .done][rng.int(3)], at: now)
        case 3:
            let tag = ["a", "b", "c"][rng.int(3)]
            if file.tasks[i].tags.contains(tag) { file.tasks[i].tags.removeAll { $0 == tag } } else { file.tasks[i].tags.append(tag) }
        case 4:
            // tick mv: the destination first, with the list's change time; no tombstone.
            let target = kinds.filter { $0 != kind }[rng.int(2)]
            var moved = before
            moved.stamp("list", at: now)
            moved.changed["order"] = nil
            moved.modifiedAt = now
            file.tasks.remove(at: i)
            store[kind] = file
            store[target]?.tasks.append(moved)
            store[target]?.deleted.removeAll { $0.id == moved.id }
            return
        case 5:
            file.tasks.remove(at: i)
            file.recordDeletion(of: [task.id], at: now)
            store[kind] = file
            deleted.insert(task.id)
            return
        case 6:
            _ = try? file.reorder(task.id, to: .top, now: now)
            store[kind] = file
            return
        default:
            file.tasks[i].due = TaskDate(fileString: "2026-12-\(10 + rng.int(18))")
        }
        file.tasks[i].stampChanges(since: before, at: now)
        store[kind] = file
    }

    /// Syncthing between two machines: each file both have different is merged two-way.
    static func sync(_ a: inout Store, _ b: inout Store) {
        for kind in kinds {
            guard let fa = a[kind], let fb = b[kind] else { continue }
            guard TaskFileEncoder.encode(fa) != TaskFileEncoder.encode(fb) else { continue }
            let merged = MergeEngine.merge(base: nil, ours: fa, theirs: fb).file
            a[kind] = merged
            b[kind] = merged
        }
        for i in 0..<2 {
            var s = i == 0 ? a : b
            let (files, _) = StoreReconciler.reconcile(kinds.compactMap { s[$0] })
            for f in files { s[f.kind] = f }
            if i == 0 { a = s } else { b = s }
        }
    }

    static func bytes(_ store: Store) -> [[UInt8]] { kinds.map { store[$0].map(TaskFileEncoder.encode) ?? [] } }

    /// Content of every task (ignoring position), per file.
    static func content(_ store: Store) -> [String] {
        kinds.flatMap { kind in (store[kind]?.tasks ?? []).map { kind.relativePath + " " + String(decoding: JSONWriter.write(TaskFileEncoder.node(for: $0)), as: UTF8.self) } }.sorted()
    }

    /// Syncs pairs in random order until all three agree.
    static func converge(_ machines: inout [Store], _ rng: inout MergeRandom) {
        for _ in 0..<30 {
            let i = rng.int(3), j = (i + 1 + rng.int(2)) % 3
            var a = machines[i], b = machines[j]
            sync(&a, &b)
            machines[i] = a
            machines[j] = b
        }
        // Then a full round, twice, in a fixed order.
        for _ in 0..<2 {
            for (i, j) in [(0, 1), (1, 2), (0, 2)] {
                var a = machines[i], b = machines[j]
                sync(&a, &b)
                machines[i] = a
                machines[j] = b
            }
        }
    }

    @Test func threeMachinesConvergeWhateverTheSyncOrder() {
        var contentMismatch = 0
        for seed in 0..<300 as Range<UInt64> {
            var rng = MergeRandom(seed: seed &+ 7_000_000)
            let base = Self.start(&rng)
            var machines = [base, base, base]
            var deleted = Set<UUID>()
            // Edits on each machine at distinct times, with syncs of random pairs in between.
            for step in 0..<(4 + rng.int(8)) {
                let now = MergeFixture.at("09:00").addingTimeInterval(Double(step) * 60)
                Self.edit(&machines[rng.int(3)], &rng, now: now, deleted: &deleted)
                if rng.chance(30) {
                    let i = rng.int(3), j = (i + 1 + rng.int(2)) % 3
                    var a = machines[i], b = machines[j]
                    Self.sync(&a, &b)
                    machines[i] = a
                    machines[j] = b
                }
            }
            var first = machines, second = machines
            var r1 = MergeRandom(seed: seed &+ 1), r2 = MergeRandom(seed: seed &+ 2)
            Self.converge(&first, &r1)
            Self.converge(&second, &r2)
            for m in first + second {
                let mine = Set(Self.content(m)), ref = Set(Self.content(first[0]))
                #expect(mine == ref, "seed \(seed): the machines hold different tasks: \(mine.subtracting(ref).sorted()) vs \(ref.subtracting(mine).sorted())")
                if Self.content(m) != Self.content(first[0]) { contentMismatch += 1 }
                #expect(Self.bytes(m) == Self.bytes(first[0]), "seed \(seed): the files differ")
            }
            // Idempotent: syncing converged machines changes nothing.
            var a = first[0], b = first[1]
            Self.sync(&a, &b)
            #expect(Self.bytes(a) == Self.bytes(first[0]), "seed \(seed): not idempotent")
        }
        #expect(contentMismatch == 0)
    }
}
