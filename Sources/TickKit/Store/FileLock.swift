import FoundationEssentials
import Glibc

/// An advisory `flock` on a file outside the store. Released when the value is closed.
public final class FileLock {
    private var fd: Int32

    /// Takes an exclusive lock on `path`, waiting until one holder has kept
    /// it for `timeout` seconds.
    ///
    /// The wait is measured per holder, not in total: every holder counts
    /// its turn in the lock file's first 8 bytes, and a waiter that sees the
    /// count move starts its wait again. Under a crowd of writers (polling
    /// `flock` is not fair) a waiter may lose many turns, but it only gives up
    /// when one holder is stuck, which is what the error says.
    ///
    /// The descriptor becomes the lock's only once the lock is held: a lock
    /// that throws closes it once, here (a class whose stored properties
    /// are all set runs its `deinit` when its `init` throws, which would
    /// close the number a second time, by then perhaps another thread's file).
    public init(path: String, timeout: Double) throws(StoreError) {
        try PrivateFiles.createDirectory(PathString.deletingLastComponent(path))
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, PrivateFiles.fileMode)
        guard fd >= 0 else { throw .writeFailed(path: path, reason: String(cString: strerror(errno))) }
        PrivateFiles.tighten(fd: fd)
        // A monotonic clock: a wall-clock jump (NTP, a suspended laptop
        // whose clock is set back) must neither stretch nor cut the wait.
        let clock = ContinuousClock()
        let patience = Duration.milliseconds(Int64(max(timeout, 0) * 1000))
        var deadline = clock.now.advanced(by: patience)
        var turn = Self.turns(fd)
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                let reason = String(cString: strerror(errno))
                close(fd)
                throw .writeFailed(path: path, reason: "cannot lock: \(reason)")
            }
            let seen = Self.turns(fd)
            if seen != turn {
                // Another process had its turn: the holder is not stuck.
                turn = seen
                deadline = clock.now.advanced(by: patience)
            } else if clock.now > deadline {
                close(fd)
                throw .lockTimeout(path: path, seconds: Int(timeout))
            }
            usleep(2_000)
        }
        var next = Self.turns(fd) &+ 1
        _ = withUnsafeBytes(of: &next) { pwrite(fd, $0.baseAddress, 8, 0) }
        self.fd = fd
    }

    /// The count of turns recorded in the lock file (0 when it has none).
    private static func turns(_ fd: Int32) -> UInt64 {
        var value: UInt64 = 0
        let n = withUnsafeMutableBytes(of: &value) { pread(fd, $0.baseAddress, 8, 0) }
        return n == 8 ? value : 0
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
