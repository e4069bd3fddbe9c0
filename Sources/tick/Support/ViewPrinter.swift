import TickKit

/// Shared body of the listing commands.
struct ViewPrinter {
    let context: Context

    /// Runs a view and prints it grouped by list (or flat for date views).
    func print(_ view: TaskView, filter: TaskFilter, json: Bool, grouped: Bool, emptyMessage: String) throws {
        let loaded = try context.load()
        if case .list(let kind?) = view, let problem = loaded.broken[kind] {
            throw StoreError.invalidFile(problem)
        }
        // A view of one list needs only that file; the others are not its business.
        if case .list(.some) = view {} else { context.warnUnreadable(loaded.broken) }
        let items = try loaded.index.run(view, filter: filter, query: context.query)
        let t = context.terminal
        if json {
            t.outRaw(JSONOutput.tasks(items))
            return
        }
        if items.isEmpty {
            t.out(t.dim(emptyMessage))
            return
        }
        let renderer = TaskRenderer(terminal: t, dates: context.dates, query: context.query)
        let lines = grouped ? renderer.grouped(items, lists: loaded.listInfos) : renderer.flat(items)
        t.outLines(lines)
    }
}
