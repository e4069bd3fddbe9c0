import FoundationEssentials
import Glibc

/// The bridge's machine-local lock (`<dav>/sync.lock`, flock): one sync at a
/// time per dav directory, whether from `tick dav sync` or `tick watch`. A
/// second one waits for the first (up to `timeout`), after calling `waiting`
/// so the user is told. The kernel drops the lock when its holder dies.
public final class DavLock {
    private var fd: Int32

    public init(root: String, timeout: TimeInterval = 900, clock: MonotonicClock = .system, waiting: () -> Void = {}) throws {
        do {
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        } catch {
            throw DavError.io(path: root, reason: "cannot create the directory: \(ErrorText.describe(error))")
        }
        let path = root + "/sync.lock"
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw DavError.io(path: path, reason: String(cString: strerror(errno))) }
        if flock(fd, LOCK_EX | LOCK_NB) == 0 { return }
        waiting()
        let deadline = clock.now() + timeout
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard clock.now() < deadline else {
                close(fd)
                fd = -1
                throw DavError.busy(root: root)
            }
            usleep(100_000)
        }
    }

    public func release() {
        guard fd >= 0 else { return }
        flock(fd, LOCK_UN)
        close(fd)
        fd = -1
    }

    deinit { release() }
}
