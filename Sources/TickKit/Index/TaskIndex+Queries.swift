import FoundationEssentials

/// Reading the index: lists, views, search, counts and id lookups.
extension TaskIndex {
    // MARK: Lists

    /// Display rank of each file: the inbox first, then lists by name.
    func fileRanks(_ db: SQLiteConnection) throws -> [String: Int] {
        let infos = try listRows(db)
        var ranks: [String: Int] = [:]
        for (i, info) in infos.enumerated() { ranks[info.kind.relativePath] = i }
        return ranks
    }


    func listRows(_ db: SQLiteConnection) throws -> [ListInfo] {
        if let cachedListRows { return cachedListRows }
        let sorted = try readListRows(db)
        cachedListRows = sorted
        return sorted
    }

    func readListRows(_ db: SQLiteConnection) throws -> [ListInfo] {
        var infos: [ListInfo] = []
        try db.forEachRow("SELECT path, list_id, name, color FROM files") { row in
            guard let kind = Self.kind(forRelativePath: row.text(0)) else { return }
            let id = row.optionalText(1).flatMap(UUID.init(uuidString:)) ?? UUID(name: "tick-list:\(kind.slug ?? "inbox")")
            let name = row.optionalText(2) ?? (kind == .inbox ? "Inbox" : (kind.slug ?? "list"))
            infos.append(ListInfo(kind: kind, id: id, name: name, color: row.optionalText(3)))
        }
        return ListInfo.displayOrder(infos)
    }

    /// Every list and the inbox (when it exists), in display order. A file
    /// that never parsed is not among them (see ``problems``).
    public func lists() throws -> [ListInfo] {
        var infos = try db.read { try listRows(db) }
        // Like the files, the index treats a missing inbox.json as an empty inbox.
        if infos.first?.kind != .inbox {
            infos.insert(ListInfo(kind: .inbox, id: UUID(name: "tick-list:inbox"), name: "Inbox", color: nil), at: 0)
        }
        return infos
    }

    /// Files that fail to parse right now, with their errors.
    public func currentProblems() throws -> [FileKind: FormatError] {
        try db.read {
            var out: [FileKind: FormatError] = [:]
            try db.forEachRow("SELECT path, error_message, error_line, error_column, error_text FROM files WHERE error_message IS NOT NULL") { row in
                guard let kind = Self.kind(forRelativePath: row.text(0)) else { return }
                var location: SourceLocation?
                if let line = row.optionalInt(2), let column = row.optionalInt(3) {
                    location = SourceLocation(line: line, column: column, lineText: row.optionalText(4) ?? "")
                }
                out[kind] = FormatError(path: store.displayPath(kind), location: location, message: row.text(1))
            }
            return out
        }
    }

    // MARK: Tasks

    /// Tasks matching a WHERE clause (over `t` = tasks, `s` = ids.short_ids), in
    /// display order: the inbox, then lists by name, each in manual order.
    func listed(_ db: SQLiteConnection, where clause: String, arguments: SQLArguments = []) throws -> [ListedTask] {
        let infos = try listRows(db)
        var slot: [String: Int] = [:]
        for (i, info) in infos.enumerated() { slot[info.kind.relativePath] = i }
        // Bucket rows by file in display order, then sort each file's rows by position.
        var buckets = [[(position: Int, item: ListedTask)]](repeating: [], count: infos.count + 1)
        var lastPath = ""
        var lastKind: FileKind?
        var kinds = FileKindCache()
        let statement = try db.prepare("SELECT \(RowReader.columns) FROM tasks t WHERE \(clause)")
        try statement.bind(arguments)
        try RowReader.forEach(statement) { task, path, shortID, position, blocked in
            if path != lastPath {
                lastPath = path
                lastKind = kinds.kind(forRelativePath: path)
            }
            guard let kind = lastKind else { return }
            let i = slot[path] ?? infos.count
            let name = i < infos.count ? infos[i].name : (kind.slug ?? "Inbox")
            buckets[i].append((position, ListedTask(task: task, kind: kind, listName: name, shortID: shortID, blocked: blocked)))
        }
        var out: [ListedTask] = []
        out.reserveCapacity(buckets.reduce(0) { $0 + $1.count })
        for bucket in buckets {
            // Rows usually arrive in position order already (rowid order); sort only when not.
            if zip(bucket, bucket.dropFirst()).allSatisfy({ $0.position < $1.position }) {
                out.append(contentsOf: bucket.lazy.map(\.item))
            } else {
                out.append(contentsOf: bucket.sorted { $0.position < $1.position }.map(\.item))
            }
        }
        // A task in two files until the next write joins it: listed once.
        return ListedTask.oneCopyEach(out)
    }

    /// Runs a view: SQL narrows the tasks down, then ``TaskQuery/admits(_:to:filter:)``
    /// applies the one exact definition of the view; ordered as
    /// ``TaskQuery/select(_:filter:from:)`` orders (the streamed path, kept whole).
    public func run(_ view: TaskView, filter: TaskFilter, query: TaskQuery) throws -> [ListedTask] {
        try run(view, filter: filter, matching: .all, query: query)
    }

    /// The SQL condition (over `t` = tasks) of a view's candidates: a superset
    /// of the view that ``TaskQuery/admits(_:to:filter:)`` then decides.
    func candidateClause(_ view: TaskView, filter: TaskFilter, query: TaskQuery, where extra: String,
                         arguments extraArgs: SQLArguments) -> (String, SQLArguments) {
        let states = filter.states.map { "'\($0.rawValue)'" }.sorted().joined(separator: ", ")
        var clause = "t.state IN (\(states))"
        var args: SQLArguments = []
        let today = query.today.daysSinceEpoch
        let nowTS = query.now.timeIntervalSinceReferenceDate
        // One day of slack on instants covers any time zone; select() is exact.
        // Without done tasks, the subqueries use the pending-only indexes.
        let p = filter.states.contains(.done) ? "" : " AND state != 'done'"
        switch view {
        case .list(let kind?):
            clause += " AND t.path = ?"
            args += [kind.relativePath]
        case .list(nil):
            break
        // Date views read the partial date indexes (a union of ranges) rather
        // than scanning every row.
        case .today:
            clause += " AND t.rowid IN (SELECT rowid FROM tasks WHERE due_day <= ?\(p) UNION ALL SELECT rowid FROM tasks WHERE due_ts < ?\(p)"
                + " UNION ALL SELECT rowid FROM tasks WHERE scheduled_day <= ?\(p)"
                + " UNION ALL SELECT rowid FROM tasks WHERE remind_ts >= ? AND remind_ts < ?\(p)"
                + " UNION ALL SELECT rowid FROM tasks WHERE state = 'active'"
                + (p.isEmpty ? " UNION ALL SELECT rowid FROM tasks WHERE completed_ts >= \(nowTS - 2 * 86_400))" : ")")
            args += [today, nowTS + 2 * 86_400, today, nowTS - 2 * 86_400, nowTS + 2 * 86_400]
        case .upcoming(let days):
            clause += " AND t.rowid IN (SELECT rowid FROM tasks WHERE due_day > ? AND due_day <= ?\(p)"
                + " UNION ALL SELECT rowid FROM tasks WHERE due_ts >= ? AND due_ts < ?\(p)"
                + " UNION ALL SELECT rowid FROM tasks WHERE scheduled_day > ? AND scheduled_day <= ?\(p))"
            args += [today, today + days, nowTS - 86_400, nowTS + Double(days + 2) * 86_400, today, today + days]
        case .overdue:
            clause += " AND t.rowid IN (SELECT rowid FROM tasks WHERE due_day < ?\(p) UNION ALL SELECT rowid FROM tasks WHERE due_ts < ?\(p))"
            args += [today, nowTS]
        }
        if extra != "1" {
            clause += " AND (\(extra))"
            args += extraArgs
        }
        return (clause, args)
    }

    /// Full-text search, ranked. See ``SearchQuery`` for the syntax. With a
    /// `query`, waiting tasks are left out unless the filter shows them.
    public func search(_ search: SearchQuery, filter: TaskFilter, list: FileKind?, limit: Int? = nil, query: TaskQuery? = nil) throws -> [ListedTask] {
        if let limit {
            return try db.read {
                try SearchScoreFunction.register(search, on: db)
                let infos = try listRows(db)
                let paths = infos.map(\.kind.relativePath)
                // Bounded from the index where every file has its place in display order.
                if Set(try db.texts("SELECT path FROM files")).isSubset(of: paths) {
                    let (clause, args) = searchClause(search, filter: filter, list: list, query: query, text: false)
                    if let hits = try BoundedSearch(db: db, search: search, clause: clause, arguments: args, limit: limit, paths: paths).run() {
                        return try listedInOrder(db, hits.map { ($0.rowid, $0.id) })
                    }
                }
                let (clause, args) = searchClause(search, filter: filter, list: list, query: query)
                return try self.rankedSearch(db, search, where: clause, arguments: args, limit: limit)
            }
        }
        // Exact matching and ranking (title matches first, then tags, then
        // notes; ties keep display order): the streamed search, kept whole.
        return try streamSearch(search, filter: filter, list: list, query: query) { $0 }.map(\.payload)
    }

    /// The SQL condition (over `t` = tasks) of a search's candidates: states,
    /// waiting, list, tags and the trigram match; scoring decides the rest.
    /// Without `text`, the condition leaves the trigram match out (``BoundedSearch`` reads the matches itself).
    func searchClause(_ search: SearchQuery, filter: TaskFilter, list: FileKind?, query: TaskQuery?, text: Bool = true) -> (String, SQLArguments) {
        let states = filter.states.map { "'\($0.rawValue)'" }.sorted().joined(separator: ", ")
        var clause = "t.state IN (\(states))"
        var args: SQLArguments = []
        if let query, !filter.showWaiting {
            clause += " AND NOT coalesce(\(IndexSchema.waitingCondition), 0)"
            args += [query.today.daysSinceEpoch, query.now.timeIntervalSinceReferenceDate]
        }
        if let list {
            clause += " AND t.path = ?"
            args += [list.relativePath]
        }
        for tag in filter.tags {
            clause += " AND t.rowid IN (SELECT task_rowid FROM tags WHERE tag = ?)"
            args += [tag]
        }
        if text, let match = search.ftsExpression {
            clause += " AND t.rowid IN (SELECT rowid FROM fts WHERE fts MATCH ?)"
            args += [match]
        }
        return (clause, args)
    }

    /// The `limit` best matches of a search, every candidate scored inside
    /// SQLite: the score (``SearchQuery/score(title:notes:tags:)``, registered
    /// as `tick_search` by ``SearchScoreFunction``, on SQLite's bytes) is
    /// computed from the indexed columns, and only the rows printed are
    /// decoded. Ties keep display order; a task in two files counts once.
    /// ``BoundedSearch`` answers the same without scoring every candidate;
    /// this is its fallback (a term of one or two letters) and its reference.
    func rankedSearch(_ db: SQLiteConnection, _ search: SearchQuery, where clause: String, arguments: SQLArguments, limit: Int) throws -> [ListedTask] {
        try SearchScoreFunction.register(search, on: db)
        let slot = try fileRanks(db)
        var hits: [(score: Int, rank: Int, position: Int, rowid: Int64, id: String)] = []
        try db.forEachRow("""
            SELECT rowid, id, path, position, s FROM (
                SELECT t.rowid AS rowid, t.id AS id, t.path AS path, t.position AS position,
                       tick_search(t.title, t.notes, t.tags) AS s
                FROM tasks t WHERE \(clause)) WHERE s > 0
            """, arguments) { row in
            hits.append((row.int(4), slot[row.text(2)] ?? Int.max, row.int(3), row.int64(0), row.text(1)))
        }
        hits.sort { ($1.score, $0.rank, $0.position) < ($0.score, $1.rank, $1.position) }
        var seen = Set<String>()
        var chosen: [(rowid: Int64, id: String)] = []
        for hit in hits where chosen.count < limit && seen.insert(hit.id).inserted { chosen.append((hit.rowid, hit.id)) }
        return try listedInOrder(db, chosen)
    }

    /// The tasks of `chosen` rows (rowid, id), decoded, in that order.
    private func listedInOrder(_ db: SQLiteConnection, _ chosen: [(rowid: Int64, id: String)]) throws -> [ListedTask] {
        guard !chosen.isEmpty else { return [] }
        var place: [String: Int] = [:]
        for (i, hit) in chosen.enumerated() { place[hit.id] = i }
        let placeholders = Array(repeating: "?", count: chosen.count).joined(separator: ", ")
        let items = try listed(db, where: "t.rowid IN (\(placeholders))", arguments: SQLArguments(values: chosen.map(\.rowid)))
        return items.sorted { (place[$0.task.id.lowercased] ?? Int.max) < (place[$1.task.id.lowercased] ?? Int.max) }
    }

    /// Counts per list: open, active, overdue (given a query's now) and done.
    public func counts(query: TaskQuery) throws -> [(list: ListInfo, open: Int, active: Int, overdue: Int, done: Int)] {
        try db.read {
            let infos = try listRows(db)
            var byPath: [String: (Int, Int, Int, Int)] = [:]
            try db.forEachRow("""
                SELECT path,
                       sum(state = 'open'), sum(state = 'active'),
                       sum(state != 'done' AND (due_day < ? OR due_ts < ?)),
                       sum(state = 'done')
                FROM tasks GROUP BY path
                """, [query.today.daysSinceEpoch, query.now.timeIntervalSinceReferenceDate]) { row in
                byPath[row.text(0)] = (row.int(1), row.int(2), row.int(3), row.int(4))
            }
            return infos.map { info in
                let c = byPath[info.kind.relativePath] ?? (0, 0, 0, 0)
                return (info, c.0, c.1, c.2, c.3)
            }
        }
    }

    /// Number of tasks and of list files in the index.
    public func totals() throws -> (tasks: Int, lists: Int) {
        try db.read {
            (try db.int("SELECT count(*) FROM tasks") ?? 0,
             try db.int("SELECT count(*) FROM files WHERE slug IS NOT NULL") ?? 0)
        }
    }
}

extension TaskIndex: TaskCatalog {
    public func task(shortID: Int) throws -> ListedTask? {
        try db.read {
            // A pending task's number, or a done task's while it holds it (TaskIndex.shortIDGrace).
            let now = store.clock().timeIntervalSinceReferenceDate
            return try listed(db, where: "t.id = (SELECT id FROM ids.short_ids WHERE n = ? AND (held_until IS NULL OR held_until >= ?))",
                              arguments: [shortID, now]).first
        }
    }

    public func tasks(uuidHexPrefix hex: String) throws -> [ListedTask] {
        // Put the dashes back and range-scan the id index.
        let dashed = FilterSQL.dashed(hex)
        return try db.read {
            try listed(db, where: "t.id >= ? AND t.id < ?", arguments: [dashed, dashed + "~"])
        }
    }

    public var problems: [FormatError] {
        ((try? currentProblems()) ?? [:]).sorted { $0.key < $1.key }.map(\.value)
    }
}

extension TaskIndex {
    /// What a status line needs: how many pending tasks are due today (and
    /// not overdue yet), how many are overdue, and the first `limit` tasks of
    /// today's view, without decoding the whole view.
    ///
    /// The counts are SQL counts over the pending-date indexes. For the first
    /// tasks, each date index gives its earliest entries, every task tied
    /// with the `limit`-th included, so their union holds the view's first
    /// `limit` tasks; ``TaskQuery/select(_:filter:from:)`` then orders them
    /// exactly as `tick today` would.
    public func todaySummary(query: TaskQuery, limit: Int) throws -> (dueToday: Int, overdue: Int, first: [ListedTask]) {
        let today = query.today.daysSinceEpoch
        let now = query.now.timeIntervalSinceReferenceDate
        let endOfToday = query.today.adding(days: 1).startOfDay(in: query.timeZone).timeIntervalSinceReferenceDate
        let n = max(limit, 1)
        // Waiting tasks are in no view: neither counted nor among the first.
        let notWaiting = "NOT coalesce(wait_day > \(today), 0) AND NOT coalesce(wait_ts > \(String(now)), 0)"
        return try db.read {
            let pending = "state != 'done' AND \(notWaiting)"
            func count(_ condition: String, _ args: SQLArguments) throws -> Int {
                try db.int("SELECT count(*) FROM tasks WHERE \(pending) AND \(condition)", args) ?? 0
            }
            let overdue = try count("due_day < ?", [today]) + count("due_ts < ?", [now])
            let dueToday = try count("due_day = ?", [today]) + count("due_ts >= ? AND due_ts < ?", [now, endOfToday])
            // Earliest entries of each date, ties at the cut included.
            // `bound` as an SQL literal (as GRDB's DatabaseValue printed it).
            func earliest(_ column: String, upTo bound: String, _ pending: String) -> String {
                "SELECT rowid FROM tasks WHERE \(pending) AND \(column) <= min(\(bound), "
                    + "coalesce((SELECT \(column) FROM tasks WHERE \(pending) AND \(column) IS NOT NULL ORDER BY \(column) LIMIT 1 OFFSET \(n - 1)), \(bound)))"
            }
            // Today's reminders sort by their time: the earliest of them, ties at the cut included.
            let startOfToday = query.today.startOfDay(in: query.timeZone).timeIntervalSinceReferenceDate
            let from = String(startOfToday)
            let to = String(endOfToday)
            func reminders(_ pending: String) -> String {
                "SELECT rowid FROM tasks WHERE \(pending) AND remind_ts >= \(from) AND remind_ts <= min(\(to), "
                    + "coalesce((SELECT remind_ts FROM tasks WHERE \(pending) AND remind_ts >= \(from) ORDER BY remind_ts LIMIT 1 OFFSET \(n - 1)), \(to)))"
                    + " AND remind_ts < \(to)"
            }
            // Blocked tasks sort after the others: the earliest unblocked
            // entries too, so the first `limit` of the view are candidates.
            let unblocked = pending + " AND NOT " + RowReader.blocked("tasks")
            var parts: [String] = []
            for condition in [pending, unblocked] {
                parts += [
                    earliest("due_day", upTo: String(today), condition),
                    earliest("due_ts", upTo: String(now + 2 * 86_400), condition),
                    earliest("scheduled_day", upTo: String(today), condition),
                    reminders(condition),
                ]
            }
            // Active tasks are all in the view (few).
            parts.append("SELECT rowid FROM tasks WHERE state = 'active'")
            let clause = "t.rowid IN (" + parts.joined(separator: " UNION ") + ")"
            let candidates = try listed(db, where: clause)
            let first = query.select(.today, filter: TaskFilter(), from: candidates)
            return (dueToday, overdue, Array(first.prefix(limit)))
        }
    }
}
