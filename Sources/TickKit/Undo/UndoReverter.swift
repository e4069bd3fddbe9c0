import FoundationEssentials
import Glibc

/// Puts files back the way they were before a journal entry, task by task,
/// so that changes made since to other tasks of the same file are kept.
///
/// Pure: it takes the current file and returns what to write.
public enum UndoReverter {
    /// What to do with one file.
    public enum Outcome: Sendable, Equatable {
        /// Write this content (through ``StoreWriter/update(_:create:_:)``).
        case write(TaskFile)
        /// Create the file with exactly these bytes (a deleted list, back byte for byte).
        case restore(bytes: [UInt8], mode: UInt32?)
        /// Delete the file (a list or inbox the entry created, now empty again).
        case delete
        /// Nothing to do.
        case keep
    }

    /// The entry's steps grouped by file. Files are in the order to write
    /// them: the one written last by the command first.
    public static func filesToRevert(_ entry: JournalEntry) -> [(kind: FileKind, steps: [FileStep])] {
        var groups: [String: [FileStep]] = [:]
        var lastSeen: [String: Int] = [:]
        for (i, step) in entry.files.enumerated() {
            groups[step.path, default: []].append(step)
            lastSeen[step.path] = i
        }
        return lastSeen.sorted { $0.value > $1.value }.compactMap { path, _ in
            guard let kind = FileKind(relativePath: path), let steps = groups[path] else { return nil }
            return (kind, steps)
        }
    }

    /// Reverts `steps` (one file's, in the order they were made) on `current`
    /// (nil when the file does not exist). With conflicts and without `force`,
    /// or with a conflict `force` cannot override, the outcome is ``Outcome/keep``.
    public static func revert(_ steps: [FileStep], kind: FileKind, current: TaskFile?, force: Bool) throws(UndoError) -> (outcome: Outcome, conflicts: [UndoConflict]) {
        var file = current
        var exact: (bytes: [UInt8], mode: UInt32?)?
        var conflicts: [UndoConflict] = []
        for step in steps.reversed() {
            func conflict(_ reason: UndoConflict.Reason, _ task: UUID? = nil) {
                conflicts.append(UndoConflict(path: step.path, listName: step.name, taskID: task, reason: reason))
            }
            if step.counts != nil { throw .unreadableImage(path: step.path, reason: "the images were not kept") }
            if step.isRemoved {
                guard file == nil else {
                    conflict(.fileRecreated)
                    return (.keep, conflicts)
                }
                guard let text = step.bytesBefore, let data = Data(base64Encoded: text) else {
                    throw .unreadableImage(path: step.path, reason: "the deleted file's bytes are missing")
                }
                let bytes = [UInt8](data)
                file = try FileStep.decodeFile(bytes, kind: kind)
                exact = (bytes, step.modeBefore)
                continue
            }
            guard var f = file else {
                conflict(.fileMissing)
                return (.keep, conflicts)
            }
            guard f.id.lowercased == step.fileID else {
                conflict(.fileRecreated)
                return (.keep, conflicts)
            }
            let found = try check(step, in: f, kind: kind)
            for c in found { conflict(c.reason, c.task) }
            if !found.isEmpty && (!force || conflicts.contains { !$0.overridable }) { return (.keep, conflicts) }
            try apply(step, to: &f, kind: kind)
            exact = nil
            file = step.isCreated && f.tasks.isEmpty ? nil : f
        }
        guard let file else { return (current == nil ? .keep : .delete, conflicts) }
        if current == nil {
            return (.restore(bytes: exact?.bytes ?? TaskFileEncoder.encode(file), mode: exact?.mode), conflicts)
        }
        return (file == current ? .keep : .write(file), conflicts)
    }

    /// What differs between the file now and the step's after images.
    static func check(_ step: FileStep, in f: TaskFile, kind: FileKind) throws(UndoError) -> [(reason: UndoConflict.Reason, task: UUID?)] {
        var found: [(reason: UndoConflict.Reason, task: UUID?)] = []
        if let text = step.headerAfter {
            let header = try FileStep.decodeFile(Array(text.utf8), kind: kind)
            if !FileStep.sameHeader(header, f, ignoringTime: true) { found.append((.fileChanged, nil)) }
        }
        var position: [UUID: Int] = [:]
        position.reserveCapacity(f.tasks.count)
        for (i, t) in f.tasks.enumerated() { position[t.id] = i }
        for t in step.tasks {
            guard let id = UUID(uuidString: t.id) else { throw .unreadableImage(path: step.path, reason: "bad task id \(t.id)") }
            let now = position[id].map { f.tasks[$0] }
            switch (t.after, now) {
            case (nil, nil): break
            case (nil, .some): found.append((.reappeared, id))
            case (.some, nil): found.append((.gone, id))
            case let (.some(text), .some(task)):
                let after = try FileStep.decodeTask(text, kind: kind)
                if !after.sameValues(as: task) { found.append((.changed(fields: changedFields(after, task)), id)) }
            }
        }
        return found
    }

    /// Puts the step's before images back into `f`.
    static func apply(_ step: FileStep, to f: inout TaskFile, kind: FileKind) throws(UndoError) {
        var added = Set<UUID>()
        var restore: [(index: Int, prev: UUID?, task: TaskItem)] = []
        for t in step.tasks {
            guard let id = UUID(uuidString: t.id) else { throw .unreadableImage(path: step.path, reason: "bad task id \(t.id)") }
            guard let text = t.before else {
                added.insert(id)
                continue
            }
            let task = try FileStep.decodeTask(text, kind: kind)
            if let i = f.index(of: id) {
                f.tasks[i] = task
            } else {
                restore.append((t.beforeIndex ?? f.tasks.count, t.beforePrev.flatMap { UUID(uuidString: $0) }, task))
            }
        }
        if !added.isEmpty { f.tasks.removeAll { added.contains($0.id) } }
        for r in restore.sorted(by: { $0.index < $1.index }) {
            let at: Int
            if let prev = r.prev {
                at = f.index(of: prev).map { $0 + 1 } ?? min(r.index, f.tasks.count)
            } else {
                at = 0
            }
            f.tasks.insert(r.task, at: at)
        }
        if let order = step.orderBefore { restoreOrder(order, in: &f) }
        if let gone = step.tombstonesAdded {
            let remove = Set(gone.compactMap(\.tombstone))
            f.deleted.removeAll { remove.contains($0) }
        }
        if let back = step.tombstonesRemoved {
            for t in back.compactMap(\.tombstone) where !f.deleted.contains(where: { $0.id == t.id }) && f.index(of: t.id) == nil {
                f.deleted.append(t)
            }
            f.deleted = f.deleted.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element)
        }
        if let text = step.headerBefore {
            let header = try FileStep.decodeFile(Array(text.utf8), kind: kind)
            f.version = header.version
            f.name = header.name
            f.color = header.color
            f.createdAt = header.createdAt
            f.modifiedAt = header.modifiedAt
            f.extra = header.extra
        }
    }

    /// Puts the tasks named in `order` back in that relative order, in the
    /// slots they hold now; other tasks stay where they are.
    static func restoreOrder(_ order: [String], in f: inout TaskFile) {
        var rank: [UUID: Int] = [:]
        for (i, s) in order.enumerated() { if let id = UUID(uuidString: s) { rank[id] = i } }
        let slots = f.tasks.indices.filter { rank[f.tasks[$0].id] != nil }
        let sorted = slots.map { f.tasks[$0] }.sorted { (rank[$0.id] ?? 0) < (rank[$1.id] ?? 0) }
        for (slot, task) in zip(slots, sorted) { f.tasks[slot] = task }
    }

    /// Names of the fields that differ (as in the file format, ``TaskField/undoName``),
    /// for messages; `position` when no field does (the task only moved).
    public static func changedFields(_ a: TaskItem, _ b: TaskItem) -> [String] {
        let fields = TaskField.differing(a, b).map(\.undoName)
        return fields.isEmpty ? ["position"] : fields
    }
}
