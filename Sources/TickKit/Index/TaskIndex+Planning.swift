import FoundationEssentials
import CSQLite

extension TaskIndex {
    /// Tasks placed in a slot on `day`, in any state, in display order.
    public func placedTasks(on day: LocalDate) throws -> [ListedTask] {
        try db.read { try listed(db, where: "t.slot_day = ?", arguments: [day.daysSinceEpoch]) }
    }

    /// Pending tasks placed in a slot on `day` or later, in display order.
    public func pendingPlacedTasks(onOrAfter day: LocalDate) throws -> [ListedTask] {
        try db.read { try listed(db, where: "t.slot_day >= ? AND t.state != 'done'", arguments: [day.daysSinceEpoch]) }
    }

    /// Pending tasks that may be relevant to `day` for `tick plan --auto`: must-do,
    /// scheduled on or before the day, or due before `dueBefore` (a superset:
    /// ``AutoPlacer/isCandidate(_:)`` decides exactly). Ranking projections
    /// (see ``pendingForRanking()``), in display order.
    /// Blocked tasks are never candidates; with a `query`, waiting ones neither.
    public func planCandidates(day: LocalDate, dueWithinDays: Int, dueBefore: Date, query: TaskQuery? = nil) throws -> [TaskItem] {
        try rankingRows(where: "t.state != 'done' AND (t.priority = 'must' OR t.scheduled_day <= ? OR t.due_day <= ? OR t.due_ts < ?)",
                        arguments: [day.daysSinceEpoch, day.daysSinceEpoch + dueWithinDays, dueBefore.timeIntervalSinceReferenceDate],
                        query: query)
    }

    /// Every pending task as a ranking projection, in display order: only id,
    /// state, dates, priority, energy, estimate and slot are filled in (the
    /// title is empty). Ranking and placing read nothing else, and skipping
    /// titles, notes, tags and unknown keys makes a pass over 50,000 open tasks
    /// several times cheaper. Fetch the few that are shown with ``tasks(ids:)``.
    /// Blocked tasks are left out (nothing proposes them); with a `query`,
    /// waiting ones too.
    public func pendingForRanking(query: TaskQuery? = nil) throws -> [TaskItem] {
        try rankingRows(where: "t.state != 'done'", arguments: [], query: query)
    }

    /// Full tasks by id, in display order (ids not in the index are left out).
    public func tasks(ids: [UUID]) throws -> [ListedTask] {
        guard !ids.isEmpty else { return [] }
        return try db.read {
            // One JSON array parameter: no limit on the number of ids.
            let list = "[" + ids.map { "\"\($0.lowercased)\"" }.joined(separator: ",") + "]"
            return try listed(db, where: "t.id IN (SELECT value FROM json_each(?))", arguments: [list])
        }
    }

    private func rankingRows(where clause: String, arguments: SQLArguments, query: TaskQuery?) throws -> [TaskItem] {
        var clause = clause + " AND NOT \(RowReader.blockedColumn)"
        var arguments = arguments
        if let query {
            clause += " AND NOT coalesce(t.wait_day > ? OR t.wait_ts > ?, 0)"
            arguments += [query.today.daysSinceEpoch, query.now.timeIntervalSinceReferenceDate]
        }
        return try db.read {
            let ranks = try fileRanks(db)
            // Tasks are large values: collect them once, sort small keys, and
            // reorder only when the rows did not arrive in display order.
            var tasks: [TaskItem] = []
            var keys: [(rank: Int, position: Int)] = []
            let statement = try db.prepare("SELECT \(RowReader.rankingColumns) FROM tasks t WHERE \(clause)")
            try statement.bind(arguments)
            let raw = statement.handle
            let reader = RowReader(statement: raw)
            var lastPath = ""
            var lastRank = 0
            while true {
                let rc = sqlite3_step(raw)
                if rc == SQLITE_DONE { break }
                guard rc == SQLITE_ROW else { throw IndexError.database(String(cString: sqlite3_errmsg(sqlite3_db_handle(raw)))) }
                guard let task = reader.rankingTask(), let path = reader.text(RowReader.rankingPath) else { continue }
                if path != lastPath {
                    lastPath = path
                    lastRank = ranks[path] ?? ranks.count
                }
                tasks.append(task)
                keys.append((lastRank, reader.int(RowReader.rankingPath + 1) ?? 0))
            }
            if zip(keys, keys.dropFirst()).allSatisfy({ ($0.rank, $0.position) < ($1.rank, $1.position) }) { return tasks }
            let order = keys.indices.sorted { (keys[$0].rank, keys[$0].position) < (keys[$1].rank, keys[$1].position) }
            return order.map { tasks[$0] }
        }
    }
}
