import FoundationEssentials
import Glibc

/// A one-time hint for a new user (Docs/CLI.md "Hints"): what a feature
/// needs, or where to go next. Each is shown once per store (``HintRecord``),
/// on stderr, never with `--json`; `hints = false` in config.toml or
/// `TICK_HINTS=0` turns them off.
public enum Hint: String, Sendable, CaseIterable {
    /// A reminder was set while no watcher runs: reminders need `tick watch`.
    case reminders
    /// The first task was added: `tick`, `tick ui` and the status line.
    case firstTask = "first-task"

    /// The hints adding `added` may earn, in order: ``reminders`` when a new
    /// task has a reminder or a due time and no watcher runs for the store,
    /// then ``firstTask``.
    public static func afterAdding(_ added: [ListedTask], watcherRunning: Bool) -> [Hint] {
        guard !added.isEmpty else { return [] }
        return afterEditing(added, watcherRunning: watcherRunning) + [.firstTask]
    }

    /// The hints an edit earns: the watcher's, when an edited task has a
    /// reminder or a due time and no watcher runs.
    public static func afterEditing(_ edited: [ListedTask], watcherRunning: Bool) -> [Hint] {
        let timed = edited.contains { item in
            if item.task.remind != nil { return true }
            if case .time = item.task.due { return true }
            return false
        }
        return timed && !watcherRunning ? [.reminders] : []
    }

    /// The hint's text; `enable` is the command that starts the watcher
    /// (``WatcherSetup/enableCommand(unitInstalled:)``).
    public func text(enable: String) -> String {
        switch self {
        case .reminders:
            return "reminders pop up only while tick's watcher runs, and none is running; start it with: \(enable)"
        case .firstTask:
            return "`tick` shows what is due today, `tick list` everything; `tick ui` is one screen for all of it, "
                + "and `tick status-line` puts today's count in your status bar (Docs/STATUS-LINE.md)"
        }
    }
}
