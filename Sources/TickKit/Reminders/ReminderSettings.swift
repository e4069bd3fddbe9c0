import FoundationEssentials
import Glibc

/// How reminders behave; read from `[reminders]` in config.toml.
public struct ReminderSettings: Sendable, Equatable {
    /// How far Snooze pushes `remind` from the moment it is chosen.
    public var snooze: TimeInterval = 10 * 60
    /// Missed reminders older than this do not fire when the watcher comes
    /// back; they just show as overdue.
    public var lateWindow: TimeInterval = 24 * 3600
    /// A reminder shown later than this after its time is marked late.
    public var lateAfter: TimeInterval = 60
    /// The notifier's argument vector (see ``CommandNotifier``).
    public var command: [String] = CommandNotifier.defaultCommand
    /// When no notification can be shown: a line on stderr and a bell.
    public var fallback: Bool = true

    public init() {}
}
