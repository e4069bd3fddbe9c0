import FoundationEssentials

/// One row of a day's timeline: a commitment, a placed task, or free time.
public struct TimelineEntry: Sendable, Equatable {
    /// What fills the time.
    public enum Kind: Sendable, Equatable {
        case commitment(Commitment)
        case task(TaskItem)
        case free
    }

    public var kind: Kind
    public var start: ClockTime
    public var end: ClockTime
    /// For a task: the commitments it overlaps (a plan made before a block was added).
    public var overlaps: [Commitment]

    public init(kind: Kind, start: ClockTime, end: ClockTime, overlaps: [Commitment] = []) {
        self.kind = kind
        self.start = start
        self.end = end
        self.overlaps = overlaps
    }

    /// Length in minutes.
    public var minutes: Int { end.minutes - start.minutes }

    /// Sort rank of the kind at equal start times: commitments, tasks, free time.
    var kindRank: Int {
        switch kind {
        case .commitment: return 0
        case .task: return 1
        case .free: return 2
        }
    }

    /// A title for sorting ties.
    var sortTitle: String {
        switch kind {
        case .commitment(let c): return c.title
        case .task(let t): return t.title
        case .free: return ""
        }
    }

    /// An id for sorting ties.
    var sortID: String {
        switch kind {
        case .commitment(let c): return c.id.lowercased
        case .task(let t): return t.id.lowercased
        case .free: return ""
        }
    }
}
