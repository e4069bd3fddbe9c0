import FoundationEssentials

/// The whole state of the `tick ui` screen, as a value: the views, the rows
/// of the current one, the selection (by UUID, so it survives refreshes), the
/// focus, the input line and the status line.
///
/// It never touches the terminal or the store: ``handle(_:)`` (or
/// ``reduce(_:_:)``) takes an event and returns the effects (writes, loads)
/// for the terminal layer to perform, which reports back with more events.
public struct UIState: Sendable {
    /// The tabs: inbox, today, upcoming, then each list.
    public internal(set) var views: [UIView] = [.inbox, .today, .upcoming]
    public internal(set) var viewIndex = 1
    /// The current view's tasks, in display order.
    public internal(set) var rows: [ListedTask] = []
    /// The selected task.
    public internal(set) var selected: UUID?
    /// The first task row shown.
    public internal(set) var top = 0
    /// How many task rows fit on the screen.
    public internal(set) var page = 10
    public internal(set) var focus: UIFocus = .input
    public internal(set) var input = UIInput()
    public internal(set) var mode: UIInputMode = .capture
    /// The capture text put aside while the line edits, moves or filters.
    var draft = UIInput()
    /// The mode whose Enter is waiting for its write's outcome.
    var awaiting: UIInputMode?
    /// Each tab's filter (words as `tick list` takes them), set with `/` on
    /// that tab; keyed by ``filterKey(_:)``. A tab not here has ``startFilter``.
    var filters: [UIView: String] = [:]
    /// The filter every tab starts with (`tick ui FILTER`).
    public let startFilter: String
    /// The filter line was opened by `/` typed first on the capture line:
    /// a second `/` there gives the capture line back with a slash typed.
    var filterFromCapture = false
    /// The active context's name.
    public internal(set) var context: String?
    public internal(set) var listNames: [String] = []
    public internal(set) var contextNames: [String] = []
    /// Sync conflicts waiting for `tick resolve`.
    public internal(set) var conflicts = 0
    /// The details pane is shown.
    public internal(set) var showDetails = false
    /// The key help is shown.
    public internal(set) var showHelp = false
    /// The status line's message (the last write's confirmation or error, or why the selection moved).
    public internal(set) var status = ""
    /// The view the rows were loaded for.
    var loadedView: UIView?
    /// The task a mouse button was pressed on (a drag in progress).
    public internal(set) var dragging: UUID?
    /// For ``UITaskText``: dates in the input line are local.
    public let timeZone: Zone
    /// For ``UITaskText``: the declared fields are `NAME:value` words of the input line.
    public let fields: UserFields

    /// `filter`: every tab's filter until `/` changes that tab's (`tick ui FILTER`).
    public init(timeZone: Zone, view: UIView = .today, filter: String = "", fields: UserFields = UserFields()) {
        self.timeZone = timeZone
        self.fields = fields
        startFilter = filter
        viewIndex = views.firstIndex(of: view) ?? 1
    }

    /// The view shown.
    public var view: UIView { views[min(viewIndex, views.count - 1)] }

    /// The selected row's position in ``rows``.
    public var selectedIndex: Int? {
        guard let selected else { return nil }
        return rows.firstIndex { $0.task.id == selected }
    }

    /// The selected task.
    public var selectedTask: ListedTask? { selectedIndex.map { rows[$0] } }

    /// The pure transition: the state after `event`, and what to do.
    public static func reduce(_ state: UIState, _ event: UIEvent) -> (UIState, [UIEffect]) {
        var next = state
        let effects = next.handle(event)
        return (next, effects)
    }

    /// Applies `event` and returns the effects to perform.
    public mutating func handle(_ event: UIEvent) -> [UIEffect] {
        switch event {
        case .key(let key):
            if key == .control("c") { return [.quit] }
            if showHelp, focus == .input {
                // The help opened from the input line: Esc or ? closes it; any
                // other key closes it and goes to the line.
                showHelp = false
                if key == .escape || key == .character("?") { return [] }
            }
            return focus == .input ? inputKey(key) : rowKey(key)
        case .refreshed(let refresh):
            apply(refresh)
            return []
        case .resized(let rows):
            page = max(rows, 1)
            reveal()
            return []
        case .clickedRow(let n):
            focus = .rows
            select(top + n)
            dragging = top + n < rows.count ? selected : nil
            return []
        case .released(let target):
            return drop(on: target)
        case .clickedTab(let n):
            return switchView(to: n)
        case .clickedInput:
            focus = .input
            return []
        case .scrolled(let n):
            select((selectedIndex ?? 0) + n)
            return []
        case .wrote(let result):
            return wrote(result)
        case .noted(let message):
            status = message
            return []
        }
    }

    // MARK: Selection

    /// Selects the row at `index`, clamped to the rows, and scrolls to it.
    mutating func select(_ index: Int) {
        guard !rows.isEmpty else {
            selected = nil
            top = 0
            return
        }
        let i = min(max(index, 0), rows.count - 1)
        selected = rows[i].task.id
        reveal()
    }

    /// Scrolls so the selected row is on screen.
    mutating func reveal() {
        let i = selectedIndex ?? 0
        if i < top { top = i }
        if i >= top + page { top = i - page + 1 }
        top = max(min(top, max(rows.count - page, 0)), 0)
    }

    mutating func switchView(to index: Int) -> [UIEffect] {
        guard views.indices.contains(index), index != viewIndex else { return [] }
        viewIndex = index
        rows = []
        selected = nil
        top = 0
        return [.load]
    }

    // MARK: Refresh

    /// Takes fresh rows; the selection stays on its task, or moves to the
    /// task after it (else before it) with a word on the status line.
    mutating func apply(_ refresh: UIRefresh) {
        let current = view
        views = refresh.views.isEmpty ? [.inbox, .today, .upcoming] : refresh.views
        if let i = views.firstIndex(of: current) {
            viewIndex = i
        } else if let i = views.firstIndex(where: { $0.kind != nil && $0.kind == current.kind }) {
            viewIndex = i   // the list was renamed
        } else if let i = views.firstIndex(of: refresh.view) {
            // The list shown was deleted (or renamed beyond recognition) elsewhere.
            viewIndex = i
            status = "\(current.title) is gone; showing \(refresh.view.title)."
        } else {
            viewIndex = min(viewIndex, views.count - 1)
        }
        guard refresh.view == view || refresh.view.kind.map({ $0 == view.kind }) == true else { return }
        context = refresh.context
        listNames = refresh.listNames
        contextNames = refresh.contextNames
        conflicts = refresh.conflicts
        let sameView = loadedView == refresh.view || (loadedView?.kind != nil && loadedView?.kind == refresh.view.kind)
        let oldRows = rows
        let oldIndex = selectedIndex
        rows = refresh.rows
        loadedView = refresh.view
        guard let selected else {
            select(0)
            return
        }
        if rows.contains(where: { $0.task.id == selected }) {
            reveal()
            return
        }
        // Another view, filter or context: no word about the old selection.
        guard sameView else {
            select(0)
            return
        }
        // The selected task left the view: its neighbour takes the selection.
        let present = Set(rows.map(\.task.id))
        let old = oldIndex ?? 0
        let after = oldRows.dropFirst(old + 1).first { present.contains($0.task.id) }
        let before = oldRows.prefix(old).last { present.contains($0.task.id) }
        if let next = after ?? before, let i = rows.firstIndex(where: { $0.task.id == next.task.id }) {
            select(i)
        } else {
            select(min(old, rows.count - 1))
        }
        let title = oldRows.first { $0.task.id == selected }.map { "\"\($0.task.title)\" " } ?? "The selected task "
        let whereabouts = refresh.whereabouts[selected] ?? "was deleted"
        let moved = self.selected == nil ? "" : "; selected the next task"
        status = title + whereabouts + moved + "."
    }

    // MARK: Writes

    mutating func wrote(_ result: UIWriteResult) -> [UIEffect] {
        status = result.message
        if let made = result.task, let i = rows.firstIndex(where: { $0.task.id == made }) { select(i) }
        guard let awaited = awaiting else { return [] }
        awaiting = nil
        guard result.succeeded, awaited == mode else { return [] }
        switch mode {
        case .capture:
            input = UIInput()
        default:
            // Edit, move and context began on the rows: back there.
            finishMode()
            focus = .rows
        }
        return []
    }

    /// Back to capturing, with the text that was being typed before.
    mutating func finishMode() {
        if mode != .capture {
            input = draft
            draft = UIInput()
        }
        mode = .capture
        filterFromCapture = false
    }

    /// Puts the capture text aside and opens the line in `mode` with `text`.
    mutating func begin(_ newMode: UIInputMode, text: String) {
        if mode == .capture { draft = input }
        mode = newMode
        filterFromCapture = false
        input = UIInput(text)
        focus = .input
        // The mode's hint replaces the last message (an old confirmation reads as this prompt's).
        status = ""
    }
}
