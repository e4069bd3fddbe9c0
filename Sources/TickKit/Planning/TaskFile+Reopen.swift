import FoundationEssentials

/// What reopening a repeating task did with the next occurrence its
/// completion had created.
public enum NextOccurrenceOnReopen: Sendable, Equatable {
    /// The task does not repeat, or its next occurrence is not in this file.
    case none
    /// The next occurrence was untouched (open, never changed) and is removed,
    /// so the series has one open task again (as `tick undo` would leave it).
    /// No tombstone: completing the task again makes the same occurrence, and
    /// the store merge drops untouched copies of it elsewhere while the task is
    /// not done (Docs/RECURRENCE.md, "Repeating tasks under sync").
    case removed(TaskItem)
    /// The next occurrence was changed, started or completed since: it stays.
    case kept(TaskItem)
}

extension TaskFile {
    /// Sets a task back to open, or `state` (`tick start` of a done task),
    /// clearing `completedAt`. When it repeats, the next occurrence its
    /// completion created (same file, deterministic id) is removed if nobody
    /// touched it, without a tombstone (synced copies are dropped by
    /// ``StoreReconciler`` while this task is not done); completing the task
    /// again creates the same occurrence afresh.
    public mutating func reopen(taskID: UUID, at now: Date, to state: TaskState = .open) throws -> (changed: Bool, task: TaskItem, next: NextOccurrenceOnReopen) {
        guard let i = index(of: taskID) else { throw LookupError.taskNotFound(taskID.lowercased) }
        let wasDone = tasks[i].state == .done
        guard tasks[i].setState(state, at: now) else { return (false, tasks[i], .none) }
        tasks[i].modifiedAt = now
        let task = tasks[i]
        guard wasDone, task.repeatRule != nil, let n = index(of: Self.nextOccurrenceID(after: taskID)) else {
            return (true, task, .none)
        }
        let next = tasks[n]
        guard next.isUntouchedOccurrence else { return (true, task, .kept(next)) }
        tasks.remove(at: n)
        return (true, task, .removed(next))
    }
}

extension TaskItem {
    /// Open and never changed since it was created (no change time later than
    /// its creation, no later modification): a next occurrence nobody has used
    /// yet. (A merge of two such copies may record change times equal to the
    /// creation: still untouched.)
    var isUntouchedOccurrence: Bool {
        let created = MergeClock.seconds(createdAt)
        return state == .open && completedAt == nil && MergeClock.seconds(modifiedAt) == created
            && changed.values.allSatisfy { MergeClock.seconds($0) <= created }
    }
}
