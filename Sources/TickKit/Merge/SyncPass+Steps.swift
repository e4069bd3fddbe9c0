import FoundationEssentials
import Glibc

extension SyncPass {
    /// After a pull: joins tasks that the file-by-file merge left in two lists
    /// (moved on one machine, edited on the other) and reports fields where a
    /// later change won; commits what that changed (Docs/MERGE.md §14).
    func mergeTheStore(writer: StoreWriter) throws {
        var resolver = ConflictResolver(store: store, dryRun: false)
        let steps = try resolver.run(writer: writer)
        guard !steps.isEmpty else { return }
        emit(.storeMerged(steps))
        let dirty = try repo.status().dirtyPaths.filter { !SyncRun.isTemporary($0) }
        guard !dirty.isEmpty else { return }
        _ = try repo.check(["add", "--"] + dirty)
        let commit = try repo.git(["commit", "-q", "-m", "tick: merged tasks found in more than one list", "--"] + dirty)
        guard commit.succeeded else { throw SyncError.mergedStoreNotCommitted(message: commit.message) }
    }

    /// Stamps the hand edits in the changed store files and writes them back
    /// (``StoreWriter/stampHandEdits(_:)``) before they are committed. A file
    /// that cannot be parsed is left as it is (the commit step refuses it).
    func stampHandEdits(_ status: GitStatus, writer: StoreWriter) {
        for path in status.dirtyPaths where !SyncRun.isTemporary(path) {
            guard let kind = FileKind(relativePath: path) else { continue }
            _ = try? writer.stampHandEdits(kind)
        }
    }

    /// Commits the store's changes (as `status` found them) with a message
    /// that counts them; true when it made a commit.
    func commitLocalChanges(_ status: GitStatus) throws -> Bool {
        let dirty = status.dirtyPaths.filter { !SyncRun.isTemporary($0) }
        // Never commit a file that cannot be read: it would break every clone.
        var problems: [String] = []
        for path in dirty {
            guard let kind = FileKind(relativePath: path),
                  let (bytes, stamp) = try AtomicFile.read(path: store.location.path(of: kind)) else { continue }
            if ConflictMarkers.contains(bytes) {
                problems.append("\(store.displayPath(kind)): has git conflict markers; run `tick resolve`")
                continue
            }
            do {
                _ = try TaskFileDecoder(bytes: bytes, path: store.displayPath(kind), kind: kind, fallbackDate: stamp.modificationDate).decode()
            } catch {
                problems.append(error.summary)
            }
        }
        guard problems.isEmpty else {
            problems.forEach { emit(.unreadableFile($0)) }
            throw SyncError.unreadableFiles(count: problems.count)
        }
        guard !dirty.isEmpty else {
            emit(.noLocalChanges)
            return false
        }
        try repo.check(["add", "-A", "--", ".", SyncRun.excludeTemporaries])
        let head = status.head
        let changes = try repo.changedPaths(from: head, to: nil)
        guard !changes.isEmpty else {
            emit(.noLocalChanges)
            return false
        }
        let summary = try summarize(changes.map(\.path), from: head, to: "")
        let message = "tick: " + summary.description
        try repo.check(["commit", "-q", "-m", message, "--", ".", SyncRun.excludeTemporaries])
        emit(.committed(message: message))
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
                if isModifyDelete, inStore, FileManager.default.fileExists(atPath: store.location.path(path)) {
                    try repo.check(["add", "--", path])
                    emit(.keptChangedFile(path: path))
                } else {
                    remaining.append(path)
                }
            }
            guard remaining.isEmpty else {
                if let pullOutput { emit(.gitMessage(pullOutput.message)) }
                let markers = store.filesWithConflictMarkers().map(\.relativePath)
                throw SyncError.stoppedWithConflicts(paths: remaining, filesWithMarkers: markers)
            }
            if try repo.isMerging() {
                let r = try repo.git(["commit", "-q", "--no-edit"])
                guard r.succeeded else { throw SyncError.mergeNotCommitted(message: r.message) }
                return
            }
            if try repo.isRebasing() {
                let r = try repo.git(["rebase", "--continue"])
                let stillRebasing = try repo.isRebasing()
                if r.succeeded && !stillRebasing { return }
                let unmergedNow = try repo.unmergedPaths(":/")
                if !r.succeeded && unmergedNow.isEmpty { throw SyncError.rebaseContinueFailed(message: r.message) }
                continue
            }
            return
        }
        throw SyncError.rebaseKeptStopping
    }

    /// Reports what arrived since `before` (per file, counts) and returns the new HEAD.
    func reportIncomingSince(_ before: String?, upstream: String?) throws -> String? {
        let after = try repo.head()
        guard let after, after != before else {
            if let upstream { emit(.upToDate(upstream: upstream)) }
            return after
        }
        let changes = try repo.changedPaths(from: before, to: after)
        guard !changes.isEmpty else {
            if let upstream { emit(.noStoreChanges(upstream: upstream)) }
            return after
        }
        emit(.incoming(upstream: upstream, try summarize(changes.map(\.path), from: before, to: after)))
        return after
    }

    /// Counts the changes to `paths` between two revisions (`""` = the index, nil = nothing).
    func summarize(_ paths: [String], from: String?, to: String) throws -> ChangeSummary {
        let fallback = now
        return ChangeSummary(try paths.map { path in
            let old = try from.map { try repo.contents(at: $0, path) } ?? nil
            let new = try repo.contents(at: to, path)
            return FileChange.compare(path: path, old: old, new: new, fallbackDate: fallback)
        })
    }

    /// Notes the Syncthing conflict copies waiting for `tick resolve`: of the
    /// store's files and of blocks.json.
    func notePendingConflicts() {
        let copies = store.conflictCopies().map(\.relativePath) + store.commitmentConflictCopies().map(\.relativePath)
        if !copies.isEmpty { emit(.conflictCopiesPending(copies)) }
    }
}
