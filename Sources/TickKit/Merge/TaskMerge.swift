import FoundationEssentials

/// A value one side had that the merge discarded because the other side
/// changed the same field later (rule 2 of Docs/MERGE.md). Ids and field
/// names only: never titles.
public struct FieldOverride: Sendable, Equatable, Hashable {
    /// The task.
    public var task: UUID
    /// The change key (`title`, `state`, `+TAG`, an unknown key, ...).
    public var field: String

    public init(task: UUID, field: String) {
        self.task = task
        self.field = field
    }
}

/// Merges two versions of one task field by field, using each field's change
/// time (`changed`, ``TaskChange``): a last-writer-wins register per field and
/// per tag, so a merge without a common base gives the same result as one
/// with it, in any order, and merging is commutative, associative and
/// idempotent (Docs/MERGE.md §4).
///
/// With a base, a field whose value equals the base's and whose change time
/// is not later than the base's did not change on that side, so the other
/// side's change is taken whatever the times (hand edits, made without change
/// times, merge as they always did).
public struct TaskMerge {
    let base: TaskItem?
    let ours: TaskItem
    let theirs: TaskItem
    /// Fields that differ and were decided by change times.
    private(set) var conflicts = 0
    /// Fields where a side's change was discarded for a later one.
    private(set) var overridden: [String] = []
    private var stamps: [String: Date] = [:]

    /// Merges `ours` and `theirs` (same id). `base` is the common version, if any.
    public static func merge(base: TaskItem?, ours: TaskItem, theirs: TaskItem) -> (task: TaskItem, conflicts: Int, overridden: [FieldOverride]) {
        if ours == theirs { return (ours, 0, []) }
        var m = TaskMerge(base: base, ours: ours, theirs: theirs)
        let task = m.run()
        return (task, m.conflicts, m.overridden.map { FieldOverride(task: task.id, field: $0) })
    }

    private init(base: TaskItem?, ours: TaskItem, theirs: TaskItem) {
        self.base = base
        self.ours = ours
        self.theirs = theirs
    }

    private mutating func run() -> TaskItem {
        var r = ours
        // Every field by its own rule, as the field table says (TaskField.merge).
        for field in TaskField.all { field.merge(&self, &r) }
        // `list` is the file both are in here (the store-level merge decides
        // between files); `order` is the later placement.
        for key in ["list", "order"] where ours.hasChangeEntry(key) || theirs.hasChangeEntry(key) {
            let o = ours.changed[key], t = theirs.changed[key]
            if let base, o == base.changed[key] {
                stamps[key] = t
            } else if let base, t == base.changed[key] {
                stamps[key] = o
            } else {
                // The later of the recorded times (a time that was never recorded is not invented).
                stamps[key] = [o, t].compactMap { $0 }.max { MergeClock.seconds($0) < MergeClock.seconds($1) }
            }
        }
        // A place in the manual order is a place in one list: a reorder made
        // before the task's last move no longer says anything.
        if let order = stamps["order"], let list = stamps["list"], !MergeClock.isLater(order, than: list) {
            stamps["order"] = nil
        }
        r.createdAt = settled(\.createdAt) ?? (MergeClock.seconds(ours.createdAt) <= MergeClock.seconds(theirs.createdAt) ? ours.createdAt : theirs.createdAt)
        r.changed = stamps
        var modified = settled(\.modifiedAt) ?? later(ours.modifiedAt, theirs.modifiedAt)
        for (key, time) in stamps where key != "order" && MergeClock.isLater(time, than: modified) { modified = time }
        r.modifiedAt = modified
        r.needsFill = ours.needsFill || theirs.needsFill
        return r
    }

    /// The value when both sides agree or only one changed it (against the base).
    private func settled<V: Equatable>(_ path: KeyPath<TaskItem, V>) -> V? {
        let o = ours[keyPath: path], t = theirs[keyPath: path]
        if o == t { return o }
        if let base {
            if o == base[keyPath: path] { return t }
            if t == base[keyPath: path] { return o }
        }
        return nil
    }

    private func later(_ a: Date, _ b: Date) -> Date {
        MergeClock.seconds(a) >= MergeClock.seconds(b) ? a : b
    }

    /// One side's view of a key: its value and when it changed, and whether
    /// it changed since the base.
    private struct SideValue<V> {
        var value: V
        var time: Date
        var changed: Bool
    }

    private func side<V: Equatable>(_ task: TaskItem, _ key: String, _ value: V, base baseValue: V?) -> SideValue<V> {
        let time = task.changeTime(key)
        guard let base, let baseValue else { return SideValue(value: value, time: time, changed: true) }
        // Changed since the base: a different value, or the same value set again later.
        let stampedLater = task.hasChangeEntry(key) && MergeClock.isLater(time, than: base.changeTime(key))
        return SideValue(value: value, time: time, changed: value != baseValue || stampedLater)
    }

    /// Decides one key between the two sides' values.
    private mutating func decide<V: Equatable>(_ key: String, ours o: V, theirs t: V, base b: V?, _ node: (V) -> JSONNode?) -> V {
        let so = side(ours, key, o, base: b), st = side(theirs, key, t, base: b)
        let explicit = ours.hasChangeEntry(key) || theirs.hasChangeEntry(key)
        if o == t {
            if explicit { stamps[key] = later(so.time, st.time) }
            return o
        }
        if so.changed != st.changed {
            // Changed on one side only: taken as it is, with its own time.
            let (winner, winnerTask) = so.changed ? (o, ours) : (t, theirs)
            if winnerTask.hasChangeEntry(key) { stamps[key] = winnerTask.changeTime(key) }
            return winner
        }
        conflicts += 1
        let oursWins: Bool
        switch MergeSide.later(ours: so.time, theirs: st.time) {
        case .ours: oursWins = true
        case .theirs: oursWins = false
        case nil: oursWins = !MergeCanon.bytes(node(o)).lexicographicallyPrecedes(MergeCanon.bytes(node(t)))
        }
        let (winner, loserTask) = oursWins ? (so, theirs) : (st, ours)
        stamps[key] = winner.time
        // Rule 9: say when a change was discarded. With a base both sides
        // changed it; without one, the losing side recorded a change of it
        // (a task from before change times may simply be older).
        if base != nil || loserTask.hasChangeEntry(key) {
            overridden.append(key)
        }
        return winner.value
    }

    mutating func pick<V: Equatable>(_ key: String, _ path: KeyPath<TaskItem, V>, _ node: (V) -> JSONNode?) -> V {
        decide(key, ours: ours[keyPath: path], theirs: theirs[keyPath: path], base: base?[keyPath: path], node)
    }

    /// A set-valued field (tags, dependencies) whose elements are registers keyed `prefix + element`
    /// in `changed`: an element is kept when the side that changed it last has it.
    mutating func mergeSet<E: Hashable>(
        _ path: KeyPath<TaskItem, [E]>, prefix: String, key: (E) -> String, element: (String) -> E?
    ) -> [E] {
        let ov = ours[keyPath: path], tv = theirs[keyPath: path]
        if let b = base?[keyPath: path], ov != tv {
            // Changed on one side only: that side's list, as it is.
            let oursSame = ov == b && !stampedSinceBase(ours, prefix: prefix)
            let theirsSame = tv == b && !stampedSinceBase(theirs, prefix: prefix)
            if oursSame != theirsSame {
                let winner = oursSame ? theirs : ours
                for k in winner.changed.keys where k.hasPrefix(prefix) { stamps[k] = winner.changed[k] }
                return winner[keyPath: path]
            }
        }
        if ov == tv {
            for e in ov {
                let k = key(e)
                if ours.hasChangeEntry(k) || theirs.hasChangeEntry(k) {
                    stamps[k] = later(ours.changeTime(k), theirs.changeTime(k))
                }
            }
            keepStamps(prefix: prefix)
            return ov
        }
        let o = Set(ov), t = Set(tv), b = base.map { Set($0[keyPath: path]) }
        var all = ov
        var seen = o
        for e in tv where seen.insert(e).inserted { all.append(e) }
        // Elements removed on a side still have their entry: they take part too.
        for side in [ours, theirs] {
            for k in side.changed.keys.sorted() where k.hasPrefix(prefix) {
                if let e = element(String(k.dropFirst(prefix.count))), seen.insert(e).inserted { all.append(e) }
            }
        }
        var present: [E] = []
        for e in all {
            let k = key(e)
            let keep = decide(k, ours: o.contains(e), theirs: t.contains(e), base: b.map { $0.contains(e) }) { $0 ? .string("+") : nil }
            if keep { present.append(e) }
        }
        // By when each element was added (those from creation first), else as listed.
        let when = present.map { MergeClock.seconds(stamps[key($0)] ?? .distantPast) }
        return present.indices.sorted { when[$0] != when[$1] ? when[$0] < when[$1] : $0 < $1 }.map { present[$0] }
    }

    private func stampedSinceBase(_ task: TaskItem, prefix: String) -> Bool {
        guard let base else { return true }
        return task.changed.contains { $0.key.hasPrefix(prefix) && MergeClock.isLater($0.value, than: base.changeTime($0.key)) }
    }

    /// Entries for elements that were removed on both sides are kept (the later one).
    private mutating func keepStamps(prefix: String) {
        let keys = Set(ours.changed.keys).union(theirs.changed.keys).filter { $0.hasPrefix(prefix) && stamps[$0] == nil }
        for key in keys {
            stamps[key] = later(ours.changeTime(key), theirs.changeTime(key))
        }
    }

    /// Unknown keys, each a register with its own time; ours' order, then theirs' new keys.
    mutating func mergeExtra() -> [JSONMember] {
        let ov = TaskItem.members(ours.extra), tv = TaskItem.members(theirs.extra)
        let bv = base.map { TaskItem.members($0.extra) }
        if let b = base?.extra, ours.extra != theirs.extra, ours.extra == b || theirs.extra == b {
            // Changed on one side only: that side's keys, in its order.
            let winner = ours.extra == b ? theirs : ours
            for m in winner.extra where winner.hasChangeEntry(m.key) { stamps[m.key] = winner.changed[m.key] }
            return winner.extra
        }
        if ours.extra == theirs.extra {
            for key in ov.keys where ours.hasChangeEntry(key) || theirs.hasChangeEntry(key) {
                stamps[key] = later(ours.changeTime(key), theirs.changeTime(key))
            }
            return ours.extra
        }
        var keys = ours.extra.map(\.key)
        for m in theirs.extra where ov[m.key] == nil { keys.append(m.key) }
        var out: [JSONMember] = []
        for key in keys {
            let wrappedBase: JSONNode?? = bv.map { $0[key] }
            let value = decide(key, ours: ov[key], theirs: tv[key], base: wrappedBase) { $0 }
            if let value { out.append(JSONMember(key, value)) }
        }
        return out
    }
}

extension TaskItem {
    /// The state and completion time, merged as one value.
    struct StateValue: Equatable {
        var state: TaskState
        var completedAt: Date?

        var node: JSONNode {
            .array([.string(state.rawValue), MergeCanon.date(completedAt) ?? JSONNode(.null)])
        }
    }

    var stateValue: StateValue { StateValue(state: state, completedAt: completedAt) }
}
