import FoundationEssentials
import Glibc

/// What reconciling a store did (ids only, never titles).
public struct ReconcileReport: Sendable, Equatable {
    /// Tasks found in more than one file, merged into one copy in one list.
    public var merged: [UUID] = []
    /// Copies removed because the task was deleted later in another file.
    public var removed: [UUID] = []
    /// Untouched next occurrences removed because their repeating task is
    /// not done (a reopen took them back; Docs/RECURRENCE.md).
    public var withdrawn: [UUID] = []
    /// Fields where one copy's change was discarded for a later one.
    public var overrides: [FieldOverride] = []
    /// The files rewritten.
    public var files: [FileKind] = []

    public init() {}

    /// True when nothing needed doing.
    public var isEmpty: Bool { merged.isEmpty && removed.isEmpty && withdrawn.isEmpty }
}

/// Makes a task's identity store-wide after merges that saw one file at a
/// time (Docs/MERGE.md §14): the same task id in several files is one task,
/// merged field by field without a base and kept in the list its latest
/// `changed.list` names; a copy of a task that another file records as
/// deleted after the copy's last change is removed. Archive files take part:
/// an archived copy is kept only while it was placed last and the merged task
/// is still done; otherwise the task goes back to the list it was placed in
/// last, `archivedFrom` included (§14a). The untouched next occurrence of a
/// repeating task that is not done is removed (Docs/RECURRENCE.md).
///
/// Deterministic: it depends only on the files' contents, so every machine
/// that reconciles the same store writes the same bytes.
public enum StoreReconciler {
    /// What to do to one file.
    struct FilePlan {
        /// Tasks to replace by their merged version (in place).
        var replace: [UUID: TaskItem] = [:]
        /// Tasks to remove.
        var remove: Set<UUID> = []
        /// Tasks to add at the end (a task going back from the archive to a
        /// list that holds no copy of it).
        var append: [TaskItem] = []

        var isEmpty: Bool { replace.isEmpty && remove.isEmpty && append.isEmpty }
        /// True when the file receives a merged task (written first).
        var receives: Bool { !replace.isEmpty || !append.isEmpty }

        func apply(to file: inout TaskFile) {
            file.tasks.removeAll { remove.contains($0.id) }
            for i in file.tasks.indices {
                if let task = replace[file.tasks[i].id] { file.tasks[i] = task }
            }
            for task in append where file.index(of: task.id) == nil {
                file.tasks.append(task)
                file.deleted.removeAll { $0.id == task.id }
            }
        }
    }

    /// One task of the store after joining its copies.
    private struct Joined {
        var copies: [(kind: FileKind, task: TaskItem)]
        /// The file the task stays in.
        var home: FileKind
        var task: TaskItem
    }

    /// Plans the reconciliation of `files` (each kind at most once).
    static func plan(_ files: [TaskFile]) -> (plans: [FileKind: FilePlan], report: ReconcileReport) {
        let sorted = files.sorted { $0.kind < $1.kind }
        let present = Set(sorted.map(\.kind))
        var copies: [UUID: [(kind: FileKind, task: TaskItem)]] = [:]
        var order: [UUID] = []
        var dead: [UUID: [(kind: FileKind, at: Date)]] = [:]
        for file in sorted {
            for task in file.tasks {
                if copies[task.id] == nil { order.append(task.id) }
                copies[task.id, default: []].append((file.kind, task))
            }
            for t in file.deleted { dead[t.id, default: []].append((file.kind, t.at)) }
        }
        var plans: [FileKind: FilePlan] = [:]
        var report = ReconcileReport()
        var joined: [UUID: Joined] = [:]
        for id in order {
            guard let found = copies[id] else { continue }
            var one = Joined(copies: found, home: found[0].kind, task: found[0].task)
            if found.count > 1 {
                join(&one, present: present, report: &report)
                for copy in found where copy.kind != one.home { plans[copy.kind, default: FilePlan()].remove.insert(id) }
                if let current = found.first(where: { $0.kind == one.home })?.task {
                    if current != one.task { plans[one.home, default: FilePlan()].replace[id] = one.task }
                } else {
                    plans[one.home, default: FilePlan()].append.append(one.task)
                }
                report.merged.append(id)
            }
            joined[id] = one
        }
        var gone = Set<UUID>(), withdrawn = Set<UUID>()
        for id in order {
            guard let one = joined[id] else { continue }
            // A deletion recorded in another file after this task's last change
            // removes it, unless the task was moved here at or after that
            // deletion (the record is then of the move out, by an older tick).
            let killed = (dead[id] ?? []).contains { record in
                record.kind != one.home
                    && !MergeClock.isLater(one.task.lastChange, than: record.at)
                    && MergeClock.seconds(one.task.listTime) < MergeClock.seconds(record.at)
            }
            if killed { gone.insert(id) }
        }
        // A repeating task that is not done has no untouched next occurrence:
        // a reopen took it back (Docs/RECURRENCE.md, "Repeating tasks under sync").
        for id in order where !gone.contains(id) {
            guard let one = joined[id], one.task.repeatRule != nil, one.task.state != .done else { continue }
            let next = TaskFile.nextOccurrenceID(after: id)
            if let n = joined[next], !gone.contains(next), n.task.isUntouchedOccurrence {
                gone.insert(next)
                withdrawn.insert(next)
            }
        }
        for id in order where gone.contains(id) {
            guard let one = joined[id] else { continue }
            for copy in one.copies {
                plans[copy.kind, default: FilePlan()].replace[id] = nil
                plans[copy.kind, default: FilePlan()].remove.insert(id)
            }
            plans[one.home, default: FilePlan()].append.removeAll { $0.id == id }
            if withdrawn.contains(id) { report.withdrawn.append(id) } else { report.removed.append(id) }
        }
        plans = plans.filter { !$0.value.isEmpty }
        report.files = plans.keys.sorted()
        return (plans, report)
    }

    /// Joins a task's copies into one and picks its file: the copy placed
    /// last (a tie goes to the first file in store order). The archive holds
    /// done tasks only: one reopened (or never done) after merging goes back
    /// to the list it was placed in last, among the list copies and the
    /// archived copy's `archivedFrom` (placed at its `changed` time); a task
    /// that stays archived takes that list as its `archivedFrom` (§14a).
    private static func join(_ one: inout Joined, present: Set<FileKind>, report: inout ReconcileReport) {
        let found = one.copies
        var homeTime = MergeClock.seconds(found[0].task.listTime)
        for copy in found.dropFirst() {
            let m = TaskMerge.merge(base: nil, ours: one.task, theirs: copy.task)
            one.task = m.task
            report.overrides += m.overridden
            let t = MergeClock.seconds(copy.task.listTime)
            if t > homeTime { one.home = copy.kind; homeTime = t }
        }
        // The list placed last: a list copy (when it was placed there) or an
        // archived copy's origin (when it was placed there before archiving);
        // the origin wins ties, then the first file in store order.
        var list: (kind: FileKind, time: Int64)?
        for copy in found where copy.kind.isArchive {
            guard let origin = ArchivePlan.origin(of: copy.task), present.contains(origin) else { continue }
            let t = MergeClock.seconds(copy.task.changed[ArchivePlan.fromKey] ?? .distantPast)
            if list == nil || t > (list?.time ?? 0) { list = (origin, t) }
        }
        for copy in found where !copy.kind.isArchive {
            let t = MergeClock.seconds(copy.task.listTime)
            if list == nil || t > (list?.time ?? 0) { list = (copy.kind, t) }
        }
        if one.home.isArchive, let list {
            if one.task.state == .done {
                one.task = ArchivePlan.withOrigin(one.task, list.kind, placedAt: Date(timeIntervalSince1970: TimeInterval(list.time)))
            } else {
                one.home = list.kind
            }
        }
        if !one.home.isArchive { one.task = ArchivePlan.unarchived(one.task) }
        // A place in the manual order is a place in one list: only the
        // home copy's reorder counts (git drops a reorder of a moved
        // task the same way: it is not an edit).
        one.task.changed["order"] = found.first(where: { $0.kind == one.home })?.task.changed["order"]
    }

    /// Reconciles files in memory: the result and what was done.
    public static func reconcile(_ files: [TaskFile]) -> (files: [TaskFile], report: ReconcileReport) {
        let (plans, report) = plan(files)
        guard !plans.isEmpty else { return (files, report) }
        let out = files.map { file -> TaskFile in
            guard let p = plans[file.kind] else { return file }
            var f = file
            p.apply(to: &f)
            return f
        }
        return (out, report)
    }

    /// Reconciles the store's files under the lock. Each file's hand edits are
    /// stamped first (``StoreWriter/stampHandEdits(_:)``), so the plan sees
    /// them with their change times. Files that cannot be read are left out
    /// (their tasks are not touched). The files that receive a
    /// merged task are written before those that lose a copy, so an
    /// interruption never loses a change. Merged values are written as they
    /// are (they are not changes made now).
    ///
    /// - Parameter keep: called with each file's version before it is rewritten.
    /// With `only`, reads and reconciles just those files (a write healing the
    /// task it is about to change: cheap, whatever the size of the store).
    public static func run(writer: StoreWriter, only: [FileKind]? = nil, keep: (TaskFile) -> Void = { _ in }) throws -> ReconcileReport {
        // Joining copies of one task is a merge: the user's hooks do not see it.
        let writer = StoreWriter(store: writer.store.withoutHooks())
        // Archive files too: an archived task is the same task as a copy a
        // merge left in a list (Docs/MERGE.md section 14).
        let reading = try only ?? (writer.store.kinds() + writer.store.archiveKinds())
        // Each file's hand edits are stamped first, as a step of their own (the
        // plan below consults no written copy): planned from unstamped files,
        // an edit made here would lose to an older copy by value order, and
        // the write below, which stamps it, would replace it by that plan.
        // Files that cannot be parsed are left out below.
        for kind in reading { _ = try? writer.stampHandEdits(kind) }
        let files: [TaskFile]
        if let only {
            files = try only.compactMap { kind in try writer.store.read(kind)?.file }
        } else {
            files = try writer.store.snapshot().files + writer.store.archiveSnapshot().files
        }
        let (plans, report) = plan(files)
        guard !plans.isEmpty else { return report }
        let kinds = plans.keys.sorted { a, b in
            let ra = plans[a]?.receives == true, rb = plans[b]?.receives == true
            return ra != rb ? ra : a < b
        }
        for kind in kinds {
            guard let p = plans[kind] else { continue }
            try writer.update(kind, stampChanges: false) { file in
                keep(file)
                p.apply(to: &file)
            }
        }
        return report
    }
}
