import FoundationEssentials
import Glibc

/// A lock with a condition whose timed waits run on `CLOCK_MONOTONIC`
/// (Foundation's `NSCondition` waits until a wall-clock `Date`, which a clock
/// change stretches or cuts): the watcher's event queue and the CalDAV
/// scheduler wait on it.
final class MonotonicCondition: @unchecked Sendable {
    // Allocated, so that their addresses never move (pthread needs that).
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

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

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }
    /// Wakes one waiter; call with the lock held.
    func signal() { pthread_cond_signal(condition) }

    /// Runs `body` with the lock held.
    func withLock<R>(_ body: () throws -> R) rethrows -> R {
        lock()
        defer { unlock() }
        return try body()
    }

    /// Waits (with the lock held) for a signal or for `seconds` to pass
    /// (at most a day). Returns false when the time ran out (or the wait
    /// failed: it never spins).
    @discardableResult
    func wait(seconds: Double) -> Bool {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let wait = seconds.isFinite ? max(0, min(seconds, 86_400)) : 86_400
        let whole = Int(wait)
        let nanoseconds = now.tv_nsec + Int((wait - Double(whole)) * 1e9)
        var deadline = timespec(tv_sec: now.tv_sec + whole + nanoseconds / 1_000_000_000,
                                tv_nsec: nanoseconds % 1_000_000_000)
        return pthread_cond_timedwait(condition, mutex, &deadline) == 0
    }
}
