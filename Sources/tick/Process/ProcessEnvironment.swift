import Dispatch
import FoundationEssentials
import Glibc
import TickKit

/// Everything tick takes from its process, read in this one place at the start
/// of a command: the environment variables, the working directory, "now"
/// (`TICK_NOW` or the real clock) and the time zone (`TZ`). Commands and
/// TickKit get these values passed down; nothing else reads `ProcessInfo`.
struct ProcessEnvironment {
    let variables: [String: String]
    let currentDirectory: String
    /// The command's "now": `TICK_NOW` when set, else the real time.
    let now: Date
    /// True when `TICK_NOW` pins the clock.
    let isPinned: Bool
    let timeZone: Zone
    /// Monotonic time when the command started (for ``clock``).
    private let startUptime: UInt64

    /// The running process's environment. Throws (exit 2) on a `TICK_NOW` that
    /// is not an ISO 8601 timestamp, rather than silently using the real clock.
    static func current() throws -> ProcessEnvironment {
        try ProcessEnvironment(variables: ProcessInfo.processInfo.environment,
                               currentDirectory: FileManager.default.currentDirectoryPath,
                               realNow: Date())
    }

    init(variables: [String: String], currentDirectory: String, realNow: Date) throws {
        self.variables = variables
        self.currentDirectory = currentDirectory
        startUptime = DispatchTime.now().uptimeNanoseconds
        if let pinned = variables["TICK_NOW"], !pinned.isEmpty {
            guard let date = Timestamp.parse(pinned) else {
                throw CLIError("TICK_NOW=\(pinned) is not an ISO 8601 timestamp like 2026-11-21T09:00:00Z", status: .usage)
            }
            now = date
            isPinned = true
        } else {
            now = realNow
            isPinned = false
        }
        timeZone = Zone.process(environment: variables, zoneinfo: variables["TZDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? Zone.systemDirectory)
    }

    subscript(name: String) -> String? { variables[name] }

    /// The store named by `--store`, `$TICK_STORE` or the XDG default.
    func storeLocation(explicit: String?) -> StoreLocation {
        StoreLocation.resolve(explicit: explicit, environment: variables, currentDirectory: currentDirectory)
    }

    /// True when `--store` or `TICK_STORE` names the store (it must then exist).
    func storeIsNamed(explicit: String?) -> Bool {
        StoreLocation.isNamed(explicit: explicit, environment: variables)
    }

    /// `$TMPDIR`, else `/tmp`.
    var temporaryDirectory: String {
        variables["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    }

    /// A clock that runs: the real one, or, when TICK_NOW is pinned, the
    /// pinned instant plus the time elapsed since the command started (so a
    /// long-running `tick watch` under test still sees time pass).
    var clock: @Sendable () -> Date {
        let start = startUptime
        let base = now
        guard isPinned else { return Date.init }
        return { base.addingTimeInterval(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9) }
    }
}
