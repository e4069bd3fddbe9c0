import Foundation
import GRDB

extension TaskIndex {
    /// Tasks placed in a slot on `day`, in any state, in display order.
    public func placedTasks(on day: LocalDate) throws -> [ListedTask] {
        try db.read { db in try listed(db, where: "t.slot_day = ?", arguments: [day.daysSinceEpoch]) }
    }

    /// Pending tasks placed in a slot on `day` or later, in display order.
    public func pendingPlacedTasks(onOrAfter day: LocalDate) throws -> [ListedTask] {
        try db.read { db in try listed(db, where: "t.slot_day >= ? AND t.state != 'done'", arguments: [day.daysSinceEpoch]) }
    }

    /// Open and active tasks, in display order.
    public func pendingTasks() throws -> [ListedTask] {
        try db.read { db in try listed(db, where: "t.state != 'done'") }
    }

    /// Pending tasks that may be relevant to `day` for `tick plan --auto`: must-do,
    /// scheduled on or before the day, or due before `dueBefore` (a superset:
    /// ``AutoPlacer/isCandidate(_:)`` decides exactly).
    public func planCandidates(day: LocalDate, dueWithinDays: Int, dueBefore: Date) throws -> [ListedTask] {
        try db.read { db in
            try listed(db, where: """
                t.state != 'done' AND (t.priority = 'must' OR t.scheduled_day <= ? OR t.due_day <= ? OR t.due_ts < ?)
                """, arguments: [day.daysSinceEpoch, day.daysSinceEpoch + dueWithinDays, dueBefore.timeIntervalSinceReferenceDate])
        }
    }
}
