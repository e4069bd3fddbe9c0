import TickKit

/// Shared body of the listing commands.
struct ViewPrinter {
    let context: Context

    /// Runs a view and prints it grouped by list (or flat for date views).
    func print(_ view: TaskView, filter: TaskFilter, json: Bool, grouped: Bool, emptyMessage: String) throws {
        let loaded = try context.load()
        if case .list(let kind?) = view, let problem = loaded.snapshot.broken[kind] {
            throw StoreError.invalidFile(problem)
        }
        context.warnUnreadable(loaded.snapshot)
        let items = context.query.run(view, filter: filter, snapshot: loaded.snapshot, ids: loaded.ids)
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
        let lines = grouped ? renderer.grouped(items, snapshot: loaded.snapshot) : renderer.flat(items)
        lines.forEach(t.out)
    }
}
