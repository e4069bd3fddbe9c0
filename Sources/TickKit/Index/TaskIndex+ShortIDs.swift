import Foundation
import GRDB

/// Short ids: numbering a fresh index, and giving and freeing ids as tasks change.
extension TaskIndex {
    /// Numbers every pending task 1...n in display order (a fresh index).
    func assignAllShortIDs(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM short_ids")
        try db.execute(sql: "CREATE TEMP TABLE file_rank (path TEXT PRIMARY KEY, rank INTEGER)")
        defer { try? db.execute(sql: "DROP TABLE temp.file_rank") }
        for (rank, info) in try listRows(db).enumerated() {
            try db.execute(sql: "INSERT INTO file_rank VALUES (?, ?)", arguments: [info.kind.relativePath, rank])
        }
        try db.execute(sql: """
            INSERT OR IGNORE INTO short_ids (id, n)
            SELECT t.id, row_number() OVER (ORDER BY r.rank, t.position)
            FROM tasks t JOIN file_rank r ON r.path = t.path
            WHERE t.state != 'done'
            """)
        try db.execute(sql: "UPDATE tasks SET short = (SELECT n FROM short_ids s WHERE s.id = tasks.id) WHERE state != 'done'")
    }

    /// Frees the short ids of touched tasks that are no longer pending and
    /// gives touched pending tasks without one the smallest free numbers, in
    /// display order.
    func syncShortIDs(touched: Set<String>, db: Database) throws {
        var pending: [String: (rank: Int, position: Int)] = [:]
        let ranks = try fileRanks(db)
        let check = try db.cachedStatement(sql: "SELECT path, position FROM tasks WHERE id = ? AND state != 'done' LIMIT 1")
        let mirror = try db.cachedStatement(sql: "UPDATE tasks SET short = (SELECT n FROM short_ids WHERE id = ?1) WHERE id = ?1")
        defer {
            // Keep the copy in `tasks` in step for every touched task.
            for id in touched { try? mirror.execute(arguments: [id]) }
        }
        let delete = try db.cachedStatement(sql: "DELETE FROM short_ids WHERE id = ?")
        let has = try db.cachedStatement(sql: "SELECT 1 FROM short_ids WHERE id = ?")
        for id in touched {
            if let row = try Row.fetchOne(check, arguments: [id]) {
                if try Int.fetchOne(has, arguments: [id]) == nil {
                    let path: String = row[0]
                    pending[id] = (ranks[path] ?? Int.max, row[1])
                }
            } else {
                try delete.execute(arguments: [id])
            }
        }
        guard !pending.isEmpty else { return }
        let used = try Int.fetchAll(db, sql: "SELECT n FROM short_ids ORDER BY n")
        var usedIterator = used.makeIterator()
        var nextUsed = usedIterator.next()
        var candidate = 1
        let insert = try db.cachedStatement(sql: "INSERT INTO short_ids (id, n) VALUES (?, ?)")
        for (id, _) in pending.sorted(by: { ($0.value.rank, $0.value.position, $0.key) < ($1.value.rank, $1.value.position, $1.key) }) {
            while let u = nextUsed, u <= candidate {
                if u == candidate { candidate += 1 }
                nextUsed = usedIterator.next()
            }
            try insert.execute(arguments: [id, candidate])
            candidate += 1
        }
    }
}

extension TaskIndex: ShortIDLookup {
    /// The short id of a pending task, if it has one.
    public func shortID(of task: UUID) -> Int? {
        try? db.read { db in try Int.fetchOne(db, sql: "SELECT n FROM short_ids WHERE id = ?", arguments: [task.lowercased]) }
    }
}
