import ArgumentParser
import Dispatch
import FoundationEssentials
import Glibc
import TickKit

extension Tick {
    struct Watch: TickCommand {
        static let facts = CommandFacts(writes: true, journaled: false, runsHooks: false)
        static let configuration = CommandConfiguration.sub(CommandConfiguration(
            commandName: "watch",
            abstract: "Watch the store, keep the index current, and fire reminders (a foreground daemon).",
            discussion: """
            Watches the store with inotify and reindexes a file within milliseconds of
            any change to it, whoever made it: tick, an editor, sed -i, git or
            Syncthing. Temporary and swap files are ignored. A file that fails to parse
            is reported once per change, with file:line:column; its last good tasks
            stay listed, and tick never rewrites it.

            REMINDERS
            A pending task with remind:WHEN gets a desktop notification at that time
            (notify-send --wait, with Mark done, Snooze and Tomorrow actions), showing
            its title and due date. A changed remind, by any route, reschedules at
            once. Mark done completes the task; Snooze sets remind 10 minutes later;
            Tomorrow moves due (or scheduled) and remind to tomorrow at the same time
            of day; closing the notification changes nothing. Reminders missed while
            no watcher ran fire once when it starts, marked late, if they are less
            than 24 hours old; older ones just show as overdue. What fired is recorded
            in $XDG_STATE_HOME/tick/<store>/reminders.json, so a restart never fires
            one twice. Every machine that runs a watcher notifies.
            Without a notification service, the reminder is a line on stderr and a
            terminal bell. Settings ([reminders] snooze, late-window, command,
            fallback) live in ~/.config/tick/config.toml; set-up in Docs/DESKTOP.md.

            CALDAV
            When the CalDAV bridge is set up (`tick dav setup`), the watcher runs
            `tick dav sync`'s work at start, after store changes (once quiet for
            [dav] debounce, default 2s) and every [dav] interval (default 45s);
            [dav] watch = false turns it off. One line per sync (counts, overridden
            fields by task id) or failure. What a sync changes in the store (a task
            deleted on the phone) is in `tick undo --list` as a `dav sync` entry,
            as after `tick dav sync`, and `tick undo` reverts it. See Docs/DAV.md.

            Logs one line per reindex to stderr (file, task count, milliseconds; never
            a title). Only one watcher runs per store. SIGINT and SIGTERM stop it
            cleanly. See Docs/tick-watch.service for a systemd user unit.

            Commands stay correct without a watcher: each one checks the files first.

            EXAMPLES
              tick watch &
              tick watch --no-reminders
            """))

        @OptionGroup var global: GlobalOptions

        @Flag(help: "Only keep the index current; fire no reminders.")
        var noReminders = false

        func run() throws {
            let context = try Context(global)
            let config = try context.config()
            let lock = try WatchLock(location: context.store.location)
            defer { lock.release() }
            // A daemon's writes happen long after it started: stamp them with a running clock.
            let store = context.store.with(clock: context.clock)
            let t = context.terminal
            var reminders: StoreWatcher.Reminders?
            // A notification's action (done, snooze, tomorrow) is an undo-journal
            // entry of its own, `reminder done`, as a command's change is.
            let reminderJournal = JournalSession(journal: UndoJournal(location: store.location), command: "reminder", now: context.clock())
            if !noReminders {
                let settings = config.reminders
                let service = ReminderService(
                    store: store.with(journal: reminderJournal), index: context.index, settings: settings,
                    timeZone: context.timeZone, fired: FiredReminders(location: context.store.location))
                let notifier = CommandNotifier(
                    command: settings.command, clock: context.clock, timeZone: context.timeZone,
                    directory: context.store.location.root, environment: context.environment)
                reminders = StoreWatcher.Reminders(service: service, notifier: notifier, clock: context.clock)
            }
            let fallback = config.reminders.fallback
            let clock = context.clock
            let zone = context.timeZone
            var options = StoreWatcher.Options()
            options.autoResolve = config.autoResolve
            // The CalDAV bridge, when it is set up: at start, after changes, on an interval.
            var davScheduler: DavScheduler?
            let davConfig = DavSetup.configPath(environment: context.environment)
            if config.dav.watch, FileManager.default.fileExists(atPath: davConfig) {
                let root = config.dav.resolvedPath(environment: context.environment)
                let settings = config.dav
                let fields = config.fields
                let environment = context.environment
                // What a sync changes in the store goes into the undo journal as
                // `tick dav sync`'s changes do, under its name: DavSync makes each
                // sync that changed the store an entry of its own.
                let journal = JournalSession(
                    journal: UndoJournal(location: store.location), command: CommandPath.of(["tick", "dav", "sync"]), now: clock())
                let davStore = store.with(journal: journal)
                davScheduler = DavScheduler(interval: settings.interval, debounce: settings.debounce) {
                    let bridge = DavBridge(store: davStore, settings: settings, root: root, now: clock(), timeZone: zone, fields: fields)
                    let sync = DavSync(bridge: bridge, configPath: davConfig, environment: environment, clock: clock)
                    let stamp = Timestamp.format(Date())
                    do {
                        let report = try sync.run()
                        t.errLine("\(stamp) " + DavReportText.lines(report).joined(separator: ";"))
                        for problem in report.problems { t.errLine("\(stamp) CalDAV: " + problem) }
                    } catch {
                        let message = (error as? LocalizedError)?.errorDescription ?? "\(error)"
                        t.errLine("\(stamp) CalDAV sync failed: " + (message.split(separator: "\n").first.map(String.init) ?? message))
                    }
                    for warning in journal.takeWarnings() { t.errLine("\(stamp) CalDAV: warning: \(warning.description)") }
                }
            }
            let dav = davScheduler
            let watcher = StoreWatcher(store: store, index: context.index, options: options, reminders: reminders) { event in
                switch event {
                // Every store change schedules a sync: a file this watcher
                // reindexed (an editor, git), one a tick command had already
                // indexed itself (`.settled`: `tick add`, `tick ui`), hand
                // edits stamped, conflict copies merged.
                case .reindexed, .removed, .rescanned, .settled, .stamped, .resolved: dav?.noteChange()
                default: break
                }
                if case let .reminderFallback(reminder, reason) = event {
                    guard fallback else { return }
                    // The fallback *is* the notification: the title, then a
                    // bell, on a terminal. Elsewhere stderr is a log (the
                    // journal under systemd), which never gets titles: the id.
                    if t.stderrIsTTY {
                        t.errLine("\(Timestamp.format(Date())) reminder: \(reminder.summary) (\(reminder.body(now: clock(), timeZone: zone))) [no notification: \(reason)]" + Terminal.bell)
                    } else {
                        t.errLine("\(Timestamp.format(Date())) reminder\(reminder.late ? " (late)" : "") for task \(reminder.taskID.lowercased.prefix(8)) [no notification: \(reason)]" + Terminal.bell)
                    }
                    return
                }
                let line = Self.describe(event)
                if !line.isEmpty { t.errLine("\(Timestamp.format(Date())) \(line)") }
                if case .reminderAnswered = event {
                    for warning in reminderJournal.takeWarnings() { t.errLine("\(Timestamp.format(Date())) reminder: warning: \(warning.description)") }
                }
            }
            let signals = StopSignals(watcher.stopper)
            defer { signals.cancel() }
            if let dav {
                BackgroundThread.start { dav.run() }
            }
            defer { dav?.stop() }
            t.errLine("\(Timestamp.format(Date())) watching \(context.store.location.root) (pid \(getpid()))\(noReminders ? "; reminders off" : "")")
            try watcher.run()
        }

        static func describe(_ event: WatchEvent) -> String {
            switch event {
            case let .watching(root, watches): return "watch established on \(root) (\(watches) directories)"
            case let .reindexed(path, tasks, ms): return "reindexed \(path): \(tasks) tasks in \(CFormat.string("%.1f", ms)) ms"
            case .removed(let path): return "removed \(path)"
            case let .stamped(path, tasks): return "stamped hand edits in \(path) (\(tasks) task\(tasks == 1 ? "" : "s"))"
            case .parseError(let error): return "error: \(error.summary) (keeping its last good tasks, marked stale)"
            case let .rescanned(reason, files, ms): return "rescanned \(files) files in \(CFormat.string("%.1f", ms)) ms (\(reason))"
            case .storeGone(let root): return "store \(root) is gone; waiting for it to come back"
            case .failure(let message): return "error: \(message)"
            case .stopping(let signal): return "stopping (\(signal))"
            case .heartbeat, .settled: return ""
            case let .reminderFired(id, late): return "reminder \(id.lowercased.prefix(8))\(late ? " (late)" : "") fired"
            case let .reminderAnswered(id, action, changed):
                guard let action else { return "reminder \(id.lowercased.prefix(8)) dismissed" }
                return "reminder \(id.lowercased.prefix(8)): \(action.rawValue)\(changed ? "" : " (nothing to change)")"
            case let .reminderFallback(reminder, _): return "reminder \(reminder.taskID.lowercased.prefix(8)) fired without a notification"
            case let .resolved(copies, joined, overrides):
                var parts: [String] = []
                if !copies.isEmpty { parts.append("merged \(copies.joined(separator: ", ")) and removed \(copies.count == 1 ? "it" : "them")") }
                if !joined.isEmpty { parts.append("joined \(joined.count) task\(joined.count == 1 ? "" : "s") found in several lists") }
                if !overrides.isEmpty {
                    parts.append("later change kept for " + overrides.map { "\($0.task.lowercased.prefix(8)) \($0.field)" }.joined(separator: ", "))
                }
                return parts.joined(separator: "; ")
            case .resolveFailed(let message): return "error: \(message) (run `tick resolve` after fixing it)"
            }
        }
    }
}
