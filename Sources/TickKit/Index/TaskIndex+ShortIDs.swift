import FoundationEssentials

/// Short ids: numbering a fresh index, and giving and freeing ids as tasks change.
extension TaskIndex {
    /// Brings the short-id table and the index's copy of it (`tasks.short`)
    /// in step with the tasks, keeping every number the table already gives:
    /// on a fresh index (the cache was deleted, the schema changed) and when
    /// the copy is not of the table's latest change (another index changed
    /// it, or an interrupted command committed one database and not the
    /// other). Done or gone tasks are held as ``syncShortIDs(touched:db:)``
    /// holds them; pending tasks without a number get the smallest free ones
    /// (all of them in display order when the table is empty).
    func adoptShortIDs(_ db: SQLiteConnection) throws {
        let now = store.clock().timeIntervalSinceReferenceDate
        try db.execute("""
            UPDATE ids.short_ids SET held_until = coalesce((SELECT max(t.completed_ts) FROM tasks t WHERE t.id = ids.short_ids.id), ?) + ?
            WHERE held_until IS NULL AND id NOT IN (SELECT id FROM tasks WHERE state != 'done')
            """, [now, Self.shortIDGrace])
        try db.execute("UPDATE ids.short_ids SET held_until = NULL WHERE held_until >= ? AND id IN (SELECT id FROM tasks WHERE state != 'done')", [now])
        try db.execute("DELETE FROM ids.short_ids WHERE held_until IS NOT NULL AND held_until < ?", [now])
        if try db.int("SELECT count(*) FROM ids.short_ids") == 0 {
            try numberAllPending(db)
        } else {
            let missing = try db.texts("SELECT DISTINCT id FROM tasks WHERE state != 'done' AND id NOT IN (SELECT id FROM ids.short_ids)")
            if !missing.isEmpty { try syncShortIDs(touched: Set(missing), db: db, adopting: true) }
        }
        try db.execute("UPDATE tasks SET short = NULL WHERE short IS NOT NULL AND state = 'done'")
        try db.execute("UPDATE tasks SET short = (SELECT n FROM ids.short_ids s WHERE s.id = tasks.id AND s.held_until IS NULL) WHERE state != 'done'")
        try ShortIDStore.bump(db)
    }

    /// True when `tasks.short` is a copy of the table as it is now.
    func shortIDsInStep(_ db: SQLiteConnection) throws -> Bool {
        try ShortIDStore.mirroredStamp(db) == ShortIDStore.stamp(db)
    }

    /// Numbers every pending task 1...n in display order (an empty table).
    private func numberAllPending(_ db: SQLiteConnection) throws {
        try db.execute("CREATE TEMP TABLE file_rank (path TEXT PRIMARY KEY, rank INTEGER)")
        defer { try? db.execute("DROP TABLE temp.file_rank") }
        for (rank, info) in try listRows(db).enumerated() {
            try db.execute("INSERT INTO file_rank VALUES (?, ?)", [info.kind.relativePath, rank])
        }
        try db.execute("""
            INSERT OR IGNORE INTO ids.short_ids (id, n)
            SELECT t.id, row_number() OVER (ORDER BY r.rank, t.position)
            FROM tasks t JOIN file_rank r ON r.path = t.path
            WHERE t.state != 'done'
            """)
    }

    /// How long a done or deleted task keeps its short id: 24 hours after
    /// it was done (its `completedAt`) or deleted (the command's clock). Until
    /// then `tick reopen 20` still finds it, and no new task is given 20.
    public static let shortIDGrace: TimeInterval = 86_400

    /// Holds the short ids of touched tasks that are no longer pending (for
    /// ``shortIDGrace``), frees numbers whose hold is over, and gives touched
    /// pending tasks without one the smallest free numbers, in display order.
    /// A task that comes back to pending within its hold keeps its number.
    ///
    /// When the index's copy was not in step with the table, the whole copy
    /// is brought in step after (``adoptShortIDs(_:)``); `adopting` is set by
    /// that function itself.
    func syncShortIDs(touched: Set<String>, db: SQLiteConnection, adopting: Bool = false) throws {
        let inStep = try adopting || shortIDsInStep(db)
        defer { if inStep, !adopting { try? ShortIDStore.bump(db) } }
        if !inStep {
            // adoptShortIDs numbers the pending tasks without one, these included.
            return try adoptShortIDs(db)
        }
        let now = store.clock().timeIntervalSinceReferenceDate
        var pending: [String: (rank: Int, position: Int)] = [:]
        let ranks = try fileRanks(db)
        let check = try db.cached("SELECT path, position FROM tasks WHERE id = ? AND state != 'done' LIMIT 1")
        let done = try db.cached("SELECT completed_ts FROM tasks WHERE id = ? LIMIT 1")
        let mirror = try db.cached("UPDATE tasks SET short = CASE WHEN state != 'done' THEN (SELECT n FROM ids.short_ids WHERE id = ?1 AND held_until IS NULL) END WHERE id = ?1")
        defer {
            // Keep the copy in `tasks` in step for every touched task (pending ones only).
            for id in touched { try? mirror.execute([id]) }
        }
        let hold = try db.cached("UPDATE ids.short_ids SET held_until = ? WHERE id = ? AND held_until IS NULL")
        let unhold = try db.cached("UPDATE ids.short_ids SET held_until = NULL WHERE id = ?")
        let held = try db.cached("SELECT held_until FROM ids.short_ids WHERE id = ?")
        for id in touched {
            // nil: no number; .some(nil): a pending task's; .some(t): held until t.
            let numbered = try held.row([id]) { $0.optionalDouble(0) }
            let heldUntil = numbered.flatMap { $0 }
            if let (path, position) = try check.row([id], { ($0.text(0), $0.int(1)) }) {
                if numbered == nil {
                    pending[id] = (ranks[path] ?? Int.max, position)
                } else if let heldUntil {
                    if heldUntil >= now {
                        // Back to pending within its hold: the same number.
                        try unhold.execute([id])
                    } else {
                        // Its hold is over: a new number, like any new task.
                        try db.execute("DELETE FROM ids.short_ids WHERE id = ?", [id])
                        pending[id] = (ranks[path] ?? Int.max, position)
                    }
                }
            } else if numbered != nil {
                // Done: held until a day after its completion; gone: a day from now.
                let completed = try done.row([id]) { $0.optionalDouble(0) }.flatMap { $0 }
                try hold.execute([(completed ?? now) + Self.shortIDGrace, id])
            }
        }
        try db.execute("DELETE FROM ids.short_ids WHERE held_until IS NOT NULL AND held_until < ?", [now])
        guard !pending.isEmpty else { return }
        let used = try db.ints("SELECT n FROM ids.short_ids ORDER BY n")
        var usedIterator = used.makeIterator()
        var nextUsed = usedIterator.next()
        var candidate = 1
        let insert = try db.cached("INSERT INTO ids.short_ids (id, n) VALUES (?, ?)")
        for (id, _) in pending.sorted(by: { ($0.value.rank, $0.value.position, $0.key) < ($1.value.rank, $1.value.position, $1.key) }) {
            while let u = nextUsed, u <= candidate {
                if u == candidate { candidate += 1 }
                nextUsed = usedIterator.next()
            }
            try insert.execute([id, candidate])
            candidate += 1
        }
    }
}

extension TaskIndex: ShortIDLookup {
    /// The short id of a pending task, if it has one.
    public func shortID(of task: UUID) -> Int? {
        try? db.read { try db.int("SELECT n FROM ids.short_ids WHERE id = ? AND held_until IS NULL", [task.lowercased]) }
    }
}
