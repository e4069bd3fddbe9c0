import FoundationEssentials
import Glibc

/// `tick undo` (issue 28): undoes the newest changes of the store's journal
/// on this machine, newest first, under the store lock. Each entry is checked
/// file by file before anything is written; an entry that cannot be undone
/// (changed since by another route, without `force`) stops the run, and the
/// entries undone before it stay undone.
public struct UndoRun {
    /// The store; its journal session records the undo (``JournalSession/markUndoing(_:)``).
    public let store: Store
    /// Put the old state back even where tasks or lists changed since (not where a file would be lost).
    public let force: Bool

    /// The undo's time: what it puts back is stamped with it (``UndoStamping``).
    public let now: Date

    /// An undo at `now`, by default the store clock's time (the command's start).
    public init(store: Store, force: Bool, now: Date? = nil) {
        self.store = store
        self.force = force
        self.now = now ?? store.clock()
    }

    /// What a run undid.
    public struct Outcome {
        /// The entries undone, newest first.
        public var undone: [JournalEntry]
        /// Why the run stopped before undoing all it was asked to (nil when it
        /// did not): ``UndoError/nothingToUndo(available:)`` with nothing
        /// undone when fewer entries are left than asked for.
        public var failure: (any Error)?
        /// Journal lines that could not be read (skipped).
        public var warnings: [TickWarning] = []

        public init(undone: [JournalEntry], failure: (any Error)?, warnings: [TickWarning] = []) {
            self.undone = undone
            self.failure = failure
            self.warnings = warnings
        }
    }

    /// Undoes the newest `count` undoable entries; when fewer are left,
    /// undoes nothing (the outcome's failure says how many are). Journal
    /// lines that cannot be read are skipped and returned as warnings.
    public func undo(count: Int) throws -> Outcome {
        let journal = UndoJournal(location: store.location)
        var outcome = Outcome(undone: [], failure: nil)
        try store.withLock { writer in
            // Read under the lock: another tick may have just recorded a change.
            let contents = try journal.read()
            outcome.warnings = contents.warnings
            let pending = UndoJournal.undoable(contents.entries)
            guard count <= pending.count else {
                outcome.failure = UndoError.nothingToUndo(available: pending.count)
                return
            }
            for entry in pending.prefix(count) {
                do {
                    try revert(entry, writer: writer)
                } catch {
                    outcome.failure = error
                    break
                }
                store.journal?.markUndoing([entry.id])
                outcome.undone.append(entry)
            }
        }
        return outcome
    }

    /// Reverts one entry: checks every file first, then writes. Throws
    /// ``UndoError/conflicts(command:_:)`` when something changed since
    /// (without `force`, or that `force` cannot override), with nothing written.
    public func revert(_ entry: JournalEntry, writer: StoreWriter) throws {
        if entry.tooLarge == true { throw UndoError.tooLarge(command: entry.command) }
        let groups = UndoReverter.filesToRevert(entry)
        var outcomes: [UndoReverter.Outcome] = []
        var files: [TaskFile?] = []
        var conflicts: [UndoConflict] = []
        for (kind, steps) in groups {
            let read = readFile(kind)
            if let problem = read.problem {
                conflicts.append(UndoConflict(path: kind.relativePath, listName: steps.last?.name ?? "", reason: .fileUnreadable(problem)))
                outcomes.append(.keep)
                files.append(nil)
                continue
            }
            let current = try read.result.get()
            let (outcome, found) = try UndoReverter.revert(steps, kind: kind, current: current, force: force)
            conflicts += found
            outcomes.append(outcome)
            files.append(current)
        }
        // The undo is a change: what it puts back is stamped with its time (Docs/MERGE.md "Undo under sync").
        let stamping = UndoStamping(now: now, files: files, outcomes: outcomes, kinds: groups.map(\.kind))
        outcomes = zip(zip(groups, outcomes), files).map { pair, file in stamping.stamp(pair.1, kind: pair.0.kind, file: file) }
        // blocks.json: whole-file images; it must still be what the command left.
        var blocksBefore: [UInt8]??
        if let step = entry.blocks {
            do {
                let now = try store.readCommitments().map { String(decoding: $0.bytes, as: UTF8.self) }
                if now != step.after {
                    conflicts.append(UndoConflict(path: CommitmentFile.relativePath, listName: "commitments", reason: .commitmentsChanged))
                }
                blocksBefore = .some(step.before.map { Array($0.utf8) })
            } catch {
                let problem: String
                if case .invalidFile(let e) = error { problem = e.summary } else { problem = ErrorText.describe(error) }
                conflicts.append(UndoConflict(path: CommitmentFile.relativePath, listName: "commitments", reason: .fileUnreadable(problem)))
            }
        }
        if !conflicts.isEmpty && (!force || conflicts.contains { !$0.overridable }) {
            throw UndoError.conflicts(command: entry.command, conflicts)
        }
        // A read-only file stops the undo before any file is written.
        try writer.requireWritable(zip(groups, outcomes).compactMap { group, outcome in
            if case .keep = outcome { return nil }
            return group.0
        })
        if case .some(let bytes) = blocksBefore {
            try writer.restoreCommitments(bytes)
        }
        for ((kind, steps), outcome) in zip(groups, outcomes) {
            switch outcome {
            case .keep:
                continue
            case .write:
                // Re-applied on the file as it is at write time (StoreWriter re-reads it),
                // stamped here: not by the writer, which would stamp the values only,
                // and not through the user's hooks (a change already made once).
                try writer.update(kind, stampChanges: false) { file in
                    let (again, found) = try UndoReverter.revert(steps, kind: kind, current: file, force: force)
                    if !found.isEmpty && (!force || found.contains { !$0.overridable }) {
                        throw UndoError.conflicts(command: entry.command, found)
                    }
                    if case .write(let reverted) = stamping.stamp(again, kind: kind, file: file) { file = reverted }
                }
            case let .restore(bytes, mode):
                try writer.restore(bytes, as: kind, mode: mode)
            case .delete:
                try writer.remove(kind)
            }
        }
    }

    /// The file now (nil when missing), or why it cannot be parsed.
    func readFile(_ kind: FileKind) -> (result: Result<TaskFile?, StoreError>, problem: String?) {
        do {
            return (.success(try store.read(kind)?.file), nil)
        } catch {
            if case .invalidFile(let problem) = error { return (.failure(error), problem.summary) }
            return (.failure(error), nil)
        }
    }
}
