import FoundationEssentials
import Glibc

/// Runs the CalDAV sync from `tick watch`: once at start, after store changes
/// (once they have been quiet for `debounce`), and every `interval`. One sync
/// at a time, on the thread that calls ``run()``.
public final class DavScheduler: @unchecked Sendable {
    private let condition = MonotonicCondition()
    private var changedAt: Double?
    /// The first change not synced yet: a stream of changes (an editor
    /// saving every second) syncs at the latest `maxDelay` after it.
    private var pendingSince: Double?
    private let maxDelay: TimeInterval
    private var stopped = false
    private let sync: @Sendable () -> Void
    private let interval: TimeInterval
    private let debounce: TimeInterval
    /// The clock waits are measured on (monotonic: a wall-clock change moves nothing).
    private let clock: MonotonicClock
    /// The longest wait without reading the clock again.
    private let maxSleep: TimeInterval

    /// `sync` runs one whole sync and reports its outcome itself. The clock
    /// is read again at least every `maxSleep` seconds (tests pass their own
    /// clock and a short `maxSleep`).
    public init(interval: TimeInterval, debounce: TimeInterval, clock: MonotonicClock = .system, maxSleep: TimeInterval = 15,
                sync: @escaping @Sendable () -> Void) {
        self.interval = interval
        self.debounce = debounce
        self.maxDelay = debounce * 3
        self.clock = clock
        self.maxSleep = maxSleep
        self.sync = sync
    }

    /// A store file changed (by anyone: tick, `tick ui`, an editor, git):
    /// sync once things are quiet for `debounce`, and at the latest three
    /// debounces after the first change. A change during a sync schedules
    /// the next one.
    public func noteChange() {
        condition.withLock {
            let now = clock.now()
            changedAt = now
            if pendingSince == nil { pendingSince = now }
            condition.signal()
        }
    }

    public func stop() {
        condition.withLock {
            stopped = true
            condition.signal()
        }
    }

    /// When the changes not synced yet are due (quiet for `debounce`, or
    /// `maxDelay` after the first), on the scheduler's clock; nil when there
    /// are none. Read under the lock.
    private func changeDue() -> Double? {
        guard let changedAt else { return nil }
        return min(changedAt + debounce, (pendingSince ?? changedAt) + maxDelay)
    }

    /// ``changeDue()`` for tests: when the pending changes will be synced.
    func pendingChangeDue() -> Double? {
        condition.withLock { changeDue() }
    }

    /// Loops until ``stop()``.
    public func run() {
        var next = clock.now()
        while true {
            condition.lock()
            while !stopped {
                let due = min(next, changeDue() ?? next)
                let left = due - clock.now()
                if left <= 0 { break }
                condition.wait(seconds: min(left, maxSleep))
            }
            if stopped {
                condition.unlock()
                return
            }
            changedAt = nil
            pendingSince = nil
            condition.unlock()
            sync()
            next = clock.now() + interval
        }
    }
}
