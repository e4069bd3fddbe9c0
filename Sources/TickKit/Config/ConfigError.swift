import FoundationEssentials

/// Why `config.toml` could not be used.
public enum ConfigError: Error, LocalizedError, Sendable, Equatable {
    /// Not valid TOML: where, what, and the line with a caret.
    case syntax(path: String, line: Int, column: Int, message: String, lineText: String)
    /// A known key with a value of the wrong kind or out of range.
    case badValue(path: String, key: String, found: String, expected: String)
    /// The file exists but cannot be read.
    case unreadable(path: String, reason: String)

    public var errorDescription: String? {
        switch self {
        case .syntax:
            return errorLine
        case let .badValue(path, key, found, expected):
            return "\(path): \(key) = \(found) is not valid; expected \(expected)"
        case let .unreadable(path, reason):
            return "cannot read \(path): \(reason)"
        }
    }
}

extension ConfigError: TickError {
    public var kind: FailureKind {
        switch self {
        case .syntax, .badValue: return .badData
        case .unreadable: return .failure
        }
    }

    public var fileLocation: String? {
        switch self {
        case let .syntax(path, line, column, _, _): return FileLocation(path: path, line: line, column: column).description
        case .badValue, .unreadable: return nil
        }
    }

    public var report: String {
        switch self {
        case let .syntax(_, _, column, message, lineText):
            let caret = String(repeating: " ", count: max(0, column - 1)) + "^"
            return "\(message)\n  \(lineText)\n  \(caret)\nfix the file, or move it aside to use the defaults"
        case .badValue, .unreadable:
            return errorDescription ?? "\(self)"
        }
    }
}
