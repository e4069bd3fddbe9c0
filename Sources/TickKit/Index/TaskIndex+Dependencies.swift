import Foundation
import GRDB

/// Dependencies (`depends`): the graph, missing tasks, dependents.
extension TaskIndex {
    /// Every dependency in the store (from the `depends` table, nothing decoded).
    public func dependencyGraph() throws -> DependencyGraph {
        try db.read { db in
            var edges: [UUID: [UUID]] = [:]
            let rows = try Row.fetchCursor(db, sql: "SELECT t.id, d.dep_id FROM depends d JOIN tasks t ON t.rowid = d.task_rowid")
            while let row = try rows.next() {
                guard let id = UUID(fastString: row[0]), let dep = UUID(fastString: row[1]) else { continue }
                edges[id, default: []].append(dep)
            }
            return DependencyGraph(edges: edges)
        }
    }

    /// The ids of `ids` that no task in the store has (deleted, or never here).
    public func missingTasks(_ ids: [UUID]) throws -> [UUID] {
        guard !ids.isEmpty else { return [] }
        return try db.read { db in
            try ids.filter { id in
                try Int.fetchOne(db, sql: "SELECT 1 FROM tasks WHERE id = ? LIMIT 1", arguments: [id.lowercased]) == nil
            }
        }
    }

    /// The tasks that depend on any of `ids`, with where they are.
    public func dependents(of ids: [UUID]) throws -> [ListedTask] {
        guard !ids.isEmpty else { return [] }
        let marks = Array(repeating: "?", count: ids.count).joined(separator: ", ")
        return try db.read { db in
            try listed(db, where: "t.rowid IN (SELECT task_rowid FROM depends WHERE dep_id IN (\(marks)))",
                       arguments: StatementArguments(ids.map(\.lowercased)))
        }
    }
}
