import FoundationEssentials

extension TaskIndex {
    /// Ids of tasks that are in more than one file (a move on one machine and
    /// an edit on another, merged file by file; or an interrupted `tick mv`):
    /// what ``StoreReconciler`` joins. Reads the `tasks_id` index only.
    public func tasksInSeveralFiles() throws -> [UUID] {
        try db.read {
            try db.texts("SELECT id FROM tasks GROUP BY id HAVING COUNT(*) > 1 ORDER BY id")
        }.compactMap { UUID(uuidString: $0) }
    }

    /// The files a task is in: more than one after an interrupted `tick mv`
    /// or a move merged file by file (one indexed lookup).
    public func files(containing id: UUID) throws -> [FileKind] {
        try db.read {
            try db.texts("SELECT DISTINCT path FROM tasks WHERE id = ? ORDER BY path", [id.lowercased])
        }.compactMap(TaskIndex.kind(forRelativePath:))
    }
}
