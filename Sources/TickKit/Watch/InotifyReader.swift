import CInotifyTools
import FoundationEssentials
import Glibc

/// Owns libinotifytools on one dedicated thread (its state is global and its
/// `next_event` returns static storage), and turns its events into
/// ``RawChange``s for the watcher loop.
///
/// libinotifytools 3.22 does not watch directories created after
/// `inotifytools_watch_recursively`, so this adds them on `IN_CREATE|IN_ISDIR`
/// and asks for a rescan, because files may already be inside. When the store
/// directory itself goes away, it waits for it to come back and re-watches.
final class InotifyReader: @unchecked Sendable {
    private let root: String
    private let queue: EventQueue
    private let mask = Int32(IN_CLOSE_WRITE | IN_MODIFY | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF)

    init(root: String, queue: EventQueue) {
        self.root = root.hasSuffix("/") ? String(root.dropLast()) : root
        self.queue = queue
    }

    /// Starts the reader thread. It runs until the process exits.
    func start() {
        BackgroundThread.start { [self] in self.run() }
    }

    private func run() {
        guard inotifytools_initialize() != 0 else {
            queue.push(.failed("inotify init failed: \(String(cString: strerror(inotifytools_error())))"))
            return
        }
        while true {
            waitForRoot()
            guard watchTree(root) else { return }
            queue.push(.watching(Int(inotifytools_get_num_watches())))
            queue.push(.rescan("watch established"))
            readEvents()
            // The root went away: forget every watch and start over.
            inotifytools_cleanup()
            queue.push(.storeGone)
            guard inotifytools_initialize() != 0 else {
                queue.push(.failed("inotify init failed: \(String(cString: strerror(inotifytools_error())))"))
                return
            }
        }
    }

    private func waitForRoot() {
        while PathStat.isDirectory(root) != true {
            usleep(200_000)
        }
    }

    private func watchTree(_ path: String) -> Bool {
        let excludes = IgnoredPaths.excludedDirectories.map { strdup(PathString.appending(path, $0)) }
        defer { excludes.forEach { free($0) } }
        var excludeArgs: [UnsafePointer<CChar>?] = excludes.map { UnsafePointer($0) }
        excludeArgs.append(nil)
        let ok = excludeArgs.withUnsafeMutableBufferPointer { buf in
            inotifytools_watch_recursively_with_exclude(path, mask, buf.baseAddress)
        }
        if ok == 0 {
            let err = inotifytools_error()
            if err == ENOSPC {
                queue.push(.failed("out of inotify watches; raise fs.inotify.max_user_watches"))
                return false
            }
            // The directory vanished while we added watches: the caller retries.
            return path != root
        }
        return true
    }

    /// Reads events until the store root is gone.
    private func readEvents() {
        let rootWithSlash = root + "/"
        while true {
            guard let event = inotifytools_next_event(-1) else { continue }
            let mask = Int32(bitPattern: event.pointee.mask)
            if mask & Int32(IN_Q_OVERFLOW) != 0 {
                queue.push(.rescan("inotify queue overflow"))
                continue
            }
            guard let dirC = inotifytools_filename_from_wd(event.pointee.wd) else { continue }
            let dir = String(cString: dirC)
            let name = String(cString: tick_inotify_event_name(event))
            let full = dir + name
            let isDir = mask & Int32(IN_ISDIR) != 0
            let selfGone = mask & Int32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) != 0 && name.isEmpty
            if selfGone && (dir == rootWithSlash || dir == root) {
                return
            }
            if selfGone {
                // A watched subdirectory went away.
                inotifytools_remove_watch_by_wd(event.pointee.wd)
                queue.push(.rescan("a directory was removed"))
                continue
            }
            guard full.hasPrefix(rootWithSlash) else { continue }
            let relative = String(full.dropFirst(rootWithSlash.count))
            if isDir {
                if IgnoredPaths.isIgnored(relative) { continue }
                if mask & Int32(IN_CREATE | IN_MOVED_TO) != 0 {
                    _ = watchTree(full)
                    queue.push(.rescan("new directory \(relative)"))
                } else if mask & Int32(IN_MOVED_FROM | IN_DELETE) != 0 {
                    inotifytools_remove_watch_by_filename(full + "/")
                    queue.push(.rescan("directory \(relative) moved or deleted"))
                }
                continue
            }
            if IgnoredPaths.isIgnored(relative) { continue }
            queue.push(.path(relative))
        }
    }
}
