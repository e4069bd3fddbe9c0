import FoundationEssentials
import Glibc

/// The `flock` that keeps index files from being replaced under a process
/// that uses them (`index.sqlite.lock`, next to the database, never deleted).
///
/// Every process that has the database open holds it shared. Creating,
/// migrating, deleting or replacing the database file takes it exclusive,
/// so nothing is renamed or unlinked under an open connection, and two
/// processes never create the same index at once. Waits are bounded (a
/// monotonic clock): a caller that cannot get the lock works another way.
final class IndexLock {
    enum Mode { case shared, exclusive }

    let path: String
    private var fd: Int32
    private(set) var mode: Mode?

    /// Opens (creating, 0600) the lock file; takes no lock yet.
    init(path: String) throws(StoreError) {
        self.path = path
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .writeFailed(path: path, reason: String(cString: strerror(errno))) }
        PrivateFiles.tighten(fd: fd)
    }

    /// Takes the lock in `mode`, waiting up to `timeout` seconds (0: try once).
    /// Converting a held lock may drop it first (flock(2)): on false, the
    /// lock is not held at all.
    @discardableResult
    func acquire(_ mode: Mode, timeout: Double) -> Bool {
        guard fd >= 0 else { return false }
        if self.mode == mode { return true }
        let operation = (mode == .shared ? LOCK_SH : LOCK_EX) | LOCK_NB
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .milliseconds(Int64(max(timeout, 0) * 1000)))
        while flock(fd, operation) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, clock.now < deadline else {
                // A failed conversion has dropped the old lock.
                if self.mode != nil, flock(fd, (self.mode == .shared ? LOCK_SH : LOCK_EX) | LOCK_NB) != 0 { self.mode = nil }
                return false
            }
            usleep(1_000)
        }
        self.mode = mode
        return true
    }

    /// Releases the lock and closes the file.
    func release() {
        guard fd >= 0 else { return }
        flock(fd, LOCK_UN)
        close(fd)
        fd = -1
        mode = nil
    }

    deinit { release() }
}
