import FoundationEssentials

/// What a merge did, in counts only (never titles).
public struct MergeReport: Sendable, Equatable {
    /// Tasks in the result that `ours` did not have.
    public var added = 0
    /// Tasks present in `ours` and in the result whose content in the result
    /// differs from `ours` (a position change alone does not count).
    public var updated = 0
    /// Tasks in `ours` that are not in the result (a side deleted them and the
    /// other did not edit them).
    public var deleted = 0
    /// Fields changed differently on both sides (without a base: fields that
    /// differ), decided by the policy. Counts task fields, unknown keys and
    /// the list's own metadata; `modifiedAt` and the order are not counted.
    public var conflictsResolved = 0
    /// Fields where one side's change was discarded for the other side's
    /// later change (ids and field names; the discarded values are in the
    /// version the merge replaced: the undo journal, git's ORIG_HEAD, the copy).
    public var overrides: [FieldOverride] = []

    /// An empty report.
    public init() {}
}

/// A merged file and what the merge did.
public struct MergeOutcome: Sendable {
    /// The merged file. Encode it with ``TaskFileEncoder`` to get its
    /// canonical bytes.
    public var file: TaskFile
    /// Counts of what changed relative to `ours`.
    public var report: MergeReport

    /// Wraps a merged file and its report.
    public init(file: TaskFile, report: MergeReport) {
        self.file = file
        self.report = report
    }
}

/// Merges two versions of one store file, task by task and field by field
/// (Docs/MERGE.md).
///
/// Tasks are matched by id. A field changed on one side is taken; a field
/// changed on both sides goes to the side whose task (or, for the list's
/// own fields, file) `modifiedAt` is later. Completion is additive, an
/// edit beats a delete, and the manual order is merged as a sequence. The
/// result never holds two tasks with the same id, and merging is
/// symmetric: swapping `ours` and `theirs` gives the same file (only the
/// report, which is relative to `ours`, differs).
public enum MergeEngine {
    /// Merges `ours` and `theirs`.
    ///
    /// - Parameters:
    ///   - base: the common ancestor (three-way merge, e.g. git), or nil when
    ///     there is none (two-way merge, e.g. a Syncthing conflict copy); the
    ///     two-way rules then use the files' `deleted` tombstones.
    ///   - ours: one side; the report is relative to it.
    ///   - theirs: the other side.
    /// - Returns: the merged file (deterministic: the same inputs always give
    ///   the same file, and `merge(base, a, b).file` encodes to the same bytes
    ///   as `merge(base, b, a).file`) and a report of what changed in `ours`.
    public static func merge(base: TaskFile?, ours: TaskFile, theirs: TaskFile) -> MergeOutcome {
        // Put the sides in a canonical order so that every remaining tie can
        // go to the first one without making the result depend on which side
        // is "ours".
        let swap = sidesSwapped(ours, theirs)
        let (first, second) = swap ? (theirs, ours) : (ours, theirs)
        var conflicts = 0
        var overrides: [FieldOverride] = []
        let file = mergeFiles(base: base, first: first, second: second, conflicts: &conflicts, overrides: &overrides)
        var report = MergeReport()
        report.conflictsResolved = conflicts
        report.overrides = overrides
        var resultTasks: [UUID: TaskItem] = [:]
        for task in file.tasks { resultTasks[task.id] = task }
        var ourIDs = Set<UUID>()
        for task in ours.tasks where ourIDs.insert(task.id).inserted {
            if let merged = resultTasks[task.id] {
                if !merged.sameContent(as: task) { report.updated += 1 }
            } else {
                report.deleted += 1
            }
        }
        report.added = file.tasks.count { !ourIDs.contains($0.id) }
        return MergeOutcome(file: file, report: report)
    }

    /// True when `theirs` sorts before `ours` by canonical bytes (then by path).
    private static func sidesSwapped(_ ours: TaskFile, _ theirs: TaskFile) -> Bool {
        let o = TaskFileEncoder.encode(ours), t = TaskFileEncoder.encode(theirs)
        if o != t { return t.lexicographicallyPrecedes(o) }
        return theirs.kind < ours.kind
    }

    /// The merge proper, on sides in canonical order.
    private static func mergeFiles(base: TaskFile?, first ours: TaskFile, second theirs: TaskFile, conflicts: inout Int, overrides: inout [FieldOverride]) -> TaskFile {
        var file = MergeFileFields.merge(base: base, ours: ours, theirs: theirs, conflicts: &conflicts)

        let baseTasks = base.map { byID($0.tasks) }
        let ourTasks = byID(ours.tasks), theirTasks = byID(theirs.tasks)
        let baseDead = base.map { tombstones($0.deleted) }
        let ourDead = tombstones(ours.deleted), theirDead = tombstones(theirs.deleted)

        var merged: [UUID: TaskItem] = [:]
        for task in ours.tasks + theirs.tasks where merged[task.id] == nil {
            let id = task.id
            let baseTask = baseTasks?[id]
            switch (ourTasks[id], theirTasks[id]) {
            case let (o?, t?):
                let m = TaskMerge.merge(base: baseTask, ours: o, theirs: t)
                merged[id] = m.task
                conflicts += m.conflicts
                overrides += m.overridden
            case let (o?, nil):
                if survives(o, base: baseTask, hasBase: base != nil, otherDead: theirDead[id], baseDead: baseDead?[id]) {
                    merged[id] = o
                }
            case let (nil, t?):
                if survives(t, base: baseTask, hasBase: base != nil, otherDead: ourDead[id], baseDead: baseDead?[id]) {
                    merged[id] = t
                }
            case (nil, nil):
                break
            }
        }

        let keep = Set(merged.keys)
        let order = MergeOrder.merge(
            base: base?.tasks.map(\.id), ours: ours.tasks.map(\.id), theirs: theirs.tasks.map(\.id), keep: keep,
            rules: MergeOrderRules(
                unchangedInOurs: { id in unchanged(ourTasks[id], baseTasks?[id]) },
                unchangedInTheirs: { id in unchanged(theirTasks[id], baseTasks?[id]) },
                sameOnBothSides: { id in unchanged(ourTasks[id], theirTasks[id]) },
                oursWins: { id in
                    guard let o = ourTasks[id], let t = theirTasks[id] else { return ourTasks[id] != nil }
                    // The later placement (reorder or move into this list); on
                    // a tie (neither side placed it since, or a hand reorder)
                    // the later order-or-edit time, then ours.
                    if let side = MergeSide.later(ours: o.placedAt, theirs: t.placedAt) { return side == .ours }
                    return MergeSide.later(ours: o.orderTime, theirs: t.orderTime) != .theirs
                },
                oursRunFirst: { a, b in
                    guard let o = ourTasks[a], let t = theirTasks[b] else { return true }
                    return olderFirst((o.modifiedAt, o.id), (t.modifiedAt, t.id))
                },
                laterPlacement: { id in
                    guard let o = ourTasks[id], let t = theirTasks[id] else { return nil }
                    return MergeSide.later(ours: o.placedAt, theirs: t.placedAt)
                }))
        file.tasks = order.compactMap { merged[$0] }
        file.deleted = mergeTombstones(base: base, ours: ours, theirs: theirs, live: keep)
        return file
    }

    /// Whether a task that only one side has stays in the result.
    ///
    /// With a base version, the other side deleted it: it stays only when this
    /// side edited it (a reorder is not an edit) after the deletion, or the
    /// deletion left no record (a hand edit, or a move, which is not a
    /// deletion: the store-level merge then finds the task's other copy).
    /// Without one (a two-way merge, or a task added since the base), it
    /// stays unless the other side recorded its deletion (a tombstone that is
    /// not simply inherited from the base) at or after the task's last change.
    private static func survives(_ task: TaskItem, base: TaskItem?, hasBase: Bool, otherDead: Date?, baseDead: Date?) -> Bool {
        if let base, task.sameIgnoringOrder(as: base) { return false }
        guard let at = otherDead else { return true }
        if hasBase, let inherited = baseDead, MergeClock.seconds(inherited) >= MergeClock.seconds(at) { return true }
        return MergeClock.isLater(task.lastChange, than: at)
    }

    /// Tombstones merged per id like a field (without a base: a union),
    /// keeping the latest time when both changed, minus the tasks in the result.
    private static func mergeTombstones(base: TaskFile?, ours: TaskFile, theirs: TaskFile, live: Set<UUID>) -> [Tombstone] {
        let b = base.map { tombstones($0.deleted) }
        let o = tombstones(ours.deleted), t = tombstones(theirs.deleted)
        var merged: [UUID: Date] = [:]
        for id in Set(o.keys).union(t.keys) where !live.contains(id) {
            let ov = o[id], tv = t[id]
            let value: Date?
            if ov == tv {
                value = ov
            } else if let b, ov == b[id] {
                value = tv
            } else if let b, tv == b[id] {
                value = ov
            } else if let ov, let tv {
                value = MergeSide.later(ours: ov, theirs: tv) == .theirs ? tv : ov
            } else {
                value = ov ?? tv
            }
            if let value { merged[id] = value }
        }
        let order = MergeOrder.merge(
            base: base?.deleted.map(\.id), ours: ours.deleted.map(\.id), theirs: theirs.deleted.map(\.id),
            keep: Set(merged.keys),
            rules: MergeOrderRules(
                unchangedInOurs: { id in b?[id] == o[id] },
                unchangedInTheirs: { id in b?[id] == t[id] },
                sameOnBothSides: { id in o[id] == t[id] },
                oursWins: { id in
                    guard let ov = o[id], let tv = t[id] else { return o[id] != nil }
                    return MergeSide.later(ours: ov, theirs: tv) != .theirs
                },
                oursRunFirst: { a, c in
                    guard let oa = o[a], let tc = t[c] else { return true }
                    return olderFirst((oa, a), (tc, c))
                }))
        return order.compactMap { id in merged[id].map { Tombstone(id: id, at: $0) } }
    }

    /// Older first; equal times by lowercase id.
    private static func olderFirst(_ a: (Date, UUID), _ b: (Date, UUID)) -> Bool {
        let sa = MergeClock.seconds(a.0), sb = MergeClock.seconds(b.0)
        if sa != sb { return sa < sb }
        return a.1.lowercased < b.1.lowercased
    }

    private static func unchanged(_ a: TaskItem?, _ b: TaskItem?) -> Bool {
        guard let a, let b else { return false }
        return a.sameContent(as: b)
    }

    /// Tasks by id; the first of duplicated ids wins (valid files have none).
    private static func byID(_ tasks: [TaskItem]) -> [UUID: TaskItem] {
        var out: [UUID: TaskItem] = [:]
        out.reserveCapacity(tasks.count)
        for task in tasks where out[task.id] == nil { out[task.id] = task }
        return out
    }

    /// Tombstones by id, keeping the latest time of duplicates.
    private static func tombstones(_ list: [Tombstone]) -> [UUID: Date] {
        var out: [UUID: Date] = [:]
        for t in list {
            if let at = out[t.id], !MergeClock.isLater(t.at, than: at) { continue }
            out[t.id] = t.at
        }
        return out
    }
}

extension TaskItem {
    /// When the task last changed, for the delete rule (Docs/MERGE.md §6, §14):
    /// the later of its `modifiedAt` and every change time but `order` (a
    /// reorder is not a change). A move stamps `list`, which can run past
    /// `modifiedAt` when tick stamps a key one second after its previous
    /// change; a move made after a deletion keeps the task either way.
    var lastChange: Date {
        var last = modifiedAt
        for (key, time) in changed where key != "order" && MergeClock.isLater(time, than: last) { last = time }
        return last
    }
}
