import FoundationEssentials
import Glibc
import TickKit

/// Draws one frame of `tick ui` from the state: the view tabs, the task rows
/// (as the CLI's listings mark them), the details pane, the status line and
/// the input line. Remembers where the tabs and rows are, for the mouse.
struct ScreenPainter {
    let renderer: TaskRenderer
    let dates: RelativeDateFormatter

    /// Where things landed on the last frame.
    struct Layout {
        var tabs: [(range: Range<Int>, index: Int)] = []
        var firstRow = 2
        var rowCount = 0
        var inputRow = 0
    }

    /// The status bar above the input line. A message longer than the width
    /// is wrapped onto up to three bars, upwards over the rows (it is read
    /// whole, never cut); the hint is cut, `? help` first.
    func statusLine(_ text: String, message: Bool, on screen: Screen) {
        let bottom = screen.rows - 2
        let lines = message ? Array(CellWrap.lines(text, width: max(screen.columns - 2, 1)).prefix(3)) : [text]
        for (i, line) in lines.enumerated() {
            let y = bottom - (lines.count - 1) + i
            guard y >= 1 else { continue }
            screen.bar(y: y, look: .reverse)
            screen.draw(" " + line, y: y, x: 0, look: .reverse)
        }
    }

    /// Rows of the details pane, when shown.
    static let detailsHeight = 7

    /// How many task rows fit with the screen `rows` high.
    static func taskRows(screenRows: Int, details: Bool) -> Int {
        max(screenRows - 4 - (details ? detailsHeight + 1 : 0), 1)
    }

    func paint(_ state: UIState, on screen: Screen, live: String) -> Layout {
        var layout = Layout()
        let width = screen.columns
        let height = screen.rows
        screen.clear()
        layout.tabs = tabs(state, on: screen)
        let count = state.rows.count
        let overdue = state.rows.filter { renderer.query.isOverdue($0.task) }.count
        var info = "\(state.view.title) · \(count) task\(count == 1 ? "" : "s")"
        if overdue > 0 { info += " · \(overdue) overdue" }
        if !state.filter.isEmpty { info += " · filter: \(state.filter)" }
        screen.draw(info, y: 1, x: 1, look: .dim)
        let rowsShown = Self.taskRows(screenRows: height, details: state.showDetails)
        layout.firstRow = 2
        layout.rowCount = rowsShown
        if state.showHelp {
            help(on: screen, from: 2, rows: rowsShown + (state.showDetails ? Self.detailsHeight + 1 : 0))
        } else {
            taskRows(state, on: screen, from: 2, rows: rowsShown, width: width)
            if state.showDetails { details(state, on: screen, from: 2 + rowsShown, width: width) }
        }
        statusLine(state.status.isEmpty ? state.hint(live: live) : state.status, message: !state.status.isEmpty, on: screen)
        layout.inputRow = height - 1
        let prompt = state.mode.prompt + " › "
        screen.draw(prompt, y: height - 1, x: 0, look: state.focus == .input ? .bold : .dim)
        let promptCells = CellWidth.of(prompt)
        let room = max(width - promptCells - 1, 1)
        // Long text scrolls so the cursor stays on screen.
        let before = TextRules.visible(state.input.beforeCursor)
        let all = TextRules.visible(state.input.text)
        var shown = all
        var cursorCells = CellWidth.of(before)
        if cursorCells >= room {
            var start = before.startIndex
            while CellWidth.of(String(before[start...])) >= room { start = before.index(after: start) }
            let skipped = before.distance(from: before.startIndex, to: start)
            shown = String(all.dropFirst(skipped))
            cursorCells = CellWidth.of(String(before[start...]))
        }
        screen.draw(shown, y: height - 1, x: promptCells, width: room + 1)
        // What the line replaces (the tab's filter), dimmed after the text, when it fits.
        if let aside = state.inputAside {
            let x = promptCells + CellWidth.of(shown) + 2
            if x + CellWidth.of(aside) <= width { screen.draw(aside, y: height - 1, x: x, look: .dim) }
        }
        screen.finish(cursorAt: state.focus == .input ? (height - 1, promptCells + cursorCells) : nil)
        return layout
    }

    private func tabs(_ state: UIState, on screen: Screen) -> [(range: Range<Int>, index: Int)] {
        let labels = state.views.enumerated().map { i, view in " " + (UIState.tabKey(i).map { "\($0) " } ?? "") + view.title + " " }
        let contextLabel = state.context.map { " [\($0)]" } ?? ""
        let room = screen.columns - CellWidth.of(contextLabel)
        // Scroll the tabs so the current one shows.
        var start = 0
        func width(_ from: Int, _ to: Int) -> Int { labels[from...to].reduce(0) { $0 + CellWidth.of($1) } }
        while start < state.viewIndex, width(start, state.viewIndex) > room { start += 1 }
        var x = 0
        var placed: [(range: Range<Int>, index: Int)] = []
        if start > 0 {
            screen.draw("‹", y: 0, x: 0, look: .dim)
            x = 1
        }
        for i in start..<labels.count {
            let cells = CellWidth.of(labels[i])
            guard x + cells <= room else { break }
            screen.draw(labels[i], y: 0, x: x, look: i == state.viewIndex ? .reverse : .plain)
            placed.append((x..<(x + cells), i))
            x += cells
        }
        if !contextLabel.isEmpty { screen.draw(contextLabel, y: 0, x: screen.columns - CellWidth.of(contextLabel), look: .accent) }
        return placed
    }

    private func taskRows(_ state: UIState, on screen: Screen, from y: Int, rows: Int, width: Int) {
        guard !state.rows.isEmpty else {
            let empty = state.view == .today ? "Nothing due today." : "No tasks here."
            screen.draw(empty + (state.focus == .input ? " Type one below and press Enter." : " Press a to add one."), y: y, x: 2, look: .dim)
            return
        }
        let visible = state.rows[state.top..<min(state.top + rows, state.rows.count)]
        let idWidth = renderer.idWidth(Array(visible))
        let mixed = state.view.kind == nil
        for (offset, item) in visible.enumerated() {
            let line = Terminal.unstyled(oneLine(item, idWidth: idWidth, showList: mixed, width: width - 1))
            let selected = item.task.id == state.selected
            var look: Screen.Look
            if renderer.query.isOverdue(item.task) {
                look = .overdue
            } else if item.task.state == .active {
                look = .active
            } else if item.task.state == .done {
                look = .dim
            } else {
                look = .plain
            }
            // The selection: reverse video while the rows have the focus, else bold.
            if selected { look = state.focus == .rows ? .reverse : look == .plain || look == .dim ? .bold : look }
            if selected && state.focus == .rows { screen.bar(y: y + offset, look: .reverse) }
            screen.draw(line, y: y + offset, x: 0, look: look)
        }
    }

    /// A task on one row, its marks and fields as the CLI writes them; on a
    /// narrow screen the fields give way to the title (``UIRowLayout``).
    func oneLine(_ item: ListedTask, idWidth: Int, showList: Bool, width: Int) -> String {
        let prefix = Terminal.unstyled(renderer.prefix(item, idWidth: idWidth))
        let title = TextRules.visible(item.task.title.replacingAll("\n", with: " "))
        let fields = renderer.details(item, overdue: renderer.query.isOverdue(item.task), showList: showList).map {
            UIRowField(kind: $0.kind, text: Self.plain($0.text), short: $0.short.map(Self.plain), tight: $0.tight)
        }
        let layout = UIRowLayout.fit(title: title, fields: fields, prefixCells: CellWidth.of(prefix), width: width)
        return prefix + layout.text
    }

    /// Styled text as drawn: no style codes, control characters visible.
    private static func plain(_ styled: String) -> String {
        TextRules.visible(Terminal.unstyled(styled))
    }

    private func details(_ state: UIState, on screen: Screen, from y: Int, width: Int) {
        screen.draw(String(repeating: "─", count: max(width, 1)), y: y, x: 0, look: .dim)
        guard let item = state.selectedTask else {
            screen.draw("No task selected.", y: y + 1, x: 1, look: .dim)
            return
        }
        let t = item.task
        var lines: [String] = [t.title.replacingAll("\n", with: " ")]
        let facts = ["\(item.listName)", t.state.rawValue, "id " + (item.shortID.map { "\($0) " } ?? "") + String(t.id.lowercased.prefix(8))]
        lines.append(facts.joined(separator: " · "))
        // Every other field the table labels (as `tick show` does; the
        // timestamps but the completion left to it), then the declared
        // fields by their label, wrapped to the pane's width.
        var more: [String] = []
        for field in TaskField.all where field.name != "state" && (field.mergeRule != .bookkeeping || field.name == "completedAt") {
            guard let label = field.label, let value = field.shown(t) else { continue }
            let text = value.text(dates: dates)
            more.append(field.name == "tags" ? text : label + " " + text)
        }
        for member in t.extra {
            guard let field = state.fields[member.key], field.name == member.key, field.isWellTyped(member.value) else { continue }
            more.append(field.displayName + " " + ColumnRenderer.userValue(field, member.value, dates: dates))
        }
        var line = ""
        for part in more {
            if !line.isEmpty, CellWidth.of(line) + 2 + CellWidth.of(part) > width - 2 {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : "  ") + part
        }
        if !line.isEmpty { lines.append(line) }
        if let notes = t.notes {
            lines += notes.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        }
        for (i, line) in lines.prefix(Self.detailsHeight).enumerated() {
            screen.draw(line, y: y + 1 + i, x: 1, look: i == 0 ? .bold : .plain, width: width - 2)
        }
    }

    /// Every key, in the rows area.
    private func help(on screen: Screen, from y: Int, rows: Int) {
        for (i, line) in UIHelp.lines.prefix(rows).enumerated() {
            screen.draw(line, y: y + i, x: 1)
        }
    }
}
