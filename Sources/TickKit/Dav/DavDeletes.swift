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
        return DavMapping.fields.contains { field in
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
}
