import FoundationEssentials

/// What can go wrong in the CalDAV bridge (`tick dav`).
public enum DavError: Error, Equatable, Sendable {
    /// An item of the vdir that cannot be read as one VTODO.
    case badItem(path: String, reason: String)
    /// A file or directory of the bridge's machine-local state could not be written or read.
    case io(path: String, reason: String)
    /// A URL the bridge refuses (not https, and not loopback http).
    case badURL(String)
    /// vdirsyncer is not installed.
    case vdirsyncerMissing
    /// vdirsyncer ran and failed; its message (last lines).
    case vdirsyncerFailed(step: String, message: String)
    /// `tick dav sync` before `tick dav setup`.
    case notSetUp(configPath: String)
    /// `tick dav restore` of a collection that is no bridged list.
    case unknownCollection(String, known: [String])
    /// Another `tick dav sync` (or watcher) holds the bridge and did not finish in time.
    case busy(root: String)
}

extension DavError: LocalizedError {
    public var errorDescription: String? {
        switch self {
        case .badItem(let path, let reason): return "\(path): cannot read this item: \(reason)"
        case .io(let path, let reason): return "\(path): \(reason)"
        case .badURL(let url):
            return "refusing the URL \"\(url)\": use https:// (plain http only for a server on this machine: 127.0.0.1, localhost or ::1)"
        case .vdirsyncerMissing:
            return "vdirsyncer is not installed; install it (Debian/Ubuntu: `sudo apt-get install vdirsyncer`, or `pipx install vdirsyncer`) and run the command again"
        case .vdirsyncerFailed(let step, let message):
            return "CalDAV \(step) failed: \(Self.reason(message)); the store is unchanged by the server's side and tick works as before; `tick dav sync` tries again"
        case let .unknownCollection(c, known):
            return "no bridged list has the calendar \"\(c)\"; the calendars: \(known.isEmpty ? "none" : known.joined(separator: ", ")) (see `tick lists`)"
        case .busy(let root):
            return "another `tick dav sync` (or `tick watch`) is syncing \(root) and did not finish; run `tick dav sync` again later"
        case .notSetUp(let path):
            return "the CalDAV bridge is not set up (no \(path)); run `tick dav setup URL --user NAME --password-command CMD` first"
        }
    }
}

extension DavError {
    /// One line saying why vdirsyncer failed, from what it printed: a refused
    /// login and an unreachable server in words, else its last `error:` line.
    static func reason(_ output: String) -> String {
        let lines = output.split(separator: "\n").map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
        // aiohttp says "401, message='Unauthorized'"; the bare number is not
        // matched, since a refused connection's line names its port (40123).
        if lines.contains(where: { $0.contains("Unauthorized") }) {
            return "the server refused the login (401 Unauthorized); check --user and --password-command and run `tick dav setup` again"
        }
        if lines.contains(where: { $0.contains("vdirsyncer discover") }) {
            return "vdirsyncer's record of the calendars is out of date; run `tick dav sync` again (it rediscovers them), or `tick dav setup` again"
        }
        if let line = lines.first(where: { $0.contains("Cannot connect") || $0.contains("Connection refused") }) {
            let what = line.literalRange(of: "Cannot connect").map { String(String(line[$0.lowerBound...]).prefix { $0 != "[" }).trimmingWhitespace() } ?? "connection refused"
            return "the server cannot be reached (\(what); tried again, with a pause); no calendar synced"
        }
        if lines.contains(where: { $0.contains("Server disconnected") || $0.contains("Session is closed") || $0.contains("Connection reset") }) {
            return "the server dropped the connection (tried again, with a pause, and it dropped again); run `tick dav sync` again later"
        }
        let errors = lines.filter { $0.hasPrefix("error:") && !$0.contains("-vdebug") }
            .map { String($0.dropFirst("error:".count)).trimmingWhitespace() }
            .map { $0.hasPrefix("Unknown error occurred: ") ? String($0.dropFirst("Unknown error occurred: ".count)) : $0 }
            .map { line -> String in
                // "Unknown error occurred for tick/work: Not Found" -> "Not Found"
                guard line.hasPrefix("Unknown error occurred for "), let r = line.literalRange(of: ": ") else { return line }
                return String(line[r.upperBound...])
            }
        // vdirsyncer's own advice names its commands; tick's replace them above.
        let said = errors.filter { !$0.contains("--force-delete") && !$0.hasPrefix("Use `") }
        if let last = said.last { return last }
        return lines.last(where: { !$0.contains("vdirsyncer") && !$0.contains("-vdebug") }) ?? "no reason given; run `tick dav sync` again"
    }
}

extension DavError: TickError {
    public var kind: FailureKind {
        switch self {
        case .badItem: return .badData
        case .badURL: return .usage
        case .unknownCollection: return .notFound
        default: return .failure
        }
    }
}
