import FoundationEssentials

/// Why `tick sync` stopped. Whatever it committed is kept; the repository is
/// left as git left it.
public enum SyncError: Error, LocalizedError, Sendable, Equatable {
    /// The store directory does not exist.
    case noStore(root: String)
    /// The store is not in a git repository.
    case notARepository(root: String)
    /// Store files that cannot be parsed or have conflict markers: nothing was
    /// committed (the problems are reported as ``SyncEvent/unreadableFile(_:)``).
    case unreadableFiles(count: Int)
    /// Fetching a configured upstream that was never fetched failed.
    case firstFetchFailed(remote: String, message: String)
    /// `git fetch` failed.
    case fetchFailed(message: String)
    /// `git pull` failed without leaving a merge or rebase.
    case pullFailed(message: String)
    /// `git push` failed.
    case pushFailed(message: String)
    /// git stopped with conflicts tick does not resolve on its own.
    case stoppedWithConflicts(paths: [String], filesWithMarkers: [String])
    /// The merge is staged but could not be committed.
    case mergeNotCommitted(message: String)
    /// `git rebase --continue` failed with nothing left unmerged.
    case rebaseContinueFailed(message: String)
    /// The rebase stopped again and again.
    case rebaseKeptStopping
    /// The store merged after the pull could not be committed.
    case mergedStoreNotCommitted(message: String)

    public var errorDescription: String? {
        switch self {
        case .noStore(let root):
            return "the store \(root) does not exist; create it as a git repository with `tick init --git \(root)`"
        case .notARepository(let root):
            return "the store \(root) is not in a git repository; run `tick init --git \(root)` or `git init` there, then `tick git setup`"
        case .unreadableFiles(let count):
            return "nothing was committed or pulled: fix the file\(count == 1 ? "" : "s") above first"
        case let .firstFetchFailed(remote, message):
            return "git fetch \(remote) failed; your commits are kept:\n\(message)"
        case .fetchFailed(let message):
            return "git fetch failed; nothing was merged, your commits are kept:\n\(message)"
        case .pullFailed(let message):
            return "git pull failed; nothing was merged, your commits are kept:\n\(message)"
        case .pushFailed(let message):
            return "git push failed (your commits are kept here; run `tick sync` again):\n\(message)"
        case let .stoppedWithConflicts(paths, markers):
            var help = "git stopped with conflicts in: \(paths.joined(separator: ", ")). The repository is left as git left it; nothing is lost."
            if !markers.isEmpty {
                help += " Files with conflict markers: \(markers.joined(separator: ", ")); `tick resolve` merges them (fix a version that is not valid JSON first)."
            }
            help += " Then `git add` the files and run `git commit` (or `git rebase --continue`), and `tick sync` again."
            return help
        case .mergeNotCommitted(let message):
            return "could not commit the merge (it is staged; commit it yourself):\n\(message)"
        case .rebaseContinueFailed(let message):
            return "git rebase --continue failed; the rebase is left stopped:\n\(message)"
        case .rebaseKeptStopping:
            return "the rebase kept stopping; it is left as git left it"
        case .mergedStoreNotCommitted(let message):
            return "could not commit the merged store (the files are merged; commit them yourself):\n\(message)"
        }
    }
}

extension SyncError: TickError {
    public var kind: FailureKind {
        if case .unreadableFiles = self { return .badData }
        return .failure
    }
}
