import Foundation

/// What reopening a repeating task did with the next occurrence its
/// completion had created.
public enum NextOccurrenceOnReopen: Sendable, Equatable {
    /// The task does not repeat, or its next occurrence is not in this file.
    case none
    /// The next occurrence was untouched (open, never changed) and is removed,
    /// so the series has one open task again (as `tick undo` would leave it).
    case removed(TaskItem)
    /// The next occurrence was changed, started or completed since: it stays.
    case kept(TaskItem)
}

extension TaskFile {
    /// Sets a task back to open (clearing `completedAt`). When it repeats, the
    /// next occurrence its completion created (same file, deterministic id) is
    /// removed if nobody touched it, with a tombstone so that synced copies
    /// drop it too; completing the task again creates it afresh.
    public mutating func reopen(taskID: UUID, at now: Date) throws -> (changed: Bool, task: TaskItem, next: NextOccurrenceOnReopen) {
        guard let i = index(of: taskID) else { throw LookupError.taskNotFound(taskID.lowercased) }
        let wasDone = tasks[i].state == .done
        guard tasks[i].setState(.open, at: now) else { return (false, tasks[i], .none) }
        tasks[i].modifiedAt = now
        let task = tasks[i]
        guard wasDone, task.repeatRule != nil, let n = index(of: Self.nextOccurrenceID(after: taskID)) else {
            return (true, task, .none)
        }
        let next = tasks[n]
        guard next.isUntouchedOccurrence else { return (true, task, .kept(next)) }
        tasks.remove(at: n)
        recordDeletion(of: [next.id], at: now)
        return (true, task, .removed(next))
    }
}

extension TaskItem {
    /// Open and never changed since it was created (no change time recorded, no
    /// later modification): a next occurrence nobody has used yet.
    var isUntouchedOccurrence: Bool {
        state == .open && completedAt == nil && changed.isEmpty && modifiedAt == createdAt
    }
}
