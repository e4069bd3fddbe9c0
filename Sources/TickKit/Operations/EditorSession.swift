import FoundationEssentials
import Glibc

/// `tick edit ID` with no flags: the task's JSON in a scratch file for an
/// editor, validated on return and saved under the store lock. Running the
/// editor is the caller's (`edit`), and so is asking whether to edit again
/// after a mistake (`retry`).
///
/// The buffer holds the task as its file has it (change times and unknown
/// keys included), never the index's copy, so the save compares like with
/// like. A save goes through the same paths as every other change: the
/// writer stamps `changed.<field>` for each field the edit changed, `done`
/// completes through ``TaskFile/complete(taskID:at:timeZone:existsElsewhere:)``
/// and leaving `done` reopens through ``TaskFile/reopen(taskID:at:)``.
public struct EditorSession {
    let store: Store
    let session: IndexSession
    /// The task being edited, as it was listed (its short id and list).
    public let item: ListedTask
    let now: Date
    let timeZone: Zone
    let path: String
    /// The fields declared in config.toml: named in the buffer's header, checked on save.
    let fields: UserFields

    /// `path` is the scratch file (``scratchPath(location:task:processID:)``);
    /// it is removed once the edit is saved or had no changes, and kept otherwise.
    public init(store: Store, session: IndexSession, item: ListedTask, now: Date, timeZone: Zone, path: String,
                fields: UserFields = UserFields()) {
        self.fields = fields
        self.store = store
        self.session = session
        self.item = item
        self.now = now
        self.timeZone = timeZone
        self.path = path
    }

    /// `<state directory>/edits`: where scratch files (and the text of an
    /// edit that was not saved) live, a 0700 directory beside the undo journal.
    public static func scratchDirectory(_ location: StoreLocation) -> String {
        PathString.appending(location.stateDirectory, "edits")
    }

    /// `<state directory>/edits/tick-edit-<uuid8>-<pid>.json`.
    public static func scratchPath(location: StoreLocation, task: TaskItem, processID: Int32) -> String {
        scratchPath(directory: scratchDirectory(location), task: task, processID: processID)
    }

    /// `<directory>/tick-edit-<uuid8>-<pid>.json`.
    public static func scratchPath(directory: String, task: TaskItem, processID: Int32) -> String {
        PathString.appending(directory, "tick-edit-\(task.id.lowercased.prefix(8))-\(processID).json")
    }

    /// What the edit did.
    public enum Outcome: Equatable, Sendable {
        /// The text came back as it was (or differs in the comment header only).
        case noChanges
        /// The edited task was saved; `changed` is false when it matched the
        /// file already (an edit that only reformatted). `completion` is set
        /// when the edit completed the task (its series: the next occurrence,
        /// or why none was made).
        case saved(original: TaskItem, edited: TaskItem, changed: Bool, completion: CompletionOutcome?)
    }

    /// Writes the task's JSON to the scratch file, runs `edit` on its path,
    /// and saves what comes back. A text that does not parse, or breaks the
    /// rules, goes to `retry`: true runs `edit` again, false stops with
    /// ``EditorError/notSaved(kept:)``.
    public func run(edit: (String) throws -> Void, retry: (FormatError) -> Bool) throws -> Outcome {
        let original = try fileCopy()
        var originalNode = JSONWriter.write(TaskFileEncoder.node(for: original))
        if originalNode.isEmpty { originalNode = [] }
        // A `//` header says how times are read; zone-less times are local (EditorBuffer).
        let buffer = EditorBuffer(timeZone: timeZone, fields: fields)
        let originalBuffer = buffer.render(json: originalNode)
        try PrivateFiles.createDirectory(PathString.deletingLastComponent(path))
        try AtomicFile.write(originalBuffer, to: path, mode: PrivateFiles.fileMode)
        while true {
            try edit(path)
            guard let (bytes, _) = try AtomicFile.read(path: path) else { throw EditorError.bufferGone(path: path) }
            if bytes == originalBuffer || buffer.json(from: bytes) == buffer.json(from: originalBuffer) {
                unlink(path)
                return .noChanges
            }
            let decoder = TaskFileDecoder(bytes: buffer.json(from: bytes), path: path, kind: item.kind, fallbackDate: now)
            do {
                let edited = try validated(decoder.decodeTask(), original: original)
                let (saved, changed, completion) = try save(edited, original: original)
                unlink(path)
                return .saved(original: original, edited: saved, changed: changed, completion: completion)
            } catch let error as FormatError {
                if retry(error) { continue }
                throw EditorError.notSaved(kept: path)
            }
        }
    }

    /// The task as its file has it now, with hand edits stamped as the
    /// writer will stamp them (so the save's check sees the same task).
    private func fileCopy() throws -> TaskItem {
        guard var read = try store.read(item.kind) else { throw LookupError.taskNotFound(item.task.id.lowercased) }
        store.written.stampHandEdits(in: &read.file, bytes: read.bytes, at: read.stamp.modificationDate)
        guard let task = read.file.tasks.first(where: { $0.id == item.task.id }) else {
            throw LookupError.taskNotFound(item.task.id.lowercased)
        }
        return task
    }

    /// The task as edited, when the rules allow it: the same id; new text
    /// following TextRules (text the file already held is left alone).
    private func validated(_ task: TaskItem, original: TaskItem) throws(FormatError) -> TaskItem {
        var edited = task
        guard edited.id == original.id else {
            throw FormatError(path: path, location: nil, message: "the id cannot be changed (it was \(original.id.lowercased))")
        }
        edited.needsFill = false
        if edited.title != original.title, let problem = TextRules.titleProblem(edited.title) {
            throw FormatError(path: path, location: nil, message: problem)
        }
        if edited.notes != original.notes, let notes = edited.notes, let problem = TextRules.notesProblem(notes) {
            throw FormatError(path: path, location: nil, message: problem)
        }
        // A declared field the edit set or changed must be of its type (a value
        // already of another type, a hand edit, is kept as it is).
        for field in fields.all {
            guard let value = field.value(in: edited), value != field.value(in: original), !field.isWellTyped(value) else { continue }
            throw FormatError(path: path, location: nil,
                              message: "\(field.name): \(field.text(of: value)) is not \(Self.expected(field.kind))")
        }
        return edited
    }

    /// What a declared field of `kind` takes in the buffer.
    static func expected(_ kind: UserField.Kind) -> String {
        switch kind {
        case .string: return "text (give it in quotes)"
        case .number: return "a number like 3 or 2.5"
        case .date: return "a day like \"2026-12-01\" or a time like \"2026-12-01T09:00\""
        case .duration: return "minutes like 90 or a duration like \"1h30m\""
        case .values(let names): return "one of " + names.joined(separator: ", ")
        }
    }

    /// Saves `edited` over the task when its values are still as `original`
    /// had them; returns the task as saved, whether it changed, and the
    /// completion when the edit set it done.
    private func save(_ edited: TaskItem, original: TaskItem) throws -> (TaskItem, Bool, CompletionOutcome?) {
        let now = self.now
        let zone = timeZone
        let keptPath = path
        let kind = item.kind
        let index = session.index
        return try store.withLock { writer in
            try writer.update(kind) { file -> (TaskItem, Bool, CompletionOutcome?) in
                guard let i = file.index(of: original.id) else { throw EditorError.changedOnDisk(kept: keptPath) }
                let current = file.tasks[i]
                guard current.sameValues(as: original) else { throw EditorError.changedOnDisk(kept: keptPath) }
                var next = edited
                // Change times the text left alone are the file's (a reorder meanwhile
                // stamped `order`); the writer stamps the fields this edit changed.
                if next.changed == original.changed { next.changed = current.changed }
                if next.modifiedAt == original.modifiedAt { next.modifiedAt = current.modifiedAt }
                guard !next.sameContent(as: current) else { return (current, false, nil) }
                next.modifiedAt = max(now, current.modifiedAt)
                // The state changes through the paths `tick done` and `tick reopen` take.
                let completing = current.state != .done && edited.state == .done
                let reopening = current.state == .done && edited.state != .done
                if completing || reopening {
                    next.state = current.state
                    next.completedAt = current.completedAt
                }
                file.tasks[i] = next
                var completion: CompletionOutcome?
                if completing {
                    completion = try file.complete(taskID: original.id, at: now, timeZone: zone) { id in
                        index.contains(id, outside: kind) || writer.store.archiveHolds(id)
                    }
                } else if reopening {
                    _ = try file.reopen(taskID: original.id, at: now)
                }
                guard let j = file.index(of: original.id) else { throw LookupError.taskNotFound(original.id.lowercased) }
                if reopening, edited.state != .open { file.tasks[j].state = edited.state }
                // complete and reopen set `modifiedAt` to now; a stamp that ran ahead stays ahead.
                file.tasks[j].modifiedAt = max(file.tasks[j].modifiedAt, next.modifiedAt)
                // A completion time typed in the text is kept.
                if completing, let at = edited.completedAt, at != original.completedAt { file.tasks[j].completedAt = at }
                if var c = completion { c.task = file.tasks[j]; completion = c }
                return (file.tasks[j], true, completion)
            }
        }
    }
}
