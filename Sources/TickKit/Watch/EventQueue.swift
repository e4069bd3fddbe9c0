import FoundationEssentials
import Glibc

/// A raw change seen by the inotify reader thread, or a notification's answer.
enum RawChange: Sendable {
    /// Something happened to this store-relative path.
    case path(String)
    /// Everything must be rescanned (queue overflow, a new directory, the store came back).
    case rescan(String)
    /// The store directory is gone.
    case storeGone
    /// The watch is (re-)established with this many watches.
    case watching(Int)
    /// The reader failed and stopped.
    case failed(String)
    /// The user answered a reminder's notification.
    case answered(Reminder, NotifierResponse)
}

/// A small thread-safe queue between the inotify thread and the watcher loop.
/// Its waits run on the monotonic clock (``MonotonicCondition``).
final class EventQueue: @unchecked Sendable {
    private let condition = MonotonicCondition()
    private var items: [RawChange] = []
    private var stopReason: String?

    func push(_ change: RawChange) {
        condition.withLock {
            items.append(change)
            condition.signal()
        }
    }

    /// Asks the loop to stop (from a signal handler's queue).
    func stop(_ reason: String) {
        condition.withLock {
            stopReason = reason
            condition.signal()
        }
    }

    /// Waits until something arrives, `seconds` pass, or a stop is requested.
    func take(waitingAtMost seconds: Double) -> (changes: [RawChange], stop: String?) {
        let end = MonotonicClock.system.now() + seconds
        return condition.withLock {
            while items.isEmpty && stopReason == nil {
                let left = end - MonotonicClock.system.now()
                if left <= 0 || !condition.wait(seconds: left) { break }
            }
            let out = items
            items.removeAll()
            return (out, stopReason)
        }
    }
}
