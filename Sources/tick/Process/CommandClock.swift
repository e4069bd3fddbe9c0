import Dispatch
import FoundationEssentials

/// When this process's command started: `main` reads it first, so a
/// command that reports its own duration (`tick reindex`) covers parsing,
/// opening (and perhaps building) the index and its own work.
enum CommandClock {
    /// Uptime in nanoseconds at the first read (`main` reads it first).
    static let start = DispatchTime.now().uptimeNanoseconds

    /// Whole milliseconds since ``start``.
    static var elapsedMilliseconds: Int {
        Int((DispatchTime.now().uptimeNanoseconds - start) / 1_000_000)
    }
}
