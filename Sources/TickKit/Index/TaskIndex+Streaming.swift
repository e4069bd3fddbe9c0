import FoundationEssentials
import CSQLite

/// Views and searches streamed from SQLite: each admitted task is rendered
/// as it is stepped and dropped, so a listing of 50,000 tasks never holds
/// 50,000 decoded tasks (Docs/PERFORMANCE.md, "Streaming").
extension TaskIndex {
    /// Runs a view narrowed by a filter, exactly as
    /// ``run(_:filter:matching:query:)`` does, handing each task it admits to
    /// `render` and keeping only what `render` returns, in the view's order;
    /// then, as `--sort` and `--limit` do to that answer, sorts it by `sort`
    /// (stable: ties keep the view's order; ``TaskSort/sorted(_:query:listRank:)``
    /// with lists ranked in display order) and keeps the first `limit` rows.
    public func stream<Payload>(_ view: TaskView, filter: TaskFilter, matching parsed: ParsedFilter, query: TaskQuery,
                                sort: TaskSort? = nil, limit: Int? = nil,
                                render: (ListedTask) throws -> Payload) throws -> StreamedView<Payload> {
        var values: [[TaskSort.Value?]] = []
        var rank: [FileKind: Int] = [:]
        if sort != nil {
            for (i, info) in try db.read({ try listRows(db) }).enumerated() where rank[info.kind] == nil { rank[info.kind] = i }
        }
        var streamed = try stream(view, filter: filter, matching: parsed, query: query, sortValues: sort.map { sort in
            { item in values.append(sort.values(item, query: query, listRank: { rank[$0] })) }
        }, render: render)
        if let sort { streamed = streamed.reordered(sort.order(streamed.payloadIndexes.map { values[$0] })) }
        return limit.map { streamed.limited(to: $0) } ?? streamed
    }

    /// ``stream(_:filter:matching:query:sort:limit:render:)`` in the view's
    /// own order; `sortValues` sees each admitted task just before `render`.
    private func stream<Payload>(_ view: TaskView, filter: TaskFilter, matching parsed: ParsedFilter, query: TaskQuery,
                                 sortValues: ((ListedTask) -> Void)?,
                                 render: (ListedTask) throws -> Payload) throws -> StreamedView<Payload> {
        let bindings = try bind(parsed, query: query)
        let matcher = FilterMatcher(expression: parsed.expression, bindings: bindings, query: query)
        var sql = FilterSQL(bindings: bindings, query: query)
        sql.pendingOnly = !filter.states.contains(.done)
        let compiled = sql.compile(parsed.expression)
        let (clause, arguments) = candidateClause(view, filter: filter, query: query, where: compiled.sql, arguments: compiled.arguments)
        let filtered: Bool
        if case .all = parsed.expression { filtered = false } else { filtered = true }
        let dated: Bool
        if case .list = view { dated = false } else { dated = true }
        return try streamRows(where: clause, arguments: arguments, regexes: matcher.regexes,
                              order: dated ? StreamKey.dateOrder : StreamKey.listOrder, render: render) { item in
            guard query.admits(item, to: view, filter: filter), !filtered || matcher.matches(item) else { return nil }
            sortValues?(item)
            return (item.blocked, dated ? query.sortKey(item.task, in: view) : 0)
        }
    }

    /// Every match of a search, ranked as ``search(_:filter:list:limit:query:)``
    /// ranks them without a limit (title matches first, then tags, then notes;
    /// ties in display order), handing each to `render` as it is read.
    public func streamSearch<Payload>(_ search: SearchQuery, filter: TaskFilter, list: FileKind?, query: TaskQuery?,
                                      render: (ListedTask) throws -> Payload) throws -> StreamedView<Payload> {
        let (clause, arguments) = searchClause(search, filter: filter, list: list, query: query)
        return try streamRows(where: clause, arguments: arguments, regexes: nil, order: StreamKey.dateOrder, render: render) { item in
            let score = search.score(item.task)
            guard score > 0, filter.matches(item.task) else { return nil }
            return (false, -Double(score))
        }
    }

    /// The core of both: steps the candidates of `clause`, asks `admit` for
    /// each (nil leaves it out; else whether it sorts as blocked, and its
    /// moment), renders the admitted ones and orders them by `order`.
    private func streamRows<Payload>(where clause: String, arguments: SQLArguments, regexes: FilterRegexes?,
                                     order: (StreamKey, StreamKey) -> Bool, render: (ListedTask) throws -> Payload,
                                     admit: (ListedTask) -> (blocked: Bool, moment: Double)?) throws -> StreamedView<Payload> {
        var payloads: [Payload] = []
        var keys: [StreamKey] = []
        // Copies of one task (an interrupted move): each row's (list, edit)
        // times, and the rows of every task seen more than once.
        var times: [(list: Date, modified: Date)] = []
        var detector = CopyDetector()
        var copies: [Int32: [Int32]] = [:]
        let infos = try db.read { () -> [ListInfo] in
            if let regexes, !regexes.isEmpty { try Self.addRegexFunction(regexes, to: db) }
            let infos = try listRows(db)
            var slot: [String: Int] = [:]
            for (i, info) in infos.enumerated() { slot[info.kind.relativePath] = i }
            var lastPath = ""
            var lastKind: FileKind?
            var lastGroup = infos.count
            var kinds = FileKindCache()
            let statement = try db.prepare("SELECT \(RowReader.columns) FROM tasks t WHERE \(clause)")
            try statement.bind(arguments)
            try RowReader.forEach(statement) { task, path, shortID, position, blocked in
                if path != lastPath {
                    lastPath = path
                    lastKind = kinds.kind(forRelativePath: path)
                    lastGroup = slot[path] ?? infos.count
                }
                guard let kind = lastKind else { return }
                let name = lastGroup < infos.count ? infos[lastGroup].name : (kind.slug ?? "Inbox")
                let item = ListedTask(task: task, kind: kind, listName: name, shortID: shortID, blocked: blocked)
                // Every candidate counts for copies, as in ListedTask.oneCopyEach
                // (the copy kept is chosen before the view or the search decides).
                let row = Int32(times.count)
                if let first = detector.add(task.id) { copies[first, default: [first]].append(row) }
                times.append((task.listTime, task.modifiedAt))
                guard let admitted = admit(item) else { return }
                keys.append(StreamKey(group: Int32(lastGroup), position: Int32(clamping: position), blocked: admitted.blocked,
                                      moment: admitted.moment, arrival: row, payload: Int32(payloads.count)))
                payloads.append(try render(item))
            }
            return infos
        }
        var dropped = Set<Int32>()
        for (_, rows) in copies {
            // ListedTask.preferredCopy: the later list change, then the newer edit.
            let kept = rows.max { (times[Int($0)].list, times[Int($0)].modified) < (times[Int($1)].list, times[Int($1)].modified) }
            for row in rows where row != kept { dropped.insert(row) }
        }
        if !dropped.isEmpty { keys.removeAll { dropped.contains($0.arrival) } }
        keys.sort(by: order)
        return StreamedView(lists: infos, keys: keys, payloads: payloads)
    }
}
