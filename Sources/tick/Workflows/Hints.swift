import TickKit

/// Prints the one-time hints (``Hint``) a command earned: on stderr, once per
/// store (``HintRecord``), unless `hints = false` or `TICK_HINTS=0`.
/// Commands call it only for their human output (never with `--json`).
struct Hints {
    let context: Context

    /// After `tick add`: reminders need a watcher; where to look next.
    func afterAdding(_ added: [ListedTask]) {
        show { Hint.afterAdding(added, watcherRunning: $0) }
    }

    /// After `tick edit`: reminders need a watcher.
    func afterEditing(_ edited: [ListedTask]) {
        show { Hint.afterEditing(edited, watcherRunning: $0) }
    }

    /// Prints the hints `earned` gives (told whether a watcher runs) that this store has not shown.
    private func show(_ earned: (Bool) -> [Hint]) {
        // config.toml's warnings were printed by the command itself.
        guard let config = try? context.config(warn: { _ in }),
              HintRecord.enabled(config: config, environment: context.environment) else { return }
        let location = context.store.location
        let hints = HintRecord(location: location).take(earned(WatchLock.runningPID(for: location) != nil))
        guard !hints.isEmpty else { return }
        let unit = WatcherSetup.unitInstalled(in: WatcherSetup.unitDirectories(environment: context.environment))
        let enable = WatcherSetup.enableCommand(unitInstalled: unit)
        for hint in hints { context.terminal.err("hint: " + hint.text(enable: enable)) }
    }
}
