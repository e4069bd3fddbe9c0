import FoundationEssentials

/// Refuses slots over commitments and warns about slots over other tasks.
public enum SlotGuard {
    /// Throws ``PlanningError/slotOverCommitment(slot:commitment:commitmentTime:more:)``
    /// when `after` was given a new slot that overlaps a commitment. Returns
    /// warnings for overlaps with other placed tasks.
    public static func check(before: TaskItem?, after: TaskItem, commitments: [Commitment], tasks: [TaskItem],
                             shortID: (UUID) -> Int?) throws(PlanningError) -> [TickWarning] {
        guard let slot = after.slot, slot != before?.slot else { return [] }
        let hits = DayPlanner.commitments(overlapping: slot, in: commitments)
        if let first = hits.first {
            throw .slotOverCommitment(slot: slot, commitment: first.title,
                                      commitmentTime: "\(first.start)-\(first.end), \(first.daysText)", more: hits.count - 1)
        }
        return DayPlanner.tasks(overlapping: slot, in: tasks, excluding: after.id).map { other in
            let label = shortID(other.id).map { "task \($0)" } ?? "task \(other.id.lowercased.prefix(8))"
            let s = other.slot.map { "\($0.start)-\($0.end)" } ?? ""
            return TickWarning("the slot \(slot.start)-\(slot.end) overlaps \(label) (\(s)); both are kept")
        }
    }

    /// "Tue 2026-11-24".
    public static func dayName(_ day: LocalDate) -> String {
        ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"][day.weekday - 1] + " " + day.iso
    }
}
