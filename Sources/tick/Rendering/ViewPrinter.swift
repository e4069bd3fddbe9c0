import TickKit

/// Shared body of the listing commands.
struct ViewPrinter {
    let context: Context

    /// Runs a view narrowed by a filter, sorts and limits it, and prints it
    /// grouped by list (or flat for date views and any `--sort`). The empty
    /// message is worked out only when nothing is shown.
    func print(_ view: TaskView, filter: TaskFilter, matching parsed: ParsedFilter = .all, order: OrderOptions = OrderOptions(),
               json: Bool, grouped: Bool, emptyMessage: @autoclosure () throws -> String, columns: [String]? = nil) throws {
        let loaded = try context.load()
        if case .list(let kind?) = view, let problem = loaded.broken[kind] {
            throw StoreError.invalidFile(problem)
        }
        // A view of one list needs only that file; the others are not its business.
        if case .list(.some) = view {} else { context.warnUnreadable(loaded.broken) }
        var filter = filter
        var parsed = parsed
        let active = try context.activeContext()
        if let active { parsed = parsed.and(active.filter, label: active.label) }
        if parsed.expression.choosesStates, filter.states == [.open, .active] {
            // `state:done`, `completed.after:mon`: the filter chooses; pending-only does not apply.
            filter.states = Set(TaskState.allCases)
        }
        // `is:waiting`, `wait.after:fri`: asking about waiting shows waiting tasks.
        if parsed.expression.choosesWaiting { filter.showWaiting = true }
        let sort = try order.taskSort(fields: context.userFields())
        let t = context.terminal
        // A context never hides tasks silently: every listing says it is on.
        let note = active.map { "\($0.label) is active (\($0.filter.line)); tick context none shows everything" }
        if columns == nil, json || t.width == nil {
            // Streamed: rows go from the index to stdout without a task array (PERFORMANCE.md, "Streaming"),
            // sorted and cut there too; a sorted listing is flat.
            let printer = StreamPrinter(terminal: t, renderer: TaskRenderer(terminal: t, dates: context.dates, query: context.query))
            try printer.print(loaded.index, view, filter: filter, matching: parsed, query: context.query, sort: sort, limit: order.limit,
                              json: json, grouped: grouped && sort == nil, emptyMessage: try emptyMessage())
            if let note { json ? t.err("tick: " + note) : t.out(t.dim("(" + note + ")")) }
            return
        }
        var items = try loaded.index.run(view, filter: filter, matching: parsed, query: context.query)
        if let sort {
            let ranks = Dictionary(loaded.listInfos.enumerated().map { ($0.element.kind, $0.offset) }, uniquingKeysWith: { a, _ in a })
            items = sort.sorted(items, query: context.query, listRank: ranks)
        }
        if let limit = order.limit, items.count > limit { items = Array(items.prefix(limit)) }
        if json {
            t.outRaw(JSONOutput.tasks(items))
            if let note { t.err("tick: " + note) }
            return
        }
        if items.isEmpty {
            t.out(t.dim(try emptyMessage()))
        } else {
            let renderer = TaskRenderer(terminal: t, dates: context.dates, query: context.query)
            let lines = try columns.map { ColumnRenderer(terminal: t, dates: context.dates, userFields: try context.userFields()).lines(items, columns: $0) }
                ?? (grouped && sort == nil ? renderer.grouped(items, lists: loaded.listInfos) : renderer.flat(items))
            t.outLines(lines)
        }
        if let note { t.out(t.dim("(" + note + ")")) }
    }
}
