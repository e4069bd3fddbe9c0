import FoundationEssentials

/// Dependencies (`depends`): the graph, missing tasks, dependents.
extension TaskIndex {
    /// Every dependency in the store (from the `depends` table, nothing decoded).
    public func dependencyGraph() throws -> DependencyGraph {
        try db.read {
            var edges: [UUID: [UUID]] = [:]
            try db.forEachRow("SELECT t.id, d.dep_id FROM depends d JOIN tasks t ON t.rowid = d.task_rowid") { row in
                guard let id = UUID(fastBytes: row.bytes(0)), let dep = UUID(fastBytes: row.bytes(1)) else { return }
                edges[id, default: []].append(dep)
            }
            return DependencyGraph(edges: edges)
        }
    }

    /// The ids of `ids` that no task in the store has (deleted, or never here).
    public func missingTasks(_ ids: [UUID]) throws -> [UUID] {
        guard !ids.isEmpty else { return [] }
        return try db.read {
            try ids.filter { id in
                try db.int("SELECT 1 FROM tasks WHERE id = ? LIMIT 1", [id.lowercased]) == nil
            }
        }
    }

    /// The tasks that depend on any of `ids`, with where they are.
    public func dependents(of ids: [UUID]) throws -> [ListedTask] {
        guard !ids.isEmpty else { return [] }
        let marks = Array(repeating: "?", count: ids.count).joined(separator: ", ")
        return try db.read {
            try listed(db, where: "t.rowid IN (SELECT task_rowid FROM depends WHERE dep_id IN (\(marks)))",
                       arguments: SQLArguments(values: ids.map(\.lowercased)))
        }
    }
}
