import FoundationEssentials
import Glibc

/// Temp files that a tick killed mid-write left in the store
/// (`.<name>.tick-<pid>-<random>.tmp`, see ``AtomicFile``). They are hidden,
/// so tick never reads them, but git and Syncthing would carry them; the
/// next write removes those whose process is gone.
enum StaleTemps {
    /// Removes stale temps in `directories`; returns how many were removed.
    @discardableResult
    static func sweep(_ directories: [String]) -> Int {
        var removed = 0
        for dir in directories {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else { continue }
            for name in names where isStale(name) {
                if unlink(PathString.appending(dir, name)) == 0 { removed += 1 }
            }
        }
        return removed
    }

    /// True for `.<name>.tick-<pid>-<random>.tmp` when no process `pid` exists.
    /// (A temp of a live tick, or of another user's process, is left alone.)
    static func isStale(_ name: String) -> Bool {
        guard name.hasPrefix("."), name.hasSuffix(".tmp"), let range = name.lastLiteralRange(of: ".tick-") else { return false }
        let rest = name[range.upperBound...].dropLast(4)
        guard let dash = rest.firstIndex(of: "-"), let pid = pid_t(rest[..<dash]), pid > 0 else { return false }
        return kill(pid, 0) != 0 && errno == ESRCH
    }
}
