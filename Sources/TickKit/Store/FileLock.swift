import Foundation

/// An advisory `flock` on a file outside the store. Released when the value is closed.
public final class FileLock {
    private var fd: Int32

    /// Takes an exclusive lock on `path`, waiting up to `timeout` seconds.
    public init(path: String, timeout: Double) throws(StoreError) {
        try PrivateFiles.createDirectory((path as NSString).deletingLastPathComponent)
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, PrivateFiles.fileMode)
        guard fd >= 0 else { throw .writeFailed(path: path, reason: String(cString: strerror(errno))) }
        PrivateFiles.tighten(fd: fd)
        // A monotonic clock: a wall-clock jump (NTP, a suspended laptop
        // whose clock is set back) must neither stretch nor cut the wait.
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .milliseconds(Int64(max(timeout, 0) * 1000)))
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                let reason = String(cString: strerror(errno))
                close(fd)
                throw .writeFailed(path: path, reason: "cannot lock: \(reason)")
            }
            if clock.now > deadline {
                close(fd)
                throw .lockTimeout(path: path, seconds: Int(timeout))
            }
            usleep(2_000)
        }
    }

    /// Releases the lock.
    public func unlock() {
        guard fd >= 0 else { return }
        flock(fd, LOCK_UN)
        close(fd)
        fd = -1
    }

    deinit { unlock() }
}
