import FoundationEssentials

/// What `tick sync` did: its events in order, and the facts a caller asks about.
public struct SyncReport: Sendable {
    /// Every event, in the order they happened (also passed to the progress callback).
    public var events: [SyncEvent] = []

    public init(events: [SyncEvent] = []) { self.events = events }

    /// The message of the commit of local changes; nil when there was nothing to commit.
    public var commitMessage: String? {
        events.lazy.compactMap { if case .committed(let message) = $0 { return message } else { return nil } }.first
    }

    /// What came in, per pull (or finished merge).
    public var incoming: [ChangeSummary] {
        events.compactMap { if case .incoming(_, let summary) = $0 { return summary } else { return nil } }
    }

    /// The store merge after the pull (empty when nothing needed joining).
    public var storeMerge: [ResolveStep] {
        events.flatMap { if case .storeMerged(let steps) = $0 { return steps } else { return [] } }
    }

    /// True when commits were pushed (to an existing or a new upstream branch).
    public var pushed: Bool {
        events.contains {
            switch $0 {
            case .pushed, .pushedNewBranch: return true
            default: return false
            }
        }
    }

    /// The Syncthing conflict copies left for `tick resolve`.
    public var pendingConflictCopies: [String] {
        events.flatMap { if case .conflictCopiesPending(let copies) = $0 { return copies } else { return [] } }
    }
}
