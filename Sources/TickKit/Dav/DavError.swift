import Foundation

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
            return "vdirsyncer \(step) failed; the store is unchanged by the server's side and tick works as before. vdirsyncer said:\n\(message)"
        case .notSetUp(let path):
            return "the CalDAV bridge is not set up (no \(path)); run `tick dav setup URL --user NAME --password-command CMD` first"
        }
    }
}

extension DavError: TickError {
    public var kind: FailureKind {
        switch self {
        case .badItem: return .badData
        case .badURL: return .usage
        default: return .failure
        }
    }
}
