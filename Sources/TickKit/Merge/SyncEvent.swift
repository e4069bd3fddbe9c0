import FoundationEssentials

/// One step of `tick sync` worth telling the user, in the order it happened;
/// the CLI prints one line (or a few) for each.
public enum SyncEvent: Sendable {
    /// A merge or rebase an earlier sync left stopped is being finished.
    case finishingStoppedMerge
    /// A store file deleted on one side and changed on the other: the changed file was kept.
    case keptChangedFile(path: String)
    /// git's own message (a pull that stopped), shown as git wrote it.
    case gitMessage(String)
    /// A store file that cannot be committed (does not parse, or has conflict markers).
    case unreadableFile(String)
    /// The store had nothing to commit.
    case noLocalChanges
    /// The store's changes were committed with this message.
    case committed(message: String)
    /// The repository has no remote: committed only (`branch` nil when detached).
    case noRemote(branch: String?)
    /// HEAD is detached: not pulling or pushing.
    case detachedHead
    /// The branch has no upstream configured: committed only.
    case noUpstream(branch: String)
    /// The upstream branch did not exist yet; the push created it.
    case pushedNewBranch(remote: String, branch: String)
    /// Nothing came in from `upstream`.
    case upToDate(upstream: String)
    /// Commits came in but changed nothing in the store.
    case noStoreChanges(upstream: String)
    /// What came in, per file: from `upstream` (nil: a stopped merge, finished).
    case incoming(upstream: String?, ChangeSummary)
    /// After the pull, the store was merged (tasks in two lists joined, later changes kept).
    case storeMerged([ResolveStep])
    /// The commits upstream lacked were pushed.
    case pushed(upstream: String)
    /// Upstream had every commit already.
    case nothingToPush(upstream: String)
    /// Syncthing conflict copies wait for `tick resolve` (store-relative paths).
    case conflictCopiesPending([String])
}
