import FoundationEssentials
import Glibc

/// What makes `tick undo` a change under sync (Docs/MERGE.md "Undo under
/// sync"): the files ``UndoReverter`` puts back are stamped with the undo's
/// time, so the undo wins wherever the change it undid has gone.
///
/// - a field, tag or dependency the undo puts back gets a change time at
///   `now` (after its previous one, ``TaskChange/stamp(now:after:)``) and the
///   task's `modifiedAt` advances; fields the undo does not touch keep theirs;
/// - a reorder undone stamps `order` (not an edit: `modifiedAt` stays);
/// - a task moved back to its list stamps `list` (and, like a move, drops
///   `order`); the file it leaves gets no tombstone (a move is not a deletion);
/// - a deleted task put back is re-created: its `modifiedAt` is after its
///   tombstone, and the tombstone is dropped;
/// - a task removed again (an add undone) gets a tombstone at `now` (or at
///   its last change, when that is later), unless the undo keeps it in
///   another file of the entry;
/// - the list's own fields put back (a rename undone) advance the file's
///   `modifiedAt`, which decides list metadata in a merge.
///
/// Pure: it takes the files as they are and what the reverter made of them.
public struct UndoStamping: Sendable {
    /// The undo's time.
    public var now: Date
    /// The entry's tasks as the store has them before the undo, in any of its files:
    /// where a task moved back takes its change times from.
    public var current: [UUID: TaskItem]
    /// The tasks in the entry's files once undone: a task removed from one
    /// file but kept in another is moved, not deleted.
    public var kept: Set<UUID>

    /// A stamping at `now`, with the entry's tasks as they are (`current`) and those the undo keeps (`kept`).
    public init(now: Date, current: [UUID: TaskItem] = [:], kept: Set<UUID> = []) {
        self.now = now
        self.current = current
        self.kept = kept
    }

    /// The stamping for an entry: `files` are its files as they are now (nil
    /// when missing) and `outcomes` what the reverter made of each.
    public init(now: Date, files: [TaskFile?], outcomes: [UndoReverter.Outcome], kinds: [FileKind]) {
        var current: [UUID: TaskItem] = [:]
        var kept = Set<UUID>()
        for file in files.compactMap({ $0 }) {
            for task in file.tasks where current[task.id] == nil { current[task.id] = task }
        }
        for (i, outcome) in outcomes.enumerated() {
            switch outcome {
            case .write(let file):
                kept.formUnion(file.tasks.map(\.id))
            case .keep:
                if i < files.count, let file = files[i] { kept.formUnion(file.tasks.map(\.id)) }
            case let .restore(bytes, _):
                if i < kinds.count, let file = try? FileStep.decodeFile(bytes, kind: kinds[i]) {
                    kept.formUnion(file.tasks.map(\.id))
                }
            case .delete:
                break
            }
        }
        self.init(now: now, current: current, kept: kept)
    }

    /// The outcome to write instead of `outcome`, for the file `kind` as it
    /// is now (`file`). A file restored byte for byte (a deleted list put
    /// back) is left as it was; an inbox the undone command created keeps
    /// existing when it has to record the deletion of an undone add.
    public func stamp(_ outcome: UndoReverter.Outcome, kind: FileKind, file: TaskFile?) -> UndoReverter.Outcome {
        guard let file else { return outcome }
        switch outcome {
        case .write(var result):
            stamp(&result, over: file)
            return result == file ? .keep : .write(result)
        case .delete:
            guard kind == .inbox else { return .delete }
            var result = file
            result.tasks = []
            stamp(&result, over: file)
            return result.deleted == file.deleted ? .delete : .write(result)
        case .keep, .restore:
            return outcome
        }
    }

    /// Stamps `result` (what the reverter made of `file`) at ``now``.
    public func stamp(_ result: inout TaskFile, over file: TaskFile) {
        var before: [UUID: TaskItem] = [:]
        for task in file.tasks where before[task.id] == nil { before[task.id] = task }
        var dead: [UUID: Date] = [:]
        for t in file.deleted { dead[t.id] = max(dead[t.id] ?? t.at, t.at) }
        var live = Set<UUID>()
        for i in result.tasks.indices {
            let task = result.tasks[i]
            live.insert(task.id)
            if let old = before[task.id] {
                result.tasks[i] = restamped(task, over: old)
            } else if let elsewhere = current[task.id] {
                result.tasks[i] = movedBack(task, from: elsewhere)
            } else {
                result.tasks[i] = recreated(task, after: dead[task.id])
            }
        }
        result.deleted.removeAll { live.contains($0.id) }
        let gone = file.tasks.filter { !live.contains($0.id) && !kept.contains($0.id) }
        // At or after the task's last change is enough for a merge to delete its
        // copies (Docs/MERGE.md §10); not later than needed, so completing a
        // repeating task again in the same second still creates its next
        // occurrence (``TaskFile/insertNextOccurrence(of:now:timeZone:existsElsewhere:)``).
        // A next occurrence taken back with its series' completion leaves none, as
        // `tick reopen` leaves none: the store merge withdraws its synced copies
        // while the series is not done (RECURRENCE.md, "Repeating tasks under sync").
        let withdrawn = Set(result.tasks.filter { $0.state != .done && $0.repeatRule != nil }.map { TaskFile.nextOccurrenceID(after: $0.id) })
        for task in gone where !withdrawn.contains(task.id) {
            result.recordDeletion(of: [task.id], at: max(now, task.modifiedAt, task.changeTime("list")))
        }
        if !FileStep.sameHeader(result, file) {
            result.modifiedAt = TaskChange.stamp(now: now, after: file.modifiedAt)
        }
    }

    /// A task the undo changed in place: `task` (its values put back) with
    /// `old`'s change times, and the keys whose values differ stamped at now;
    /// a reorder or a move undone stamps `order` or `list`.
    func restamped(_ task: TaskItem, over old: TaskItem) -> TaskItem {
        guard task != old else { return task }
        var t = task
        t.changed = old.changed
        t.modifiedAt = old.modifiedAt
        t.stampChanges(since: old, at: now)
        for key in ["list", "order"] where task.changed[key] != old.changed[key] {
            t.changed[key] = TaskChange.stamp(now: now, after: old.changeTime(key))
        }
        return t
    }

    /// A task the undo puts back into this file from another one (a move
    /// undone): placed here now, later than the move it undoes.
    func movedBack(_ task: TaskItem, from elsewhere: TaskItem) -> TaskItem {
        var t = task
        t.changed = elsewhere.changed
        t.modifiedAt = elsewhere.modifiedAt
        t.stampChanges(since: elsewhere, at: now)
        let placed = TaskChange.stamp(now: now, after: elsewhere.changeTime("list"))
        t.changed["list"] = placed
        t.changed["order"] = nil   // its place was in the other list
        if t.modifiedAt < placed { t.modifiedAt = placed }
        return t
    }

    /// A deleted task the undo puts back: re-created now, after its tombstone.
    func recreated(_ task: TaskItem, after tombstone: Date?) -> TaskItem {
        var t = task
        if t.changed.isEmpty {
            // Without change times every field counts as changed at `modifiedAt`
            // (FORMAT.md §4): moving it to now would date the old values now and
            // let them beat what other machines changed meanwhile. They keep their time.
            let blank = TaskItem(id: t.id, title: "", createdAt: t.createdAt, modifiedAt: t.createdAt)
            for key in t.changedKeys(comparedTo: blank) { t.changed[key] = t.modifiedAt }
            if t.changed.isEmpty { t.changed["title"] = t.modifiedAt }
        }
        let previous = max(task.modifiedAt, tombstone ?? task.modifiedAt)
        t.modifiedAt = TaskChange.stamp(now: now, after: previous)
        return t
    }
}
