import FoundationEssentials

/// Why `tick archive` did not archive.
public enum ArchiveError: Error, Sendable, Equatable {
    /// A task to archive changed in its file between the plan and the write
    /// (an editor or a sync tool); nothing was written.
    case changedMeanwhile(path: String)
    /// The tasks to archive are not those the user was asked about; nothing was written.
    case changedWhileAsking
    /// A file could not be written: nothing was archived, or (`undone` false)
    /// the files already swapped in could not all be put back.
    case writeFailed(path: String, reason: String, undone: Bool)
}

extension ArchiveError: LocalizedError {
    public var errorDescription: String? {
        switch self {
        case .changedMeanwhile(let path):
            return "\(path) changed while tick archived its tasks; nothing was archived, run the command again"
        case .changedWhileAsking:
            return "the store changed while asking; nothing was archived, run the command again"
        case let .writeFailed(path, reason, undone):
            return "cannot write \(path): \(reason)" + (undone ? "; nothing was archived (no store file was changed)" : "")
        }
    }
}

extension ArchiveError: TickError {
    public var kind: FailureKind { .failure }
}
