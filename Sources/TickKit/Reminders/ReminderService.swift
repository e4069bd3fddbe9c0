import FoundationEssentials
import Glibc

/// Decides which reminders fire, remembers what fired, and carries out the
/// user's choice. Used by `tick watch`; knows nothing of threads or inotify.
///
/// Everything takes `now` from the caller, so tests drive it with a fixed clock.
public final class ReminderService {
    public let store: Store
    public let index: TaskIndex
    public let settings: ReminderSettings
    public let timeZone: Zone
    private let fired: FiredReminders

    public init(store: Store, index: TaskIndex, settings: ReminderSettings, timeZone: Zone, fired: FiredReminders) {
        self.store = store
        self.index = index
        self.settings = settings
        self.timeZone = timeZone
        self.fired = fired
    }

    /// The reminders to show now: pending tasks whose `remind` is at or before
    /// `now` and within the late window, not yet fired on this machine. They
    /// are recorded as fired (and the record saved) before they are returned,
    /// so a crash or restart never shows them twice.
    ///
    /// The index is brought up to date first, so a task completed or deleted
    /// a moment ago never fires.
    public func due(now: Date) throws -> [Reminder] {
        let from = now.addingTimeInterval(-settings.lateWindow)
        guard try !index.reminders(in: from...now).isEmpty else { return [] }
        try index.refresh()
        var out: [Reminder] = []
        for item in try index.reminders(in: from...now) {
            guard let at = item.task.remind, !fired.hasFired(item.task.id, at: at) else { continue }
            fired.record(item.task.id, at: at)
            out.append(Reminder(
                taskID: item.task.id, kind: item.kind, title: item.task.title, listName: item.listName,
                remindAt: at, due: item.task.due, late: now.timeIntervalSince(at) > settings.lateAfter))
        }
        if !out.isEmpty {
            // Kept as long as `tick today` looks for missed reminders, so a fired one never shows as missed.
            try fired.save(keepAfter: from.addingTimeInterval(-MissedReminders.retention))
        }
        return out
    }

    /// When the next reminder after `now` is due, if any.
    public func nextWake(after now: Date) throws -> Date? {
        try index.nextReminder(after: now)
    }

    /// What carrying out an action did.
    public enum Outcome: Sendable, Equatable {
        /// The task changed and was written.
        case changed(ReminderAction)
        /// Nothing to do (already done, say).
        case unchanged(ReminderAction)
        /// The task is no longer in the store.
        case gone
    }

    /// Carries out `action` on the reminder's task through the store's safe
    /// write path (lock, re-read, atomic write). The task is looked up by id,
    /// so it is found even if it moved to another list meanwhile. Done goes
    /// through ``TaskFile/complete(taskID:at:timeZone:existsElsewhere:)``, so a
    /// recurring task gets its next occurrence exactly as with `tick done`.
    /// When the store keeps an undo journal, the action is an entry of its
    /// own, named `reminder ACTION` (`tick undo` reverts it like a command).
    public func perform(_ action: ReminderAction, on reminder: Reminder, now: Date) throws -> Outcome {
        try index.refresh()
        guard let current = try index.task(id: reminder.taskID) else { return .gone }
        let store = self.store.journal.map { self.store.with(journal: $0.restarted(at: now, as: "reminder " + action.rawValue)) } ?? self.store
        let settings = self.settings
        let timeZone = self.timeZone
        let index = self.index
        let changed = try store.withLock { writer in
            try writer.update(current.kind) { file -> Bool in
                guard file.index(of: reminder.taskID) != nil else { return false }
                if action == .done {
                    // The one completion path: a recurring task gets its next occurrence.
                    return try file.complete(taskID: reminder.taskID, at: now, timeZone: timeZone) { id in
                        index.contains(id, outside: current.kind) || writer.store.archiveHolds(id)
                    }.changed
                }
                return try file.updateTask(reminder.taskID) { task in
                    action.apply(to: &task, now: now, timeZone: timeZone, snooze: settings.snooze)
                }
            }
        }
        return changed ? .changed(action) : .unchanged(action)
    }
}
