import FoundationEssentials

/// One run of ``SyncRun`` with the store lock held: the steps in order, each
/// event recorded and passed on as it happens.
final class SyncPass {
    let store: Store
    let repo: GitRepository
    let now: Date
    private let progress: (SyncEvent) -> Void
    private(set) var report = SyncReport()

    init(store: Store, repo: GitRepository, now: Date, progress: @escaping (SyncEvent) -> Void) {
        self.store = store
        self.repo = repo
        self.now = now
        self.progress = progress
    }

    func emit(_ event: SyncEvent) {
        report.events.append(event)
        progress(event)
    }

    func run(writer: StoreWriter) throws {
        // A merge or rebase that an earlier sync left stopped: finish it first.
        if try repo.isMerging() || repo.isRebasing() {
            let before = try repo.head()
            emit(.finishingStoppedMerge)
            try finishStoppedMerge(pullOutput: nil)
            _ = try reportIncomingSince(before, upstream: nil)
        }

        // One `git status` for the branch, its upstream and the changed files.
        let status = try repo.status()
        // Hand edits get their change times before they are committed, so the
        // other machines merge them as changes (Docs/MERGE.md §17).
        stampHandEdits(status, writer: writer)
        let committed = try commitLocalChanges(status)
        /// HEAD before the pull (read again only when a commit moved it).
        func headBeforePull() throws -> String? { committed ? try repo.head() : status.head }

        // Where to pull from. The common case: an upstream that was fetched before.
        let upstream: String
        let branch: String
        if let b = status.branch, let u = status.upstream, status.ahead != nil {
            (branch, upstream) = (b, u)
        } else {
            guard !(try repo.remotes()).isEmpty else {
                emit(.noRemote(branch: status.branch))
                notePendingConflicts()
                return
            }
            guard let b = status.branch else {
                emit(.detachedHead)
                return
            }
            branch = b
            guard let remote = try repo.config("branch.\(branch).remote"), let mergeRef = try repo.config("branch.\(branch).merge") else {
                emit(.noUpstream(branch: branch))
                notePendingConflicts()
                return
            }
            var configured = try repo.upstream()
            if configured == nil {
                // A clone of an empty repository: the upstream is configured but not fetched yet.
                let fetched = try repo.git(["fetch", "--quiet", remote])
                guard fetched.succeeded else { throw SyncError.firstFetchFailed(remote: remote, message: fetched.message) }
                configured = try repo.upstream()
            }
            guard let configured else {
                // The remote branch does not exist yet: the first push creates it.
                let pushed = try repo.git(["push", "--quiet", remote, "HEAD:\(mergeRef)"])
                guard pushed.succeeded else { throw SyncError.pushFailed(message: pushed.message) }
                emit(.pushedNewBranch(remote: remote, branch: mergeRef.replacingAll("refs/heads/", with: "")))
                notePendingConflicts()
                return
            }
            upstream = configured
        }

        // Fetch; pull only when the upstream has commits HEAD lacks.
        let fetched = try repo.git(["fetch"])
        guard fetched.succeeded else { throw SyncError.fetchFailed(message: fetched.message) }
        var ahead: Int
        if let counts = try repo.aheadBehind(), counts.behind == 0 {
            ahead = counts.ahead
            emit(.upToDate(upstream: upstream))
        } else {
            let before = try headBeforePull()
            // Pull, keeping git's choice of merge or rebase; git 2.27+ insists on one
            // being configured when the branches diverged, so default to merge.
            var pull = ["pull", "--no-edit"]
            if try !repo.hasConfig(anyOf: ["pull.rebase", "branch.\(branch).rebase"]) {
                pull.append("--no-rebase")
            }
            let pulled = try repo.git(pull)
            if !pulled.succeeded {
                guard try repo.isMerging() || repo.isRebasing() else { throw SyncError.pullFailed(message: pulled.message) }
                try finishStoppedMerge(pullOutput: pulled)
            }
            _ = try reportIncomingSince(before, upstream: upstream)
            // What git checked out came from the other machines (stamped there):
            // no later look may take its differences for hand edits made here.
            writer.markAllSeen()
            try mergeTheStore(writer: writer)
            ahead = try repo.commitsAhead()
        }

        // Push what upstream does not have.
        if ahead > 0 {
            let pushed = try repo.git(["push", "--quiet"])
            guard pushed.succeeded else { throw SyncError.pushFailed(message: pushed.message) }
            emit(.pushed(upstream: upstream))
        } else {
            emit(.nothingToPush(upstream: upstream))
        }
        notePendingConflicts()
    }
}
