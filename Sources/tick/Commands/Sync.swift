import ArgumentParser
import Foundation
import TickKit

extension Tick {
    struct Sync: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sync",
            abstract: "Commit the store's changes, pull and push (git).",
            discussion: """
            For a store in a git repository (see `tick init --git` and `tick git \
            setup`):

              1. commits the store's changes, with a message that counts them
                 ("tick: 3 tasks added, 1 completed in 2 files"; never titles);
              2. runs `git pull` (merge or rebase, as the repository is configured;
                 the tick merge driver merges task files in both);
              3. runs `git push` when the branch has an upstream;
              4. reports what came in, in counts per file.

            Without a remote or upstream it commits and says so. A list deleted on \
            one machine and edited on the other is kept (with the edits) and the \
            merge is completed. If git stops for anything else, its message is \
            shown, the repository is left as git left it (nothing is lost) and the \
            exit status is 1; fix it (`tick resolve` merges files with conflict \
            markers), then `git commit` or `git rebase --continue`, and run \
            `tick sync` again. A store file that cannot be parsed is never \
            committed (exit status 4).
            """)

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let context = try Context(global)
            let root = context.store.location.root
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root, isDirectory: &isDir), isDir.boolValue else {
                throw CLIError("the store \(root) does not exist; create it as a git repository with `tick init --git \(root)`")
            }
            guard let repo = try GitRepository.discover(at: root, environment: context.environment) else {
                throw CLIError("the store \(root) is not in a git repository; run `tick init --git \(root)` or `git init` there, then `tick git setup`")
            }
            // No tick write interleaves with the commit, the merge and the checkout.
            try context.store.withLock { writer in
                try SyncRun(context: context, repo: repo, writer: writer).run()
            }
        }
    }
}

/// The steps of `tick sync`.
struct SyncRun {
    let context: Context
    let repo: GitRepository
    let writer: StoreWriter
    var t: Terminal { context.terminal }

    /// tick's temporary files never go into a commit.
    static let excludeTemporaries = ":(exclude,glob)**/.*.tick-*.tmp"

    func run() throws {
        // A merge or rebase that an earlier sync left stopped: finish it first.
        if try repo.isMerging() || repo.isRebasing() {
            let before = try repo.head()
            t.out("Finishing the merge or rebase in progress")
            try finishStoppedMerge(pullOutput: nil)
            _ = try reportIncomingSince(before, label: nil)
        }

        // One `git status` for the branch, its upstream and the changed files.
        let status = try repo.status()
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
                t.out("No git remote: the changes are committed in this repository only. Add one with `git remote add origin URL`, then `git push -u origin \(status.branch ?? "BRANCH")`.")
                warnPendingConflicts()
                return
            }
            guard let b = status.branch else {
                t.out("HEAD is detached (not on a branch): not pulling or pushing. Check out a branch and run `tick sync` again.")
                return
            }
            branch = b
            guard let remote = try repo.config("branch.\(branch).remote"), let mergeRef = try repo.config("branch.\(branch).merge") else {
                t.out("The branch \(branch) has no upstream: the changes are committed here only. Set one with `git push -u origin \(branch)`.")
                warnPendingConflicts()
                return
            }
            var configured = try repo.upstream()
            if configured == nil {
                // A clone of an empty repository: the upstream is configured but not fetched yet.
                let fetched = try repo.git(["fetch", "--quiet", remote])
                guard fetched.succeeded else { throw CLIError("git fetch \(remote) failed; your commits are kept:\n\(fetched.message)") }
                configured = try repo.upstream()
            }
            guard let configured else {
                // The remote branch does not exist yet: the first push creates it.
                let pushed = try repo.git(["push", "--quiet", remote, "HEAD:\(mergeRef)"])
                guard pushed.succeeded else {
                    throw CLIError("git push failed (your commits are kept here; run `tick sync` again):\n\(pushed.message)")
                }
                t.out("Pushed to \(remote) (created its branch \(mergeRef.replacingOccurrences(of: "refs/heads/", with: "")))")
                warnPendingConflicts()
                return
            }
            upstream = configured
        }

        // Fetch; pull only when the upstream has commits HEAD lacks.
        let fetched = try repo.git(["fetch"])
        guard fetched.succeeded else {
            throw CLIError("git fetch failed; nothing was merged, your commits are kept:\n\(fetched.message)")
        }
        var ahead: Int
        if let counts = try repo.aheadBehind(), counts.behind == 0 {
            ahead = counts.ahead
            t.out("Already up to date with \(upstream)")
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
                guard try repo.isMerging() || repo.isRebasing() else {
                    throw CLIError("git pull failed; nothing was merged, your commits are kept:\n\(pulled.message)")
                }
                try finishStoppedMerge(pullOutput: pulled)
            }
            _ = try reportIncomingSince(before, label: upstream)
            try mergeTheStore()
            ahead = try repo.commitsAhead()
        }

        // Push what upstream does not have.
        if ahead > 0 {
            let pushed = try repo.git(["push", "--quiet"])
            guard pushed.succeeded else {
                throw CLIError("git push failed (your commits are kept here; run `tick sync` again):\n\(pushed.message)")
            }
            t.out("Pushed to \(upstream)")
        } else {
            t.out("Nothing to push to \(upstream)")
        }
        warnPendingConflicts()
    }

    /// After a pull: joins tasks that the file-by-file merge left in two lists
    /// (moved on one machine, edited on the other) and reports fields where a
    /// later change won; commits what that changed (Docs/MERGE.md §14).
    func mergeTheStore() throws {
        var resolver = ConflictResolver(store: context.store, dryRun: false)
        let steps = try resolver.run(writer: writer)
        guard !steps.isEmpty else { return }
        _ = ResolvePrinter(context: context, dryRun: false, quiet: false).print(steps)
        let dirty = try repo.status().dirtyPaths.filter { !Self.isTemporary($0) }
        guard !dirty.isEmpty else { return }
        _ = try repo.check(["add", "--"] + dirty)
        let commit = try repo.git(["commit", "-q", "-m", "tick: merged tasks found in more than one list", "--"] + dirty)
        guard commit.succeeded else {
            throw CLIError("could not commit the merged store (the files are merged; commit them yourself):\n\(commit.message)")
        }
    }

    /// Commits the store's changes (as `status` found them) with a message
    /// that counts them; true when it made a commit.
    func commitLocalChanges(_ status: GitStatus) throws -> Bool {
        let dirty = status.dirtyPaths.filter { !Self.isTemporary($0) }
        // Never commit a file that cannot be read: it would break every clone.
        var problems: [String] = []
        for path in dirty {
            guard let kind = FileKind(relativePath: path),
                  let (bytes, stamp) = try AtomicFile.read(path: context.store.location.path(of: kind)) else { continue }
            if ConflictMarkers.contains(bytes) {
                problems.append("\(context.store.displayPath(kind)): has git conflict markers; run `tick resolve`")
                continue
            }
            do {
                _ = try TaskFileDecoder(bytes: bytes, path: context.store.displayPath(kind), kind: kind, fallbackDate: stamp.modificationDate).decode()
            } catch {
                problems.append(error.summary)
            }
        }
        guard problems.isEmpty else {
            problems.forEach { t.err("tick: " + $0) }
            throw CLIError("nothing was committed or pulled: fix the file\(problems.count == 1 ? "" : "s") above first", status: .badData)
        }
        guard !dirty.isEmpty else {
            t.out("No local changes to commit")
            return false
        }
        try repo.check(["add", "-A", "--", ".", Self.excludeTemporaries])
        let head = status.head
        let changes = try repo.changedPaths(from: head, to: nil)
        guard !changes.isEmpty else {
            t.out("No local changes to commit")
            return false
        }
        let summary = try summarize(changes.map(\.path), from: head, to: "")
        let message = "tick: " + summary.description
        try repo.check(["commit", "-q", "-m", message, "--", ".", Self.excludeTemporaries])
        t.out("Committed: \(message)")
        return true
    }

    /// After `git pull` (or an earlier sync) stopped: keeps edited files whose
    /// other side was deleted, then completes the merge or rebase. Anything
    /// else is left as git left it, and reported (exit 1).
    func finishStoppedMerge(pullOutput: ProcessResult?) throws {
        for _ in 0..<1000 {
            let unmerged = try repo.unmergedPaths(":/")
            var remaining: [String] = []
            for (path, stages) in unmerged.sorted(by: { $0.key < $1.key }) {
                // Modify/delete: the base and exactly one side; git left that side in the work tree.
                let isModifyDelete = stages.contains(1) && stages.contains(2) != stages.contains(3)
                let inStore = !path.hasPrefix("../")
                if isModifyDelete, inStore, FileManager.default.fileExists(atPath: context.store.location.path(path)) {
                    try repo.check(["add", "--", path])
                    t.out("\(path) was deleted on one side and changed on the other: kept the changed file")
                } else {
                    remaining.append(path)
                }
            }
            guard remaining.isEmpty else {
                if let pullOutput { t.err(pullOutput.message) }
                let markers = context.store.filesWithConflictMarkers()
                var help = "git stopped with conflicts in: \(remaining.joined(separator: ", ")). The repository is left as git left it; nothing is lost."
                if !markers.isEmpty {
                    help += " Files with conflict markers: \(markers.map(\.relativePath).joined(separator: ", ")); `tick resolve` merges them (fix a version that is not valid JSON first)."
                }
                help += " Then `git add` the files and run `git commit` (or `git rebase --continue`), and `tick sync` again."
                throw CLIError(help)
            }
            if try repo.isMerging() {
                let r = try repo.git(["commit", "-q", "--no-edit"])
                guard r.succeeded else { throw CLIError("could not commit the merge (it is staged; commit it yourself):\n\(r.message)") }
                return
            }
            if try repo.isRebasing() {
                let r = try repo.git(["rebase", "--continue"])
                let stillRebasing = try repo.isRebasing()
                if r.succeeded && !stillRebasing { return }
                let unmergedNow = try repo.unmergedPaths(":/")
                if !r.succeeded && unmergedNow.isEmpty {
                    throw CLIError("git rebase --continue failed; the rebase is left stopped:\n\(r.message)")
                }
                continue
            }
            return
        }
        throw CLIError("the rebase kept stopping; it is left as git left it")
    }

    /// Prints what arrived since `before` (per file, counts) and returns the new HEAD.
    func reportIncomingSince(_ before: String?, label: String?) throws -> String? {
        let after = try repo.head()
        guard let after, after != before else {
            if let label { t.out("Already up to date with \(label)") }
            return after
        }
        let changes = try repo.changedPaths(from: before, to: after)
        guard !changes.isEmpty else {
            if let label { t.out("Pulled from \(label): no changes to the store") }
            return after
        }
        let summary = try summarize(changes.map(\.path), from: before, to: after)
        t.out("\(label.map { "Pulled from \($0)" } ?? "Merged"): \(summary.description)")
        for (path, description) in summary.perFile {
            t.out("  \(path): \(description)")
        }
        return after
    }

    /// Counts the changes to `paths` between two revisions (`""` = the index, nil = nothing).
    func summarize(_ paths: [String], from: String?, to: String) throws -> ChangeSummary {
        let fallback = context.now
        return ChangeSummary(try paths.map { path in
            let old = try from.map { try repo.contents(at: $0, path) } ?? nil
            let new = try repo.contents(at: to, path)
            return FileChange.compare(path: path, old: old, new: new, fallbackDate: fallback)
        })
    }

    func warnPendingConflicts() {
        let copies = context.store.conflictCopies().map(\.relativePath)
            + CommitmentConflicts(context: context, dryRun: true).copies.map(\.path)
        if !copies.isEmpty {
            t.err("tick: \(copies.count) Syncthing conflict cop\(copies.count == 1 ? "y" : "ies") pending; run `tick resolve`")
        }
    }

    static func isTemporary(_ path: String) -> Bool {
        let name = (path as NSString).lastPathComponent
        return name.hasPrefix(".") && name.contains(".tick-") && name.hasSuffix(".tmp")
    }
}
