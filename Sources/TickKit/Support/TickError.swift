import FoundationEssentials

/// What kind of failure an error is; the command line turns it into its exit
/// status (documented in `tick --help` and Docs/CLI.md).
public enum FailureKind: Sendable, Equatable {
    /// I/O, permissions, a lock timeout, a refusal without confirmation (exit 1).
    case failure
    /// A bad option, date or token (exit 2).
    case usage
    /// An unknown or ambiguous task id or list name (exit 3).
    case notFound
    /// A store file that cannot be parsed or breaks the schema (exit 4).
    case badData
}

/// An error that knows how tick reports it, so that one place in the command
/// line prints every error the same way:
///
///     tick: error: <report>                      (no location)
///     <path:line:column>: error: <report>        (a place in a file)
///
/// The location comes first, as compilers print it, so editors can jump there.
public protocol TickError: LocalizedError {
    /// The exit status class.
    var kind: FailureKind { get }
    /// `path`, `path:line` or `path:line:column` when the error is about a
    /// file's contents; nil otherwise.
    var fileLocation: String? { get }
    /// What failed and what to do, without the location; further lines
    /// (a caret under the column, a list of candidates) may follow.
    var report: String { get }
}

extension TickError {
    public var fileLocation: String? { nil }
    public var report: String { errorDescription ?? "\(self)" }
}

extension TickError {
    /// The error as tick prints it (see ``TickError``), through
    /// ``FileLocation/errorLine(_:at:)``.
    public var errorLine: String { FileLocation.errorLine(report, at: fileLocation) }
}
