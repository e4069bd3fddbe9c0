import FoundationEssentials
import Glibc
import TickKit

/// Follows the store with the watcher machinery (inotify, as `tick watch`
/// and `status-line --follow` do) on a thread of its own, and wakes the UI's
/// key loop through a pipe whenever a file settled: a change by another
/// tick, an editor, `git pull` or Syncthing repaints without a key press.
final class StoreFollower: @unchecked Sendable {
    /// Readable when something changed; ``drain()`` empties it.
    let wakeFD: Int32
    private let notifyFD: Int32
    private let lock = Lock()
    private var problem: String?

    init() {
        var fds: [Int32] = [0, 0]
        _ = pipe(&fds)
        wakeFD = fds[0]
        notifyFD = fds[1]
        _ = fcntl(wakeFD, F_SETFL, fcntl(wakeFD, F_GETFL) | O_NONBLOCK)
        _ = fcntl(notifyFD, F_SETFL, fcntl(notifyFD, F_GETFL) | O_NONBLOCK)
        _ = fcntl(wakeFD, F_SETFD, FD_CLOEXEC)
        _ = fcntl(notifyFD, F_SETFD, FD_CLOEXEC)
    }

    private var stopping = false

    /// Asks the key loop to end (SIGTERM): it wakes and finds ``stopRequested``.
    func requestStop() {
        lock.withLock { stopping = true }
        wake()
    }

    /// True once ``requestStop()`` was called.
    var stopRequested: Bool { lock.withLock { stopping } }

    /// Why the screen is not live, when it is not.
    var failure: String? { lock.withLock { problem } }

    /// Starts the watcher thread; it runs until the process exits.
    func start(store: Store) {
        BackgroundThread.start { [self] in
            do {
                // A connection of its own: the index is not shared across threads.
                let index = try TaskIndex.open(store: store, now: Date.init)
                var options = StoreWatcher.Options()
                // A view: merging what syncing left is `tick watch`'s job.
                options.autoResolve = false
                options.stampHandEdits = false
                // "Today" moves at midnight: a repaint a minute is enough.
                options.heartbeat = 60
                let watcher = StoreWatcher(store: store, index: index, options: options) { [self] event in
                    switch event {
                    case .settled, .rescanned, .removed, .storeGone, .parseError, .heartbeat, .failure:
                        wake()
                    default:
                        break
                    }
                }
                try watcher.run()
            } catch {
                lock.withLock { problem = "not following the files (\(ErrorText.describe(error)))" }
                wake()
            }
        }
    }

    private func wake() {
        var byte: UInt8 = 1
        _ = write(notifyFD, &byte, 1)
    }

    /// Empties the pipe; true when there was something in it.
    func drain() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 256)
        var any = false
        while buffer.withUnsafeMutableBytes({ read(wakeFD, $0.baseAddress, 256) }) > 0 { any = true }
        return any
    }
}
