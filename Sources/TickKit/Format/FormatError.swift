import FoundationEssentials
import Glibc

/// A problem with the contents of a store file: bad JSON or a schema violation.
public struct FormatError: Error, LocalizedError, Sendable, Equatable {
    /// Path of the file, as shown to the user (relative to the store when possible).
    public var path: String
    /// Where in the file, when known.
    public var location: SourceLocation?
    /// What is wrong, in one sentence.
    public var message: String

    public init(path: String, location: SourceLocation?, message: String) {
        self.path = path
        self.location = location
        self.message = message
    }

    /// `path:line:column: error: message` followed by the line and a caret.
    public var errorDescription: String? { errorLine }

    /// A file that could not be read at all (no permission, an I/O error,
    /// not a regular file, too large): `cannot read it: <reason>`, no location.
    public static func unreadable(path: String, reason: String) -> FormatError {
        FormatError(path: path, location: nil, message: unreadablePrefix + reason)
    }

    static let unreadablePrefix = "cannot read it: "

    /// True for ``unreadable(path:reason:)``: the fix is the file's
    /// permissions or type, not its contents.
    public var isReadFailure: Bool { location == nil && message.hasPrefix(Self.unreadablePrefix) }

    /// What to do about it, for the line after the error.
    public var hint: String {
        isReadFailure
            ? "make it a readable regular file (e.g. chmod u+r \(StoreError.shellQuoted(path))), then run the command again"
            : "fix the file by hand (tick never rewrites a file it cannot parse), then run the command again"
    }

    /// The first line only, for one-line warnings.
    public var summary: String { "\(place): \(message)" }

    /// The file and the place in it.
    public var place: FileLocation { FileLocation(path: path, line: location?.line, column: location?.column) }
}

/// A JSON syntax error at a byte offset, before it is tied to a file.
public struct JSONSyntaxError: Error, Sendable, Equatable {
    public var offset: Int
    public var message: String

    public init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }
}

extension FormatError: TickError {
    public var kind: FailureKind { .badData }
    public var fileLocation: String? { place.description }
    public var report: String {
        guard let location else { return message }
        return message + "\n" + location.caretSnippet
    }
}
