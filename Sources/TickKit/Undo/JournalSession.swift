import FoundationEssentials

/// Records one command's writes for the undo journal.
///
/// A session is handed to a ``Store``; every ``StoreWriter`` write of that
/// store reports its before and after images here, and ``Store/withLock(timeout:_:)``
/// calls ``flush()`` before it releases the lock, so the journal is written
/// under the store lock, in the order the changes happened. All writes of one
/// process become one entry (a later flush supersedes the earlier line).
public final class JournalSession: @unchecked Sendable {
    /// The journal file.
    public let journal: UndoJournal
    /// The command path (`done`, `lists rm`).
    public let command: String
    public let id: String
    private let now: Date
    /// The session this one was restarted from: its warnings are kept there too.
    private let parent: JournalSession?
    private let lock = Lock()
    private var warnings: [TickWarning] = []
    private var steps: [FileStep] = []
    private var blocks: CommitmentStep?
    private var undoes: [String]?
    private var dirty = false
    /// Set when a step was recorded by counts only: the entry cannot be undone.
    private var countsOnly = false

    /// Entries whose JSON exceeds this size keep counts instead of images, and cannot be undone.
    public let maxEntryBytes: Int

    /// A journal that cannot be written is a warning (``takeWarnings()``):
    /// the change itself has been made; tick never fails a command for its journal.
    public convenience init(journal: UndoJournal, command: String, now: Date, maxEntryBytes: Int = 4 << 20) {
        self.init(journal: journal, command: command, now: now, maxEntryBytes: maxEntryBytes, parent: nil)
    }

    private init(journal: UndoJournal, command: String, now: Date, maxEntryBytes: Int, parent: JournalSession?) {
        self.journal = journal
        self.command = command
        self.now = now
        self.maxEntryBytes = maxEntryBytes
        self.parent = parent
        self.id = UUID().lowercased
    }

    /// The warnings since the last call (a journal that could not be written),
    /// this session's and those of the sessions restarted from it.
    public func takeWarnings() -> [TickWarning] {
        lock.withLock {
            defer { warnings = [] }
            return warnings
        }
    }

    private func warn(_ warning: TickWarning) {
        lock.withLock { warnings.append(warning) }
        parent?.warn(warning)
    }

    /// A new session of the same journal and command, for the next entry of
    /// a writer that runs again and again (each CalDAV sync of `tick watch`):
    /// its own id and time, nothing recorded yet.
    /// `command` names the new entry (nil: this session's).
    /// Its warnings are also this session's (``takeWarnings()``).
    public func restarted(at now: Date, as command: String? = nil) -> JournalSession {
        JournalSession(journal: journal, command: command ?? self.command, now: now, maxEntryBytes: maxEntryBytes, parent: self)
    }

    /// Records one write (see ``FileStep/diff(kind:before:after:beforeBytes:beforeMode:)``).
    public func record(kind: FileKind, before: TaskFile?, after: TaskFile?, beforeBytes: [UInt8]? = nil, beforeMode: UInt32? = nil) {
        guard let step = FileStep.diff(kind: kind, before: before, after: after, beforeBytes: beforeBytes, beforeMode: beforeMode) else { return }
        lock.lock()
        defer { lock.unlock() }
        steps.append(step)
        dirty = true
    }

    /// Records a write by its task counts only, without images (a large
    /// import, whose images could not fit in ``maxEntryBytes`` anyway); the
    /// entry is then kept as too large to undo, as ``flush()`` does for any
    /// entry over the limit, without building the images first.
    public func recordCounts(kind: FileKind, name: String, fileID: UUID, created: Bool, counts: StepCounts) {
        var step = FileStep(path: kind.relativePath, name: name, fileID: fileID.lowercased)
        if created { step.created = true }
        step.counts = counts
        lock.lock()
        defer { lock.unlock() }
        steps.append(step)
        countsOnly = true
        dirty = true
    }

    /// Records a write of `blocks.json` (nil: the file did not exist / was removed).
    /// Several writes in one command keep the first before and the last after.
    public func recordCommitments(before: [UInt8]?, after: [UInt8]?) {
        lock.lock()
        defer { lock.unlock() }
        let text = { (bytes: [UInt8]?) in bytes.map { String(decoding: $0, as: UTF8.self) } }
        blocks = CommitmentStep(before: blocks.map(\.before) ?? text(before), after: text(after))
        dirty = true
    }

    /// Marks this session as the undo of these entries.
    public func markUndoing(_ entryIDs: [String]) {
        lock.lock()
        defer { lock.unlock() }
        undoes = (undoes ?? []) + entryIDs
        dirty = true
    }

    /// The entry as recorded so far, or nil when nothing was recorded.
    public var entry: JournalEntry? {
        lock.lock()
        defer { lock.unlock() }
        guard !steps.isEmpty || undoes != nil || blocks != nil else { return nil }
        return JournalEntry(id: id, at: now, command: command, undoes: undoes, files: steps, blocks: blocks)
    }

    /// Appends the entry to the journal when something new was recorded.
    /// Failures are warnings (``takeWarnings()``), never thrown.
    public func flush() {
        lock.lock()
        let needed = dirty
        dirty = false
        lock.unlock()
        guard needed, var entry else { return }
        do {
            var line = try UndoJournal.encode(entry)
            if line.count > maxEntryBytes || lock.withLock({ countsOnly }) {
                entry.tooLarge = true
                entry.files = entry.files.map { step in
                    var stub = FileStep(path: step.path, name: step.name, fileID: step.fileID)
                    stub.created = step.created
                    stub.removed = step.removed
                    stub.counts = step.taskCounts
                    return stub
                }
                entry.blocks = nil
                line = try UndoJournal.encode(entry)
            }
            try journal.append(line)
        } catch {
            warn(TickWarning("the change was made, but it could not be recorded for `tick undo`: \(ErrorText.describe(error))"))
        }
    }
}
