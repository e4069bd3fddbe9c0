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
/// Waits are timed on `CLOCK_MONOTONIC`, so a wall-clock change neither
/// stretches nor cuts them.
final class EventQueue: @unchecked Sendable {
    // Allocated, so that their addresses never move (pthread needs that).
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var items: [RawChange] = []
    private var stopReason: String?

    init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func push(_ change: RawChange) {
        pthread_mutex_lock(mutex)
        items.append(change)
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
    }

    /// Asks the loop to stop (from a signal handler's queue).
    func stop(_ reason: String) {
        pthread_mutex_lock(mutex)
        stopReason = reason
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
    }

    /// Waits until something arrives, `seconds` pass, or a stop is requested.
    func take(waitingAtMost seconds: Double) -> (changes: [RawChange], stop: String?) {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let wait = seconds.isFinite ? max(0, min(seconds, 86_400)) : 86_400
        let whole = Int(wait)
        var nanoseconds = now.tv_nsec + Int((wait - Double(whole)) * 1e9)
        var deadline = timespec(tv_sec: now.tv_sec + whole + nanoseconds / 1_000_000_000, tv_nsec: 0)
        nanoseconds %= 1_000_000_000
        deadline.tv_nsec = nanoseconds
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while items.isEmpty && stopReason == nil {
            // ETIMEDOUT, or any error: never spin.
            if pthread_cond_timedwait(condition, mutex, &deadline) != 0 { break }
        }
        let out = items
        items.removeAll()
        return (out, stopReason)
    }
}
