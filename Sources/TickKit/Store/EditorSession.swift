import Foundation

/// `tick edit ID` with no flags: the task's JSON in a scratch file for an
/// editor, validated on return and saved under the store lock. Running the
/// editor is the caller's (`edit`), and so is asking whether to edit again
/// after a mistake (`retry`).
public struct EditorSession {
    let store: Store
    /// The task being edited, as it was listed.
    public let item: ListedTask
    let now: Date
    let timeZone: TimeZone
    let path: String

    /// `path` is the scratch file (``scratchPath(directory:task:processID:)``);
    /// it is removed once the edit is saved or had no changes, and kept otherwise.
    public init(store: Store, item: ListedTask, now: Date, timeZone: TimeZone, path: String) {
        self.store = store
        self.item = item
        self.now = now
        self.timeZone = timeZone
        self.path = path
    }

    /// `<directory>/tick-edit-<uuid8>-<pid>.json`.
    public static func scratchPath(directory: String, task: TaskItem, processID: Int32) -> String {
        (directory as NSString).appendingPathComponent("tick-edit-\(task.id.lowercased.prefix(8))-\(processID).json")
    }

    /// What the edit did.
    public enum Outcome: Equatable, Sendable {
        /// The text came back as it was (or differs in the comment header only).
        case noChanges
        /// The edited task was saved; `changed` is false when it matched the
        /// file already (an edit that only reformatted).
        case saved(original: TaskItem, edited: TaskItem, changed: Bool)
    }

    /// Writes the task's JSON to the scratch file, runs `edit` on its path,
    /// and saves what comes back. A text that does not parse, or breaks the
    /// rules, goes to `retry`: true runs `edit` again, false stops with
    /// ``EditorError/notSaved(kept:)``.
    public func run(edit: (String) throws -> Void, retry: (FormatError) -> Bool) throws -> Outcome {
        let original = item.task
        var originalNode = JSONWriter.write(TaskFileEncoder.node(for: original))
        if originalNode.isEmpty { originalNode = [] }
        // A `//` header says how times are read; zone-less times are local (EditorBuffer).
        let buffer = EditorBuffer(timeZone: timeZone)
        let originalBuffer = buffer.render(json: originalNode)
        try AtomicFile.write(originalBuffer, to: path, mode: 0o600)
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
                let changed = try save(edited, original: original)
                unlink(path)
                return .saved(original: original, edited: edited, changed: changed)
            } catch let error as FormatError {
                if retry(error) { continue }
                throw EditorError.notSaved(kept: path)
            }
        }
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
        return edited
    }

    /// Saves `edited` over the task when it is still as `original` was;
    /// returns whether it changed.
    private func save(_ edited: TaskItem, original: TaskItem) throws -> Bool {
        let now = self.now
        let zone = timeZone
        let keptPath = path
        let kind = item.kind
        return try store.withLock { writer in
            try writer.update(kind) { file in
                let changed: Bool = try file.updateTask(original.id) { current in
                    guard current.sameContent(as: original) else { throw EditorError.changedOnDisk(kept: keptPath) }
                    var next = edited
                    guard !next.sameContent(as: current) else { return false }
                    next.modifiedAt = now
                    if next.state == .done && next.completedAt == nil { next.completedAt = now }
                    if next.state != .done && current.state == .done && next.completedAt == current.completedAt { next.completedAt = nil }
                    current = next
                    return true
                }
                // Done by editing the JSON is a completion too: a recurring task gets its next occurrence.
                if changed, original.state != .done, edited.state == .done {
                    _ = try? file.insertNextOccurrence(of: original.id, now: now, timeZone: zone)
                }
                return changed
            }
        }
    }
}
