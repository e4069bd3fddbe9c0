import Foundation

/// Bad command-line input: a token, a date, a value.
public enum InputError: Error, LocalizedError, Sendable, Equatable {
    case badValue(key: String, value: String, allowed: [String])
    case badDate(key: String, DateError)
    case badTag(String, reason: String)
    case emptyTitle
    case invalid(String)

    public var errorDescription: String? {
        switch self {
        case let .badValue(key, value, allowed):
            return "\(key): \"\(value)\" is not one of \(allowed.joined(separator: ", "))"
        case let .badDate(key, error):
            return "\(key): \(error.errorDescription ?? "bad date")"
        case let .badTag(tag, reason):
            return "bad tag \"\(tag)\": \(reason)"
        case .emptyTitle:
            return "a task needs a title; e.g. tick add Buy milk due:tomorrow +errand"
        case .invalid(let message):
            return message
        }
    }
}

extension InputError: TickError {
    public var kind: FailureKind { .usage }
}
