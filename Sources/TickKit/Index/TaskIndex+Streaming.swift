import Foundation
import GRDB
import GRDBSQLite

/// Views streamed from SQLite: each admitted task is rendered as it is
/// stepped and dropped, so a listing of 50,000 tasks never holds 50,000
/// decoded tasks (Docs/PERFORMANCE.md, "Streaming").
extension TaskIndex {
    /// Runs a view narrowed by a filter, exactly as
    /// ``run(_:filter:matching:query:)`` does, handing each task it admits to
    /// `render` and keeping only what `render` returns, in the view's order.
    public func stream<Payload>(_ view: TaskView, filter: TaskFilter, matching parsed: ParsedFilter, query: TaskQuery,
                                render: (ListedTask) throws -> Payload) throws -> StreamedView<Payload> {
        let bindings = try bind(parsed, query: query)
        let matcher = FilterMatcher(expression: parsed.expression, bindings: bindings, query: query)
        let compiled = FilterSQL(bindings: bindings, query: query).compile(parsed.expression)
        let (clause, arguments) = candidateClause(view, filter: filter, query: query, where: compiled.sql, arguments: compiled.arguments)
        let filtered: Bool
        if case .all = parsed.expression { filtered = false } else { filtered = true }
        let dated: Bool
        if case .list = view { dated = false } else { dated = true }

        var payloads: [Payload] = []
        var keys: [StreamKey] = []
        var shortIDs: [Int32] = []
        // Copies of one task (an interrupted move): each row's (list, edit)
        // times, and the rows of every task seen more than once.
        var times: [(list: Date, modified: Date)] = []
        var firstRow: [UUID: Int32] = [:]
        var copies: [UUID: [Int32]] = [:]
        let infos = try db.read { db -> [ListInfo] in
            if !matcher.regexes.isEmpty { Self.addRegexFunction(matcher.regexes, to: db) }
            let infos = try listRows(db)
            var slot: [String: Int] = [:]
            for (i, info) in infos.enumerated() { slot[info.kind.relativePath] = i }
            var lastPath = ""
            var lastKind: FileKind?
            var lastGroup = infos.count
            let statement = try db.makeStatement(sql: "SELECT \(RowReader.columns) FROM tasks t WHERE \(clause)")
            try statement.setArguments(arguments)
            try RowReader.forEach(statement) { task, path, shortID, position, blocked in
                if path != lastPath {
                    lastPath = path
                    lastKind = Self.kind(forRelativePath: path)
                    lastGroup = slot[path] ?? infos.count
                }
                guard let kind = lastKind else { return }
                let name = lastGroup < infos.count ? infos[lastGroup].name : (kind.slug ?? "Inbox")
                let item = ListedTask(task: task, kind: kind, listName: name, shortID: shortID, blocked: blocked)
                guard query.admits(item, to: view, filter: filter), !filtered || matcher.matches(item) else { return }
                let row = Int32(keys.count)
                if let first = firstRow.updateValue(row, forKey: task.id) {
                    copies[task.id, default: [first]].append(row)
                }
                times.append((task.listTime, task.modifiedAt))
                keys.append(StreamKey(group: Int32(lastGroup), position: Int32(clamping: position), blocked: blocked,
                                      moment: dated ? query.sortKey(task, in: view) : 0, arrival: row))
                shortIDs.append(Int32(clamping: shortID ?? -1))
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
        var order = keys
        if !dropped.isEmpty { order.removeAll { dropped.contains($0.arrival) } }
        order.sort(by: dated ? StreamKey.dateOrder : StreamKey.listOrder)
        let rows = order.map { key -> StreamedView<Payload>.Row in
            let i = Int(key.arrival)
            return StreamedView.Row(group: Int(key.group), shortID: shortIDs[i] < 0 ? nil : Int(shortIDs[i]), payload: payloads[i])
        }
        return StreamedView(rows: rows, lists: infos)
    }
}
