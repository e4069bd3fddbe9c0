import FoundationEssentials

/// Taskwarrior's warning for a wait date after the due date: the task stays
/// hidden until after it is due (issue 46). The dates are kept as typed; the
/// warning says so and how to clear the wait.
public enum WaitAfterDue {
    /// The warning for `task` (named `reference` in it), or nil when its wait
    /// is not after its due. A day ends at the next day's start; a wait day
    /// starts at its first moment.
    public static func warning(for task: TaskItem, reference: String, timeZone: Zone) -> TickWarning? {
        guard let wait = task.wait, let due = task.due else { return nil }
        let waitStart: Date
        switch wait {
        case .day(let day): waitStart = day.startOfDay(in: timeZone)
        case .time(let t): waitStart = t
        }
        let after: Bool
        switch due {
        case .day(let day): after = waitStart >= day.adding(days: 1).startOfDay(in: timeZone)
        case .time(let t): after = waitStart > t
        }
        guard after else { return nil }
        return TickWarning("\(reference) waits until \(wait.fileString), after it is due (\(due.fileString)), so it stays hidden until it is overdue; "
            + "`tick edit \(reference) wait:` clears the wait")
    }
}
