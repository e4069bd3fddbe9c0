import FoundationEssentials

/// Failures of the index. The index is only a cache: callers rebuild it or
/// fall back to reading the files; these never reach users as fatal errors.
public enum IndexError: Error, LocalizedError, Sendable {
    case cannotOpen(path: String, reason: String)
    case database(String)
    /// Another tick process holds the index's lock for too long.
    case busy(String)

    public var errorDescription: String? {
        switch self {
        case let .cannotOpen(path, reason): return "cannot open the index \(path): \(reason)"
        case .database(let reason): return "index error: \(reason)"
        case .busy(let reason): return "index busy: \(reason)"
        }
    }
}

extension IndexError: TickError {
    public var kind: FailureKind { .failure }
}
