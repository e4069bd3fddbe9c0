import FoundationEssentials

/// A change by filter (``BulkSelection``) that selects nothing, or too much without confirmation.
public enum SelectionError: Error, LocalizedError, Sendable, Equatable {
    /// Neither ids nor a filter were given (an empty filter selects everything).
    case nothingNamed
    /// The filter matches no task; `which` is "pending task", "done task" or "task".
    case noMatch(which: String, filter: String)
    /// More than `limit` tasks were selected, and there was no terminal to ask.
    case needsConfirmation(verb: String, count: Int, filter: String, limit: Int)
    /// The user answered no.
    case cancelled

    public var errorDescription: String? {
        switch self {
        case .nothingNamed:
            return "give task ids or a filter, e.g. 3 7 or +errand list:Home"
        case let .noMatch(which, filter):
            return "no \(which) matches \(filter)"
        case let .needsConfirmation(verb, count, filter, limit):
            return "refusing to \(verb.lowercased()) \(count) tasks matching \(filter) without confirmation: more than \(limit) "
                + "need --yes in a script (or narrow the filter; [bulk] confirm in config.toml sets the number)"
        case .cancelled:
            return "cancelled; nothing was changed"
        }
    }
}

extension SelectionError: TickError {
    public var kind: FailureKind {
        switch self {
        case .nothingNamed: return .usage
        case .noMatch: return .notFound
        case .needsConfirmation, .cancelled: return .failure
        }
    }
}
