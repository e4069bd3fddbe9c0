import Foundation

/// Runs the CalDAV sync from `tick watch`: once at start, after store changes
/// (once they have been quiet for `debounce`), and every `interval`. One sync
/// at a time, on the thread that calls ``run()``.
public final class DavScheduler: @unchecked Sendable {
    private let condition = MonotonicCondition()
    private var changedAt: Double?
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
        self.clock = clock
        self.maxSleep = maxSleep
        self.sync = sync
    }

    /// A store file changed: sync once things are quiet.
    public func noteChange() {
        condition.withLock {
            changedAt = clock.now()
            condition.signal()
        }
    }

    public func stop() {
        condition.withLock {
            stopped = true
            condition.signal()
        }
    }

    /// Loops until ``stop()``.
    public func run() {
        var next = clock.now()
        while true {
            condition.lock()
            while !stopped {
                var due = next
                if let changedAt { due = min(due, changedAt + debounce) }
                let left = due - clock.now()
                if left <= 0 { break }
                condition.wait(seconds: min(left, maxSleep))
            }
            if stopped {
                condition.unlock()
                return
            }
            changedAt = nil
            condition.unlock()
            sync()
            next = clock.now() + interval
        }
    }
}
