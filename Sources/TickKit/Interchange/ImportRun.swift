import FoundationEssentials
import Glibc

/// `tick import`'s write: decoded files planned against the store under the
/// lock (``ImportPlan``) and, unless a dry run, written all or nothing
/// (every new version fsynced before any is swapped in, ``MultiFileWrite``).
public struct ImportRun {
    let store: Store
    let now: Date
    let timeZone: Zone
    /// The declared fields: a Taskwarrior import's UDAs of these names are fields.
    let fields: UserFields

    public init(store: Store, now: Date, timeZone: Zone, fields: UserFields = UserFields()) {
        self.store = store
        self.now = now
        self.timeZone = timeZone
        self.fields = fields
    }

    /// Plans the import of `files` (consumed), decoded from `format`, and, with
    /// `apply`, writes it. What the format cannot say (todo.txt: notes, a due
    /// date's time, ...; CSV: the slot, unknown keys) keeps the store's value.
    /// `progress` is asked, given the plan, for a callback on the files
    /// written (nil for none). A store file that cannot be read stops it.
    public func run(_ files: inout [TaskFile], from format: InterchangeFormat, apply: Bool,
                    progress: (ImportPlan) -> ((Int, Int) -> Void)? = { _ in nil }) throws -> ImportPlan {
        let now = self.now
        return try store.withLock { writer in
            let snapshot = try store.snapshot()
            if let broken = snapshot.problems.first { throw StoreError.invalidFile(broken) }
            switch format {
            case .todotxt: files = TodoTxtCodec.reconcile(files, with: snapshot, timeZone: timeZone)
            case .csv: files = CSVCodec.reconcile(files, with: snapshot)
            case .taskwarrior: files = TaskwarriorCodec.reconcile(files, with: snapshot, timeZone: timeZone, fields: fields)
            case .ics: files = ICalendarCodec.reconcile(files, with: snapshot)
            case .json, .markdown: break
            }
            let kinds = try store.kinds()
            let plan = ImportPlan.make(consuming: &files, into: snapshot, existingSlugs: Set(kinds.compactMap(\.slug)),
                                       inboxExists: kinds.contains(.inbox))
            guard apply else { return plan }
            let edits = plan.changes.map { change in
                FileEdit(kind: change.kind, create: { change.newFile ?? TaskFile.empty(change.kind, name: nil, now: now) }) { file in
                    ImportPlan.apply(change, to: &file)
                }
            }
            do {
                try writer.updateAll(edits, progress: progress(plan))
            } catch let error as StoreError {
                if case let .writeFailed(path, reason) = error {
                    throw ImportWriteError(path: path, reason: reason, undone: reason != MultiFileWrite.notUndone)
                }
                throw error
            }
            return plan
        }
    }
}

/// An import file could not be written: nothing was imported, or (`undone`
/// false) the files already swapped in could not all be put back.
public struct ImportWriteError: Error, LocalizedError, Sendable, Equatable {
    public var path: String
    public var reason: String
    public var undone: Bool

    public var errorDescription: String? {
        "cannot write \(path): \(reason)" + (undone ? "; nothing was imported (no store file was changed)" : "")
    }
}

extension ImportWriteError: TickError {
    public var kind: FailureKind { .failure }
}
