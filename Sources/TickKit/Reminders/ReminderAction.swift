import FoundationEssentials
import Glibc

/// What a notification action does to a task. Pure: the caller writes the
/// result through the store's safe path.
public enum ReminderAction: String, Sendable, CaseIterable {
    /// Complete the task.
    case done
    /// Set `remind` to now plus the snooze delay.
    case snooze
    /// Move `due` (or `scheduled`) and `remind` to tomorrow at the same time of day.
    case tomorrow

    /// The action a notifier response asks for, if any.
    public init?(_ response: NotifierResponse) {
        switch response {
        case .done: self = .done
        case .snooze: self = .snooze
        case .tomorrow: self = .tomorrow
        case .dismissed, .unavailable: return nil
        }
    }

    /// Applies the action to `task`. Returns false when nothing changed (the
    /// task was already done, say). `modifiedAt` is bumped on a change.
    ///
    /// Tomorrow is the day after `now`'s local day. A timed `due` or `remind`
    /// keeps its wall-clock time (calendar arithmetic, so a DST change does
    /// not shift it); an all-day `due` and `scheduled` become that day. A task
    /// with neither a due nor a scheduled date is scheduled for tomorrow, so
    /// it shows in tomorrow's Today view.
    @discardableResult
    public func apply(to task: inout TaskItem, now: Date, timeZone: Zone, snooze: TimeInterval) -> Bool {
        let before = task
        switch self {
        case .done:
            task.setState(.done, at: now)
        case .snooze:
            task.remind = Date(timeIntervalSinceReferenceDate: (now.timeIntervalSinceReferenceDate + snooze).rounded(.down))
        case .tomorrow:
            let tomorrow = LocalDate(date: now, timeZone: timeZone).adding(days: 1)
            func sameTime(_ instant: Date) -> Date {
                TaskItem.move(instant, by: LocalDate(date: instant, timeZone: timeZone).days(until: tomorrow), timeZone: timeZone)
            }
            switch task.due {
            case .day?: task.due = .day(tomorrow)
            case .time(let instant)?: task.due = .time(sameTime(instant))
            case nil: break
            }
            if task.scheduled != nil || task.due == nil { task.scheduled = tomorrow }
            if var slot = task.slot {
                // The slot moves with the day, at the same time and length.
                slot.day = tomorrow
                task.slot = slot
                task.scheduled = tomorrow
            }
            if let remind = task.remind { task.remind = sameTime(remind) }
        }
        guard !task.sameContent(as: before) else { return false }
        task.modifiedAt = now
        return true
    }
}
