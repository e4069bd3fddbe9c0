import FoundationEssentials
import Glibc

/// Shows a reminder to the user and reports what they chose.
///
/// The one seam between tick and the desktop: `CommandNotifier` runs
/// `notify-send` (or a configured program); tests use a recording fake.
/// ``notify(_:)`` may block until the user acts (notify-send `--wait`), so the
/// watcher calls it off its main loop.
public protocol Notifier: Sendable {
    func notify(_ reminder: Reminder) -> NotifierResponse
}

/// One reminder to show.
public struct Reminder: Sendable, Equatable {
    public var taskID: UUID
    /// Where the task lived when the reminder fired.
    public var kind: FileKind
    public var title: String
    public var listName: String
    /// The `remind` instant this reminder is for.
    public var remindAt: Date
    public var due: TaskDate?
    /// True when it fires more than a minute after its time (the watcher was
    /// not running, or the machine slept).
    public var late: Bool

    public init(taskID: UUID, kind: FileKind, title: String, listName: String, remindAt: Date, due: TaskDate?, late: Bool) {
        self.taskID = taskID
        self.kind = kind
        self.title = title
        self.listName = listName
        self.remindAt = remindAt
        self.due = due
        self.late = late
    }

    /// The notification's one-line summary: the title, marked when late.
    public var summary: String { late ? "Late: \(title)" : title }

    /// The notification's body: due date, list, and when a late one was meant to fire.
    public func body(now: Date, timeZone: Zone) -> String {
        let dates = RelativeDateFormatter(now: now, timeZone: timeZone)
        var parts: [String] = []
        if let due { parts.append("Due \(dates.label(due))") }
        parts.append(listName)
        if late { parts.append("reminder was for \(dates.label(.time(remindAt)))") }
        return parts.joined(separator: " · ")
    }
}

/// What the user did with a notification.
public enum NotifierResponse: Sendable, Equatable {
    /// Mark the task done.
    case done
    /// Remind again later (the configured snooze).
    case snooze
    /// Move the task's dates and reminder to tomorrow.
    case tomorrow
    /// Closed or expired: change nothing.
    case dismissed
    /// No notification could be shown (program missing, no notification
    /// service); the watcher falls back to a line on stderr and a bell.
    case unavailable(String)
}
