import ArgumentParser
import Foundation
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

    /// The status for an error thrown by a command.
    static func of(_ error: Error) -> ExitStatus {
        switch error {
        case is InputError, is DateError: return .usage
        case let e as LookupError:
            switch e {
            case .listExists, .invalidListName: return .usage
            case .taskInBrokenFile, .listInBrokenFile: return .badData
            default: return .notFound
            }
        case is FormatError, is ImportError, is ConfigError: return .badData
        case let e as StoreError:
            if case .invalidFile = e { return .badData }
            return .failure
        case let e as CLIError: return e.status
        default: return .failure
        }
    }
}

/// Errors raised by the command layer itself.
struct CLIError: Error, LocalizedError {
    var message: String
    var status: ExitStatus

    init(_ message: String, status: ExitStatus = .failure) {
        self.message = message
        self.status = status
    }

    var errorDescription: String? { message }
}
