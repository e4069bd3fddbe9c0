import FoundationEssentials
import Glibc

/// `tick watch`: keeps the index current the moment a store file changes,
/// whoever changed it.
///
/// A reader thread owns libinotifytools; this loop coalesces bursts (a short
/// debounce per path), reindexes changed files, retries a parse failure once
/// after a short delay (editors that truncate then write), reports each
/// failure once per change, and rescans everything on overflow or when the
/// store comes back. With ``Reminders`` it also fires reminders on time:
/// after every reindex it asks the index for the next `remind`, so a change
/// by any route reschedules at once.
public final class StoreWatcher {
    /// What firing reminders needs. The clock is the watcher's only notion of
    /// "now" for reminders (tests pin and advance it).
    public struct Reminders {
        public var service: ReminderService
        public var notifier: any Notifier
        public var clock: @Sendable () -> Date

        public init(service: ReminderService, notifier: any Notifier, clock: @escaping @Sendable () -> Date) {
            self.service = service
            self.notifier = notifier
            self.clock = clock
        }
    }

    public struct Options: Sendable {
        /// Quiet time per path before reindexing.
        public var debounce: TimeInterval = 0.03
        /// Delay before a failed parse is retried.
        public var retryDelay: TimeInterval = 0.15
        /// The longest the loop sleeps without looking at the clock (covers
        /// suspend/resume and clock changes).
        public var maxSleep: TimeInterval = 15
        /// When set, a ``WatchEvent/heartbeat`` is reported at least this often
        /// (for views that depend on the time of day, like a status line).
        public var heartbeat: TimeInterval?
        /// Merge Syncthing conflict copies as they arrive, and join tasks found
        /// in several files (`[sync] auto-resolve` in config.toml).
        public var autoResolve = true
        /// Stamp a store file changed by someone else (an editor, a sync tool)
        /// as soon as it is seen, and write it back (Docs/MERGE.md §17). Views
        /// that only follow the files turn it off.
        public var stampHandEdits = true
        public init() {}
    }

    private let store: Store
    private let index: TaskIndex
    private let options: Options
    private let log: (WatchEvent) -> Void
    private let reminders: Reminders?
    private let queue = EventQueue()
    /// The clock of every timer (debounce, retry, heartbeat, the next reminder's wake-up).
    private let monotonic: MonotonicClock
    private var schedule: WatchSchedule
    private var retried: Set<String> = []
    /// What was last reported broken, per path: the hash of its content.
    private var reportedBroken: [String: String] = [:]
    /// Copies that could not be merged, by path and size+mtime: not retried until they change.
    private var unmergeable: [String: FileStamp] = [:]

    /// `monotonic` drives the timers (tests pass their own); `reminders.clock`
    /// is the wall-clock "now" reminders are due by.
    public init(store: Store, index: TaskIndex, options: Options = Options(), reminders: Reminders? = nil,
                monotonic: MonotonicClock = .system, log: @escaping (WatchEvent) -> Void) {
        self.store = store
        self.index = index
        self.options = options
        self.reminders = reminders
        self.monotonic = monotonic
        schedule = WatchSchedule(debounce: options.debounce, retryDelay: options.retryDelay, heartbeat: options.heartbeat,
                                 start: monotonic.now())
        self.log = log
    }

    /// Asks ``run()`` to return; safe to call from any thread (a signal handler's queue).
    public func stop(reason: String) {
        queue.stop(reason)
    }

    /// A handle to stop the watcher from another thread.
    public var stopper: @Sendable (String) -> Void {
        let queue = self.queue
        return { queue.stop($0) }
    }

    /// Watches until ``stop(reason:)`` is called. Returns the stop reason.
    @discardableResult
    public func run() throws -> String {
        InotifyReader(root: store.location.root, queue: queue).start()
        // Files edited while no watcher ran.
        stampAll()
        // Copies that arrived while no watcher ran.
        if options.autoResolve { schedule.resolveNow(at: monotonic.now()) }
        while true {
            let now = monotonic.now()
            let deadline = schedule.deadline(at: now, maxSleep: options.maxSleep, also: nextReminderWake(at: now))
            let (changes, stopReason) = queue.take(waitingAtMost: deadline - now)
            if let stopReason {
                log(.stopping(signal: stopReason))
                return stopReason
            }
            var rescan: String?
            for change in changes {
                switch change {
                case .path(let relative):
                    if options.autoResolve, Self.isConflictCopy(relative) {
                        schedule.resolveSoon(at: monotonic.now())
                        continue
                    }
                    guard TaskIndex.kind(forRelativePath: relative) != nil else { continue }
                    schedule.changed(relative, at: monotonic.now())
                    retried.remove(relative)
                case .rescan(let reason):
                    rescan = reason
                case .storeGone:
                    log(.storeGone(root: store.location.root))
                case .watching(let n):
                    log(.watching(root: store.location.root, watches: n))
                case .failed(let reason):
                    throw WatchError.inotify(reason)
                case let .answered(reminder, response):
                    carryOut(response, for: reminder)
                }
            }
            if let rescan { fullRescan(rescan) }
            processDue()
            if schedule.takeResolve(at: monotonic.now()) {
                resolvePending()
            }
            fireReminders()
            if schedule.takeHeartbeat(at: monotonic.now()) {
                log(.heartbeat)
            }
        }
    }

    // MARK: Reminders

    /// When (on the monotonic clock, which reads `monotonicNow` now) the next
    /// reminder is due, if any: as far ahead as it is on the reminders' clock.
    private func nextReminderWake(at monotonicNow: Double) -> Double? {
        guard let reminders else { return nil }
        let now = reminders.clock()
        guard let next = try? reminders.service.nextWake(after: now) else { return nil }
        return monotonicNow + max(0, next.timeIntervalSince(now))
    }

    /// Shows every reminder that is due. Each notification runs on its own
    /// thread (notify-send --wait blocks until the user acts); the answer
    /// comes back through the queue and is carried out on this loop.
    private func fireReminders() {
        guard let reminders else { return }
        let due: [Reminder]
        do {
            due = try reminders.service.due(now: reminders.clock())
        } catch {
            log(.failure("checking reminders failed: \(ErrorText.describe(error))"))
            return
        }
        let queue = self.queue
        for reminder in due {
            log(.reminderFired(taskID: reminder.taskID, late: reminder.late))
            let notifier = reminders.notifier
            BackgroundThread.start {
                queue.push(.answered(reminder, notifier.notify(reminder)))
            }
        }
    }

    private func carryOut(_ response: NotifierResponse, for reminder: Reminder) {
        guard let reminders else { return }
        if case .unavailable(let reason) = response {
            log(.reminderFallback(reminder, reason: reason))
            return
        }
        guard let action = ReminderAction(response) else {
            log(.reminderAnswered(taskID: reminder.taskID, action: nil, changed: false))
            return
        }
        do {
            switch try reminders.service.perform(action, on: reminder, now: reminders.clock()) {
            case .changed: log(.reminderAnswered(taskID: reminder.taskID, action: action, changed: true))
            case .unchanged: log(.reminderAnswered(taskID: reminder.taskID, action: action, changed: false))
            case .gone: log(.failure("task \(reminder.taskID.lowercased) is no longer in the store; \(action.rawValue) not applied"))
            }
        } catch {
            log(.failure("\(action.rawValue) on task \(reminder.taskID.lowercased) failed: \(ErrorText.describe(error))"))
        }
    }

    /// Stamps the hand edits in one changed file and writes it back
    /// (``StoreWriter/stampHandEdits(_:)``). The write is seen again as a
    /// change, and is then equal to its written copy: no loop. A file that
    /// does not parse is left alone (the reindex reports it).
    private func stamp(_ kind: FileKind) {
        guard options.stampHandEdits else { return }
        do {
            let tasks = try store.withLock { writer in try writer.stampHandEdits(kind) }
            if tasks > 0 { log(.stamped(path: kind.relativePath, tasks: tasks)) }
        } catch StoreError.invalidFile {
            return
        } catch {
            log(.failure("stamping hand edits in \(kind.relativePath) failed: \(ErrorText.describe(error))"))
        }
    }

    /// ``stamp(_:)`` for every store file.
    private func stampAll() {
        guard options.stampHandEdits else { return }
        do {
            let stamped = try store.withLock { writer in writer.stampAllHandEdits() }
            for (kind, tasks) in stamped { log(.stamped(path: kind.relativePath, tasks: tasks)) }
        } catch {
            log(.failure("stamping hand edits failed: \(ErrorText.describe(error))"))
        }
    }

    private func fullRescan(_ reason: String) {
        stampAll()
        let started = monotonic.now()
        do {
            let report = try index.refresh()
            handle(report)
            schedule.clearPaths()
            log(.rescanned(reason: reason, files: report.files.count + report.unchanged,
                           milliseconds: (monotonic.now() - started) * 1000))
        } catch {
            log(.failure("rescan failed: \(ErrorText.describe(error))"))
        }
    }

    private func processDue() {
        let now = monotonic.now()
        var looked = false
        defer { if looked { log(.settled) } }
        for relative in schedule.takeDue(at: now) {
            looked = true
            guard let kind = TaskIndex.kind(forRelativePath: relative) else { continue }
            stamp(kind)
            do {
                let report = try index.refresh(only: kind)
                if let file = report.files.first(where: { $0.kind == kind }), file.error != nil, !retried.contains(relative) {
                    // Maybe caught mid-write (truncate, then write): look again shortly.
                    retried.insert(relative)
                    schedule.retry(relative, at: now)
                    try index.forgetStamp(of: kind)
                    continue
                }
                handle(report)
            } catch {
                log(.failure("reindexing \(relative) failed: \(ErrorText.describe(error))"))
            }
        }
    }

    /// `NAME.sync-conflict-….json` in the root (the inbox), in lists/ or in archive/.
    static func isConflictCopy(_ relative: String) -> Bool {
        let parts = relative.split(separator: "/").map(String.init)
        guard let name = parts.last, parts.count == 1 || (parts.count == 2 && (parts[0] == "lists" || parts[0] == Store.archiveDirectory)) else { return false }
        return SyncConflictName(fileName: name) != nil
    }

    /// Merges Syncthing conflict copies into their files and joins tasks found
    /// in several files, as `tick resolve` does (Docs/MERGE.md §14, §18).
    private func resolvePending() {
        let copies = store.conflictCopies().filter { copy in
            guard let seen = unmergeable[copy.relativePath] else { return true }
            return FileStamp.of(path: store.location.path(copy.relativePath)) != seen
        }
        let split = (try? index.tasksInSeveralFiles()) ?? []
        guard !copies.isEmpty || !split.isEmpty else { return }
        var resolver = ConflictResolver(store: store, dryRun: false)
        do {
            let steps = try resolver.run()
            var merged: [String] = [], joined: [UUID] = [], overrides: [FieldOverride] = []
            for step in steps {
                switch step {
                case let .copiesMerged(_, paths, report):
                    merged += paths
                    overrides += report.overrides
                case let .markersMerged(_, _, _, report):
                    overrides += report.overrides
                case .reconciled(let r):
                    joined += r.merged + r.removed + r.withdrawn
                    overrides += r.overrides
                case .unreadable(let error):
                    log(.resolveFailed(error.summary))
                case let .copiesWaiting(kind, count):
                    log(.resolveFailed("\(kind.relativePath) has git conflict markers; \(count) conflict cop\(count == 1 ? "y waits" : "ies wait") for `tick resolve`"))
                case .fileUnreadable(let kind):
                    log(.resolveFailed("\(kind.relativePath) cannot be read; its conflict copies wait"))
                }
            }
            for copy in store.conflictCopies() {
                unmergeable[copy.relativePath] = FileStamp.of(path: store.location.path(copy.relativePath))
            }
            if !merged.isEmpty || !joined.isEmpty { log(.resolved(copies: merged, joined: joined, overrides: overrides)) }
            handle(try index.refresh())
        } catch {
            log(.failure("merging conflict copies failed: \(ErrorText.describe(error))"))
        }
    }

    private func handle(_ report: TaskIndex.RefreshReport) {
        if options.autoResolve, report.changed, schedule.resolveDue == nil,
           let split = try? index.tasksInSeveralFiles(), !split.isEmpty {
            schedule.resolveSoon(at: monotonic.now(), unlessPending: true)
        }
        for file in report.files {
            let path = file.kind.relativePath
            if file.removed {
                reportedBroken[path] = nil
                log(.removed(path: path))
            } else if let error = file.error {
                let fingerprint = (try? index.contentHash(of: file.kind)) ?? ""
                if reportedBroken[path] != fingerprint {
                    reportedBroken[path] = fingerprint
                    log(.parseError(error))
                }
            } else {
                reportedBroken[path] = nil
                log(.reindexed(path: path, tasks: file.taskCount, milliseconds: file.milliseconds))
            }
        }
    }
}
