import FoundationEssentials
import TickKit

/// Loads the rows of the current view for the state machine, with the same
/// queries as `tick today`, `tick upcoming` and `tick list NAME`, narrowed by
/// the UI's filter and the active context.
struct UILoader {
    let base: Context

    /// The refresh for `state`'s view. Throws the CLI's errors (an unreadable
    /// list file, a bad filter), which the status line shows.
    func load(_ state: UIState) throws -> (UIRefresh, problems: [String]) {
        // A fresh "now" per load: a UI left open over midnight shows the new day.
        let context = try base.action("ui")
        let loaded = try context.load()
        let views: [UIView] = [.inbox, .today, .upcoming] + loaded.listInfos.compactMap { info in
            if case .list = info.kind { return .list(info.kind, name: info.name) }
            return nil
        }
        let view = views.contains(state.view) ? state.view
            : views.first { $0.kind != nil && $0.kind == state.view.kind } ?? .today
        var parsed = try context.filterParser()
            .parse(state.filter.split(whereSeparator: \.isWhitespace).map(String.init))
        // Warnings (config.toml, an undefined context) go to the status line, never over the screen.
        var warnings: [String] = context.takeWarnings().map(\.description)
        let active = try context.activeContext { warnings.append($0) }
        if let active { parsed = parsed.and(active.filter, label: active.label) }
        var filter = TaskFilter()
        if parsed.expression.choosesStates { filter.states = Set(TaskState.allCases) }
        if parsed.expression.choosesWaiting { filter.showWaiting = true }
        let taskView: TaskView
        switch view {
        case .today: taskView = .today
        case .upcoming: taskView = .upcoming(days: 7)
        case .list(let kind, _): taskView = .list(kind)
        }
        var problems = loaded.broken.sorted { $0.key < $1.key }.map { "\($0.value.summary) (showing its last readable tasks)" }
        if let kind = view.kind, let problem = loaded.broken[kind] {
            problems = [problem.summary]
        }
        let rows = try loaded.index.run(taskView, filter: filter, matching: parsed, query: context.query)
        var whereabouts: [UUID: String] = [:]
        if let selected = state.selected, !rows.contains(where: { $0.task.id == selected }) {
            whereabouts[selected] = try Self.whereabouts(of: selected, index: loaded.index, view: view)
        }
        let contexts = (try? context.config { _ in }.contexts.keys.sorted()) ?? []
        // As `tick status` counts them: a file with conflict markers never parses.
        let conflicts = context.store.pendingConflicts(markerCandidates: loaded.broken.keys.sorted()).count
        let refresh = UIRefresh(views: views, view: view, rows: rows, context: active?.name,
                                listNames: loaded.listInfos.map(\.name), contextNames: contexts, whereabouts: whereabouts, conflicts: conflicts)
        return (refresh, problems + warnings)
    }

    /// Where a task that left the view is now, in words (nil: it is gone).
    static func whereabouts(of id: UUID, index: TaskIndex, view: UIView) throws -> String? {
        let hex = id.lowercased.filter { $0 != "-" }
        guard let now = ListedTask.preferredCopy(try index.tasks(uuidHexPrefix: hex)) else { return nil }
        if now.task.state == .done { return "was completed" }
        if let kind = view.kind, now.kind != kind { return "moved to \(now.listName)" }
        return "left this view (its dates or the filter)"
    }
}
