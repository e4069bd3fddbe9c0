import FoundationEssentials
import Glibc

extension FileStep {
    /// The step for one write: `before` nil means the file was created,
    /// `after` nil means it was deleted (then `beforeBytes` is the whole file).
    /// Nil when nothing a user could see changed.
    public static func diff(kind: FileKind, before: TaskFile?, after: TaskFile?, beforeBytes: [UInt8]? = nil, beforeMode: UInt32? = nil) -> FileStep? {
        guard let file = after ?? before else { return nil }
        var step = FileStep(path: kind.relativePath, name: file.displayName, fileID: file.id.lowercased)
        guard let after else {
            step.removed = true
            step.bytesBefore = Data(beforeBytes ?? TaskFileEncoder.encode(file)).base64EncodedString()
            step.modeBefore = beforeMode
            step.removedTaskCount = file.tasks.count
            return step
        }
        guard let before else {
            step.created = true
            step.headerAfter = headerImage(after)
            step.tasks = after.tasks.map { TaskStep(id: $0.id.lowercased, after: image($0)) }
            if !after.deleted.isEmpty { step.tombstonesAdded = after.deleted.map(TombstoneImage.init) }
            return step
        }
        if !sameHeader(before, after) {
            step.headerBefore = headerImage(before)
            step.headerAfter = headerImage(after)
        }
        let oldTombs = Set(before.deleted)
        let newTombs = Set(after.deleted)
        let added = after.deleted.filter { !oldTombs.contains($0) }
        let removed = before.deleted.filter { !newTombs.contains($0) }
        if !added.isEmpty { step.tombstonesAdded = added.map(TombstoneImage.init) }
        if !removed.isEmpty { step.tombstonesRemoved = removed.map(TombstoneImage.init) }

        var afterByID: [UUID: TaskItem] = [:]
        afterByID.reserveCapacity(after.tasks.count)
        for t in after.tasks { afterByID[t.id] = t }
        var beforeIDs = Set<UUID>()
        beforeIDs.reserveCapacity(before.tasks.count)
        var tasks: [TaskStep] = []
        for (i, old) in before.tasks.enumerated() {
            beforeIDs.insert(old.id)
            let new = afterByID[old.id]
            if let new, new.sameContent(as: old) { continue }
            tasks.append(TaskStep(
                id: old.id.lowercased, before: image(old), after: new.map(image),
                beforeIndex: i, beforePrev: i > 0 ? before.tasks[i - 1].id.lowercased : nil))
        }
        for new in after.tasks where !beforeIDs.contains(new.id) {
            tasks.append(TaskStep(id: new.id.lowercased, after: image(new)))
        }
        step.tasks = tasks
        // The order of the tasks present on both sides: kept only when it changed (reorder).
        let commonBefore = before.tasks.lazy.filter { afterByID[$0.id] != nil }.map(\.id)
        let commonAfter = after.tasks.lazy.filter { beforeIDs.contains($0.id) }.map(\.id)
        if !commonBefore.elementsEqual(commonAfter) {
            step.orderBefore = before.tasks.map { $0.id.lowercased }
        }
        if step.tasks.isEmpty && step.headerBefore == nil && step.tombstonesAdded == nil
            && step.tombstonesRemoved == nil && step.orderBefore == nil {
            return nil
        }
        return step
    }

    /// The canonical JSON text of one task.
    public static func image(_ task: TaskItem) -> String {
        String(decoding: JSONWriter.write(TaskFileEncoder.node(for: task)), as: UTF8.self)
    }

    /// The canonical JSON text of a file's own fields (no tasks, no tombstones).
    public static func headerImage(_ file: TaskFile) -> String {
        var header = file
        header.tasks = []
        header.deleted = []
        return String(decoding: TaskFileEncoder.encode(header), as: UTF8.self)
    }

    /// True when the file-level fields are equal (`modifiedAt` too, unless `ignoringTime`).
    static func sameHeader(_ a: TaskFile, _ b: TaskFile, ignoringTime: Bool = false) -> Bool {
        a.id == b.id && a.version == b.version && a.name == b.name && a.color == b.color
            && a.createdAt == b.createdAt && (ignoringTime || a.modifiedAt == b.modifiedAt) && a.extra == b.extra
    }

    /// Decodes a task image.
    static func decodeTask(_ text: String, kind: FileKind) throws(UndoError) -> TaskItem {
        do {
            return try TaskFileDecoder(bytes: Array(text.utf8), path: "undo journal", kind: kind, fallbackDate: Date(timeIntervalSince1970: 0)).decodeTask()
        } catch {
            throw .unreadableImage(path: kind.relativePath, reason: error.summary)
        }
    }

    /// Decodes a header image (or a whole file).
    static func decodeFile(_ bytes: [UInt8], kind: FileKind) throws(UndoError) -> TaskFile {
        do {
            return try TaskFileDecoder(bytes: bytes, path: "undo journal", kind: kind, fallbackDate: Date(timeIntervalSince1970: 0)).decode()
        } catch {
            throw .unreadableImage(path: kind.relativePath, reason: error.summary)
        }
    }
}
