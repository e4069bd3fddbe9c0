import FoundationEssentials
import Glibc

/// `tick sync` for a store in a git repository (issue 28): under the store
/// lock, finishes a merge or rebase an earlier sync left stopped, commits the
/// store's changes with a message that counts them, fetches and pulls, merges
/// the store (tasks left in two lists), pushes, and reports what came in.
///
/// It prints nothing: each step is passed to `progress` as it happens (so
/// the CLI prints it before a later step can fail) and returned in a
/// ``SyncReport``; failures are ``SyncError``s (Docs/MERGE.md).
public struct SyncRun {
    /// The store; its clock is not used (`now` dates old files without a date).
    public let store: Store
    /// The repository the store is in.
    public let repo: GitRepository
    /// The command's start time.
    public let now: Date

    public init(store: Store, repo: GitRepository, now: Date) {
        self.store = store
        self.repo = repo
        self.now = now
    }

    /// tick's temporary files never go into a commit.
    public static let excludeTemporaries = ":(exclude,glob)**/.*.tick-*.tmp"

    /// The git repository holding `store` (with `environment` for git); throws
    /// ``SyncError/noStore(root:)`` or ``SyncError/notARepository(root:)``.
    public static func repository(for store: Store, environment: [String: String]) throws -> GitRepository {
        let root = store.location.root
        guard PathStat.isDirectory(root) == true else {
            throw SyncError.noStore(root: root)
        }
        guard let repo = try GitRepository.discover(at: root, environment: environment) else {
            throw SyncError.notARepository(root: root)
        }
        return repo
    }

    /// Runs the sync with the store lock held (no tick write interleaves with
    /// the commit, the merge and the checkout).
    public func run(progress: (SyncEvent) -> Void = { _ in }) throws -> SyncReport {
        try withoutActuallyEscaping(progress) { progress in
            let pass = SyncPass(store: store, repo: repo, now: now, progress: progress)
            try store.withLock { writer in try pass.run(writer: writer) }
            return pass.report
        }
    }

    /// True for tick's temporary files (`.inbox.json.tick-1a2b.tmp`).
    public static func isTemporary(_ path: String) -> Bool {
        let name = PathString.lastComponent(path)
        return name.hasPrefix(".") && name.contains(".tick-") && name.hasSuffix(".tmp")
    }
}
