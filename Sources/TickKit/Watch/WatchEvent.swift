import FoundationEssentials
import Glibc

/// What the watcher reports. Never carries a task's title or notes, except the
/// fallback reminder, which is the notification itself.
public enum WatchEvent: Sendable {
    /// Watching began (or began again) with this many inotify watches.
    case watching(root: String, watches: Int)
    /// A file was reindexed.
    case reindexed(path: String, tasks: Int, milliseconds: Double)
    /// A file disappeared from the store; its tasks left the index.
    case removed(path: String)
    /// Fields changed by hand in a file (in this many tasks) were given the
    /// file's mtime as their change time, and the file written back.
    case stamped(path: String, tasks: Int)
    /// A file failed to parse (reported once per change); its last good tasks stay, marked stale.
    case parseError(FormatError)
    /// Everything was rescanned, and why.
    case rescanned(reason: String, files: Int, milliseconds: Double)
    /// The store directory is gone; the watcher waits for it to come back.
    case storeGone(root: String)
    /// Reindexing failed for a reason other than the file's content.
    case failure(String)
    /// The watcher is shutting down.
    case stopping(signal: String)
    /// Changed paths were looked at and the index matches them (whether or
    /// not this watcher was the one to reindex them: a tick command may have
    /// been first).
    case settled
    /// Syncthing conflict copies were merged into their files and removed, or
    /// tasks found in several files were joined (ids and field names only).
    case resolved(copies: [String], joined: [UUID], overrides: [FieldOverride])
    /// Something left by syncing could not be merged (a copy tick cannot read):
    /// `tick status` lists it.
    case resolveFailed(String)
    /// Time passed (only with ``StoreWatcher/Options/heartbeat``).
    case heartbeat
    /// A reminder was handed to the notifier (late: it fired after its time).
    case reminderFired(taskID: UUID, late: Bool)
    /// The user chose an action (nil: dismissed); `changed` when the task was written.
    case reminderAnswered(taskID: UUID, action: ReminderAction?, changed: Bool)
    /// No notification could be shown: the reminder itself, for the fallback
    /// line (the one event that carries a title, because it *is* the notification).
    case reminderFallback(Reminder, reason: String)
}

/// Why the watcher could not run.
public enum WatchError: Error, LocalizedError, Sendable {
    case alreadyRunning(pid: Int32?, lockPath: String)
    case inotify(String)

    public var errorDescription: String? {
        switch self {
        case let .alreadyRunning(pid, lockPath):
            let who = pid.map { "pid \($0)" } ?? "another process"
            return "a watcher is already running for this store (\(who); lock \(lockPath)); stop it first, or use that one"
        case .inotify(let reason):
            return "cannot watch the store: \(reason)"
        }
    }
}

extension WatchError: TickError {
    public var kind: FailureKind { .failure }
}
