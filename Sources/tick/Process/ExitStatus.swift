import ArgumentParser
import FoundationEssentials
import TickKit

/// tick's exit codes; documented in `tick --help` and Docs/CLI.md.
enum ExitStatus: Int32 {
    case success = 0
    /// I/O, permissions, lock timeout, refused without confirmation.
    case failure = 1
    /// Bad option, bad WHEN, bad token.
    case usage = 2
    /// Unknown or ambiguous task id or list name.
    case notFound = 3
    /// A store file that cannot be parsed or breaks the schema.
    case badData = 4

    /// The status of a failure of this kind.
    init(_ kind: FailureKind) {
        switch kind {
        case .failure: self = .failure
        case .usage: self = .usage
        case .notFound: self = .notFound
        case .badData: self = .badData
        }
    }

    /// The status for an error thrown by a command (1 for an error tick does not type).
    static func of(_ error: Error) -> ExitStatus {
        (error as? TickError).map { ExitStatus($0.kind) } ?? .failure
    }

    /// The kind of failure this status reports.
    var kind: FailureKind {
        switch self {
        case .success, .failure: return .failure
        case .usage: return .usage
        case .notFound: return .notFound
        case .badData: return .badData
        }
    }
}

/// Errors raised by the command layer itself.
struct CLIError: TickError {
    var message: String
    var status: ExitStatus

    init(_ message: String, status: ExitStatus = .failure) {
        self.message = message
        self.status = status
    }

    var errorDescription: String? { message }
    var kind: FailureKind { status.kind }
}
