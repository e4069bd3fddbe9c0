import FoundationEssentials

/// A change the planning rules refuse.
public enum PlanningError: Error, Sendable, Equatable {
    /// A task placed (`at:`) over a commitment in `blocks.json`; nothing was written.
    case slotOverCommitment(slot: TaskSlot, commitment: String, commitmentTime: String, more: Int)
    /// blocks.json changed on disk while `tick resolve` merged its conflict; nothing was written.
    case commitmentsChanged(path: String)
}

extension PlanningError: TickError {
    public var kind: FailureKind { .failure }

    public var errorDescription: String? {
        switch self {
        case let .slotOverCommitment(slot, commitment, time, more):
            return "refusing to place the task at \(slot.start)-\(slot.end) on \(SlotGuard.dayName(slot.day)): it overlaps the commitment "
                + "\"\(commitment)\" (\(time))\(more > 0 ? " (and \(more) more)" : ""); nothing was written. "
                + "Pick a free time (`tick plan \(slot.day.iso)` shows them) or remove the block (`tick blocks`)"
        case .commitmentsChanged(let path):
            return "\(path) changed on disk while tick was resolving it; nothing was written, run `tick resolve` again"
        }
    }
}
