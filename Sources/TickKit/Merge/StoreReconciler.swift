import Foundation

/// What reconciling a store did (ids only, never titles).
public struct ReconcileReport: Sendable, Equatable {
    /// Tasks found in more than one file, merged into one copy in one list.
    public var merged: [UUID] = []
    /// Copies removed because the task was deleted later in another file.
    public var removed: [UUID] = []
    /// Fields where one copy's change was discarded for a later one.
    public var overrides: [FieldOverride] = []
    /// The files rewritten.
    public var files: [FileKind] = []

    public init() {}

    /// True when nothing needed doing.
    public var isEmpty: Bool { merged.isEmpty && removed.isEmpty }
}

/// Makes a task's identity store-wide after merges that saw one file at a
/// time (Docs/MERGE.md §14): the same task id in several files is one task,
/// merged field by field without a base and kept in the list its latest
/// `changed.list` names; a copy of a task that another file records as
/// deleted after the copy's last change is removed. Archive files take part:
/// an archived copy is kept only while it was placed last and the merged task
/// is still done; otherwise the task goes back to a list (§14a).
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

        var isEmpty: Bool { replace.isEmpty && remove.isEmpty }

        func apply(to file: inout TaskFile) {
            file.tasks.removeAll { remove.contains($0.id) }
            for i in file.tasks.indices {
                if let task = replace[file.tasks[i].id] { file.tasks[i] = task }
            }
        }
    }

    /// Plans the reconciliation of `files` (each kind at most once).
    static func plan(_ files: [TaskFile]) -> (plans: [FileKind: FilePlan], report: ReconcileReport) {
        let sorted = files.sorted { $0.kind < $1.kind }
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
        for id in order {
            guard let found = copies[id] else { continue }
            var home = found[0].kind
            var task = found[0].task
            if found.count > 1 {
                // The list: the copy placed last (a tie goes to the first file in store order).
                var homeTime = MergeClock.seconds(found[0].task.listTime)
                for copy in found.dropFirst() {
                    let m = TaskMerge.merge(base: nil, ours: task, theirs: copy.task)
                    task = m.task
                    report.overrides += m.overridden
                    let t = MergeClock.seconds(copy.task.listTime)
                    if t > homeTime { home = copy.kind; homeTime = t }
                }
                // The archive holds done tasks only: one reopened (or never done)
                // after merging goes back to the list copy placed last.
                if home.isArchive, task.state != .done,
                   let list = found.filter({ !$0.kind.isArchive }).max(by: { MergeClock.seconds($0.task.listTime) < MergeClock.seconds($1.task.listTime) }) {
                    home = list.kind
                }
                if !home.isArchive { task = ArchivePlan.unarchived(task) }
                for copy in found where copy.kind != home { plans[copy.kind, default: FilePlan()].remove.insert(id) }
                // A place in the manual order is a place in one list: only the
                // home copy's reorder counts (git drops a reorder of a moved
                // task the same way: it is not an edit).
                let current = found.first(where: { $0.kind == home })?.task
                task.changed["order"] = current?.changed["order"]
                if let current, current != task {
                    plans[home, default: FilePlan()].replace[id] = task
                }
                report.merged.append(id)
            }
            // A deletion recorded in another file after this task's last change
            // removes it, unless the task was moved here at or after that
            // deletion (the record is then of the move out, by an older tick).
            let killedBy = (dead[id] ?? []).first { record in
                record.kind != home
                    && !MergeClock.isLater(task.modifiedAt, than: record.at)
                    && MergeClock.seconds(task.listTime) < MergeClock.seconds(record.at)
            }
            if killedBy != nil {
                plans[home, default: FilePlan()].replace[id] = nil
                plans[home, default: FilePlan()].remove.insert(id)
                report.removed.append(id)
            }
        }
        plans = plans.filter { !$0.value.isEmpty }
        report.files = plans.keys.sorted()
        return (plans, report)
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

    /// Reconciles the store's files under the lock. Files that cannot be read
    /// are left out (their tasks are not touched). The files that receive a
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
        let files: [TaskFile]
        if let only {
            files = try only.compactMap { kind in try writer.store.read(kind)?.file }
        } else {
            // Archive files too: an archived task is the same task as a copy a
            // merge left in a list (Docs/MERGE.md section 14).
            files = try writer.store.snapshot().files + writer.store.archiveSnapshot().files
        }
        let (plans, report) = plan(files)
        guard !plans.isEmpty else { return report }
        let kinds = plans.keys.sorted { a, b in
            let ra = plans[a]?.replace.isEmpty == false, rb = plans[b]?.replace.isEmpty == false
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
