import Glibc

/// A mutual-exclusion lock on `pthread_mutex_t`, in place of Foundation's
/// `NSLock` (not in FoundationEssentials): `lock()`, `unlock()`, `withLock`.
public final class Lock: @unchecked Sendable {
    // Allocated, so that its address never moves (pthread needs that).
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    public init() {
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    public func lock() { pthread_mutex_lock(mutex) }

    public func unlock() { pthread_mutex_unlock(mutex) }

    /// Runs `body` holding the lock.
    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}
