import FoundationEssentials
import Glibc

/// Deletes that reach the bridge through the server (Docs/DAV.md, "Deletes
/// and removals"): an item gone from the server was deleted by the phone or
/// another machine at a time tick cannot know.
extension DavBridge {
    /// True when `task` (in the store file `kind`) changed here since `base`,
    /// the version both ends last agreed on: a mapped field differs from it,
    /// was changed after the last pass (even back to its old value: done and
    /// reopened), or the task moved to another list. Such a task may have
    /// been changed after the other end deleted it, so the delete does not
    /// take it.
    func changedHere(_ task: TaskItem, kind: FileKind, since base: Item, lastPass: Date?) -> Bool {
        if Self.collection(of: kind) != base.collection { return true }
        if let lastPass, task.listTime > lastPass { return true }
        return DavMapping.fields(fields).contains { field in
            !field.equal(task, base.task) || lastPass.map { field.changeTime(of: task, against: base.task) > $0 } ?? false
        }
    }

    /// The machine-local record of the tasks the bridge deleted here because
    /// they vanished from the server (`<dav>/deleted-elsewhere`, one id a
    /// line). Such a delete has no real time: when the item comes back (a
    /// move whose upload had not arrived yet, or another machine that kept
    /// the task because it changed it after the delete), it is taken again.
    var deletedElsewherePath: String { root + "/deleted-elsewhere" }

    func readDeletedElsewhere() -> Set<UUID> {
        guard let data = FileManager.default.contents(atPath: deletedElsewherePath) else { return [] }
        return Set(String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { UUID(fastString: String($0)) })
    }

    func writeDeletedElsewhere(_ ids: Set<UUID>) throws {
        if ids.isEmpty {
            if FileManager.default.fileExists(atPath: deletedElsewherePath) { try AtomicFile.remove(path: deletedElsewherePath) }
            return
        }
        let text = ids.map(\.lowercased).sorted().joined(separator: "\n") + "\n"
        try makeDirectory(root)
        try writeIfChanged(Array(text.utf8), to: deletedElsewherePath)
    }

    /// The last version of each task in ``readDeletedElsewhere()`` as this
    /// store held it (`<dav>/deleted-versions.json`, a store file): a copy
    /// that comes back is merged with it field by field, so a change made
    /// here before the delete arrived is not lost to an older copy.
    var deletedVersionsPath: String { root + "/deleted-versions.json" }

    func readDeletedVersions() -> [UUID: TaskItem] {
        guard let data = FileManager.default.contents(atPath: deletedVersionsPath),
              let file = try? TaskFileDecoder(bytes: [UInt8](data), path: deletedVersionsPath, kind: .inbox, fallbackDate: now).decode()
        else { return [:] }
        return Dictionary(file.tasks.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
    }

    func writeDeletedVersions(_ tasks: [UUID: TaskItem]) throws {
        if tasks.isEmpty {
            if FileManager.default.fileExists(atPath: deletedVersionsPath) { try AtomicFile.remove(path: deletedVersionsPath) }
            return
        }
        let sorted = tasks.values.sorted { $0.id.uuidString < $1.id.uuidString }
        let file = TaskFile(kind: .inbox, id: UUID.tickNamespace, createdAt: Date(timeIntervalSince1970: 0),
                            modifiedAt: Date(timeIntervalSince1970: 0), tasks: sorted)
        try makeDirectory(root)
        try writeIfChanged(TaskFileEncoder.encode(file), to: deletedVersionsPath)
    }

    /// Tasks deleted with a list (`tick lists rm`), with the removal's time
    /// (`<dav>/removed-tasks`): the bridge counts them as tombstones, so an
    /// item of theirs in another calendar (moved there on the other end
    /// before the removal) is deleted, and one changed after it comes back.
    static func removedTasksPath(root: String) -> String { root + "/removed-tasks" }

    static func readRemovedTasks(root: String) -> [UUID: Date] {
        var out: [UUID: Date] = [:]
        for (id, at) in readRecord(removedTasksPath(root: root)) {
            if let id = UUID(fastString: id), let at = Timestamp.parse(at) { out[id] = at }
        }
        return out
    }

    static func writeRemovedTasks(_ tasks: [UUID: Date], root: String) throws {
        try writeRecord(Dictionary(uniqueKeysWithValues: tasks.map { ($0.key.lowercased, Timestamp.format($0.value)) }), to: removedTasksPath(root: root))
    }

    /// One of the bridge's machine-local records: a JSON object of strings
    /// (empty when the file is missing or unreadable).
    static func readRecord(_ path: String) -> [String: String] {
        guard let data = FileManager.default.contents(atPath: path),
              let record = try? JSONDecoder().decode([String: String].self, from: data) else { return [:] }
        return record
    }

    /// Writes a record (``readRecord(_:)``), sorted; an empty one removes the file.
    static func writeRecord(_ record: [String: String], to path: String) throws {
        if record.isEmpty {
            if FileManager.default.fileExists(atPath: path) { try AtomicFile.remove(path: path) }
            return
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(record) else { return }
        try FileManager.default.createDirectory(atPath: PathString.deletingLastComponent(path), withIntermediateDirectories: true)
        try AtomicFile.write([UInt8](data), to: path, mode: nil, durable: false)
    }

    /// Records tasks deleted with a list, each at its time (``DavState/noteRemoved(collection:root:at:tasks:deleted:)``),
    /// in one read and one write of the record.
    static func noteRemovedTasks(_ tasks: [UUID: Date], root: String) throws {
        guard !tasks.isEmpty else { return }
        var all = readRemovedTasks(root: root)
        for (id, at) in tasks { all[id] = max(all[id] ?? at, at) }
        try writeRemovedTasks(all, root: root)
    }

    /// How long the bridge remembers a removal made here (a list's tasks, the
    /// list's calendar): items another end sent before it may arrive later.
    static let removalMemory: TimeInterval = 30 * 86_400

    /// Lists removed here (`tick lists rm`), by collection, with the time
    /// (`<dav>/removed-lists`): a calendar detached after its removal that
    /// holds items again (another machine kept a task it changed) is a removed
    /// list again, not a new one: what changed after the removal brings the
    /// list back, the rest is deleted.
    static func removedListsPath(root: String) -> String { root + "/removed-lists" }

    static func readRemovedLists(root: String) -> [String: Date] {
        readRecord(removedListsPath(root: root)).compactMapValues(Timestamp.parse)
    }

    static func writeRemovedLists(_ lists: [String: Date], root: String) throws {
        try writeRecord(lists.mapValues(Timestamp.format), to: removedListsPath(root: root))
    }
}
