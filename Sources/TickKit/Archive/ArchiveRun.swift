import FoundationEssentials

/// `tick archive`: done tasks completed before a cutoff moved to
/// `archive/<year>.json`, all files written together (``MultiFileWrite``).
/// The caller shows ``plan()`` (and may ask), then ``run(asked:)`` plans again
/// under the lock and writes.
public struct ArchiveRun {
    let store: Store
    let cutoff: Date
    let timeZone: Zone
    let now: Date

    public init(store: Store, before cutoff: Date, timeZone: Zone, now: Date) {
        self.store = store
        self.cutoff = cutoff
        self.timeZone = timeZone
        self.now = now
    }

    /// What would be archived now (read without the lock: for the question).
    /// A store file that cannot be read stops it.
    public func plan() throws -> ArchivePlan {
        let snapshot = try store.snapshotForWriting(try store.kinds())
        if let broken = snapshot.problems.first { throw StoreError.invalidFile(broken) }
        return ArchivePlan.make(files: snapshot.files, before: cutoff, timeZone: timeZone, now: now)
    }

    /// Plans again under the lock and archives; returns what was archived
    /// (empty when nothing is left to archive). `asked` is the plan the user
    /// agreed to: when given, other tasks to archive stop it
    /// (``ArchiveError/changedWhileAsking``). A read-only file at either end
    /// stops it before any file is written.
    public func run(asked: ArchivePlan? = nil) throws -> ArchivePlan {
        let now = self.now
        return try store.withLock { writer -> ArchivePlan in
            let plan = try plan()
            guard !plan.isEmpty else { return plan }
            if let asked, Set(plan.moves.map(\.task.id)) != Set(asked.moves.map(\.task.id)) {
                throw ArchiveError.changedWhileAsking
            }
            try writer.requireWritable(plan.targets + plan.sources)
            do {
                try writer.updateAll(plan.edits(now: now))
            } catch let error as StoreError {
                if case let .writeFailed(path, reason) = error {
                    throw ArchiveError.writeFailed(path: path, reason: reason, undone: reason != MultiFileWrite.notUndone)
                }
                throw error
            }
            return plan
        }
    }
}
