import Foundation

/// Why `tick archive` did not archive.
public enum ArchiveError: Error, Sendable, Equatable {
    /// A task to archive changed in its file between the plan and the write
    /// (an editor or a sync tool); nothing was written.
    case changedMeanwhile(path: String)
}

extension ArchiveError: LocalizedError {
    public var errorDescription: String? {
        switch self {
        case .changedMeanwhile(let path):
            return "\(path) changed while tick archived its tasks; nothing was archived, run the command again"
        }
    }
}

extension ArchiveError: TickError {
    public var kind: FailureKind { .failure }
}
