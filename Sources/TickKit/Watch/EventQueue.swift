import Foundation

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
final class EventQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [RawChange] = []
    private var stopReason: String?

    func push(_ change: RawChange) {
        condition.lock()
        items.append(change)
        condition.signal()
        condition.unlock()
    }

    /// Asks the loop to stop (from a signal handler's queue).
    func stop(_ reason: String) {
        condition.lock()
        stopReason = reason
        condition.signal()
        condition.unlock()
    }

    /// Waits until something arrives, the deadline passes, or a stop is requested.
    func take(until deadline: Date) -> (changes: [RawChange], stop: String?) {
        condition.lock()
        defer { condition.unlock() }
        while items.isEmpty && stopReason == nil {
            if !condition.wait(until: deadline) { break }
        }
        let out = items
        items.removeAll()
        return (out, stopReason)
    }
}
