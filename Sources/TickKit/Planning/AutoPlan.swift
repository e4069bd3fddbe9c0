import FoundationEssentials

/// A proposed placement of tasks into a day's free time (`tick plan --auto`).
public struct AutoPlan: Sendable, Equatable {
    /// A task and the slot proposed for it.
    public struct Placement: Sendable, Equatable {
        public var task: TaskItem
        public var slot: TaskSlot
        /// True when the length is the default because the task has no estimate.
        public var usedDefaultLength: Bool
    }

    /// Tasks placed, by start time.
    public var placements: [Placement]
    /// Candidates that did not fit any free block, with the minutes they needed.
    public var unplaced: [(task: TaskItem, minutes: Int)]

    public static func == (a: AutoPlan, b: AutoPlan) -> Bool {
        a.placements == b.placements && a.unplaced.map(\.task) == b.unplaced.map(\.task) && a.unplaced.map(\.minutes) == b.unplaced.map(\.minutes)
    }

    /// Replaces each task with its full version (from a ranking projection to
    /// the task with its title and everything else), where `full` has one.
    public mutating func hydrate(_ full: (UUID) -> TaskItem?) {
        for i in placements.indices {
            if let task = full(placements[i].task.id) { placements[i].task = task }
        }
        for i in unplaced.indices {
            if let task = full(unplaced[i].task.id) { unplaced[i].task = task }
        }
    }
}
