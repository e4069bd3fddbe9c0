import FoundationEssentials
import Glibc

/// The "one watcher per store" lock: `flock` on `<state>/watch.lock`, which
/// also holds the watcher's pid for `tick status`.
public final class WatchLock {
    private var fd: Int32 = -1
    public let path: String

    /// The lock path of a store.
    public static func path(for location: StoreLocation) -> String {
        PathString.appending(location.stateDirectory, "watch.lock")
    }

    /// Takes the lock without waiting, or throws ``WatchError/alreadyRunning(pid:lockPath:)``.
    public init(location: StoreLocation) throws {
        path = Self.path(for: location)
        do {
            try PrivateFiles.createDirectory(location.stateDirectory)
        } catch {
            throw WatchError.inotify("cannot create \(location.stateDirectory): \(ErrorText.describe(error))")
        }
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, PrivateFiles.fileMode)
        guard fd >= 0 else { throw WatchError.inotify("cannot open \(path): \(String(cString: strerror(errno)))") }
        PrivateFiles.tighten(fd: fd)
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let pid = Self.readPID(fd)
            close(fd)
            fd = -1
            throw WatchError.alreadyRunning(pid: pid, lockPath: path)
        }
        let text = "\(getpid())\n"
        ftruncate(fd, 0)
        _ = text.withCString { pwrite(fd, $0, strlen($0), 0) }
    }

    /// The pid of the running watcher, or nil when none holds the lock.
    public static func runningPID(for location: StoreLocation) -> Int32? {
        let fd = open(path(for: location), O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        if flock(fd, LOCK_SH | LOCK_NB) == 0 {
            flock(fd, LOCK_UN)
            return nil
        }
        return readPID(fd) ?? -1
    }

    private static func readPID(_ fd: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let n = pread(fd, &buffer, 31, 0)
        guard n > 0 else { return nil }
        return Int32(String(decoding: buffer[0..<n], as: UTF8.self).trimmingWhitespaceAndNewlines())
    }

    /// Releases the lock.
    public func release() {
        guard fd >= 0 else { return }
        ftruncate(fd, 0)
        flock(fd, LOCK_UN)
        close(fd)
        fd = -1
    }

    deinit { release() }
}
