import Foundation

/// Runs the CalDAV sync from `tick watch`: once at start, after store changes
/// (once they have been quiet for `debounce`), and every `interval`. One sync
/// at a time, on the thread that calls ``run()``.
public final class DavScheduler: @unchecked Sendable {
    private let condition = NSCondition()
    private var changedAt: Date?
    private var stopped = false
    private let sync: @Sendable () -> Void
    private let interval: TimeInterval
    private let debounce: TimeInterval
    /// The time waits are measured in (the real clock: condition waits use it).
    private let wallClock: @Sendable () -> Date

    /// `sync` runs one whole sync and reports its outcome itself.
    public init(interval: TimeInterval, debounce: TimeInterval, wallClock: @escaping @Sendable () -> Date, sync: @escaping @Sendable () -> Void) {
        self.interval = interval
        self.debounce = debounce
        self.wallClock = wallClock
        self.sync = sync
    }

    /// A store file changed: sync once things are quiet.
    public func noteChange() {
        condition.lock()
        changedAt = wallClock()
        condition.signal()
        condition.unlock()
    }

    public func stop() {
        condition.lock()
        stopped = true
        condition.signal()
        condition.unlock()
    }

    /// Loops until ``stop()``.
    public func run() {
        var next = wallClock()
        while true {
            condition.lock()
            while !stopped {
                var due = next
                if let changedAt { due = min(due, changedAt.addingTimeInterval(debounce)) }
                if wallClock() >= due { break }
                _ = condition.wait(until: due)
            }
            if stopped {
                condition.unlock()
                return
            }
            changedAt = nil
            condition.unlock()
            sync()
            next = wallClock().addingTimeInterval(interval)
        }
    }
}
