import FoundationEssentials
import Glibc
import TickKit

/// Turns tasks into terminal lines.
///
/// Color is never the only signal: overdue tasks carry a `!` marker and the
/// words "overdue", done tasks show `[x]`, active ones `[>]`, blocked open
/// ones `[b]` (and "blocked"), waiting ones (shown with `--all`) "wait …".
struct TaskRenderer {
    let terminal: Terminal
    let dates: RelativeDateFormatter
    let query: TaskQuery

    /// Width of the id column for a set of tasks.
    func idWidth(_ tasks: [ListedTask]) -> Int {
        tasks.map { idText($0).count }.max() ?? 1
    }

    /// The short id, or the first 8 hex digits of the UUID for tasks without one.
    func idText(_ item: ListedTask) -> String {
        if let n = item.shortID { return String(n) }
        return String(item.task.id.lowercased.prefix(8))
    }

    /// One line for a task, whole (no fitting to the terminal's width).
    func line(_ item: ListedTask, idWidth: Int, showList: Bool = false) -> String {
        rows(item, idWidth: idWidth, showList: showList, width: nil).joined(separator: " ")
    }

    /// What comes before the title: the overdue mark, the id and the state box, with their spaces.
    func prefix(_ item: ListedTask, idWidth: Int) -> String {
        let idField = String(repeating: " ", count: max(idWidth - idText(item).count, 0)) + idText(item)
        let box: String
        switch item.task.state {
        case .open: box = item.blocked ? terminal.dim("[b]") : "[ ]"
        case .active: box = terminal.cyan("[>]")
        case .done: box = terminal.dim("[x]")
        }
        let marker = query.isOverdue(item.task) ? terminal.boldRed("!") : " "
        return "\(marker) \(terminal.dim(idField)) \(box) "
    }

    /// A whole row without its prefix (``prefix(_:idWidth:)``): the styled
    /// title and the details, as ``rows(_:idWidth:showList:width:)`` writes
    /// them without a width, appended to `bytes` as shown on a terminal
    /// (``Terminal/shown(_:keepingNewlines:)``, piece by piece: it maps each
    /// character on its own). What a streamed listing keeps per task; no
    /// String is made for the whole row.
    func appendBody(_ item: ListedTask, showList: Bool, to bytes: inout [UInt8]) {
        let t = item.task
        let overdue = query.isOverdue(t)
        let title = t.title.utf8.contains(0x0A) ? t.title.replacingAll("\n", with: " ") : t.title
        switch t.state {
        case .done: Self.append(terminal.strike(title), to: &bytes)
        case .active: Self.append(terminal.bold(title), to: &bytes)
        case .open: Self.append(overdue ? terminal.bold(title) : title, to: &bytes)
        }
        var first = true
        forEachDetail(item, overdue: overdue, showList: showList, shortForms: false) { d in
            bytes.append(0x20)
            if first || !d.tight { bytes.append(0x20) }
            Self.append(d.text, to: &bytes)
            first = false
        }
    }

    /// `text` as shown on a terminal, appended as UTF-8.
    private static func append(_ text: String, to bytes: inout [UInt8]) {
        var shown = Terminal.shown(text)
        shown.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// The rows of one task. Without a width, one row. With one (stdout is a
    /// terminal `width` columns wide), a row never runs past it: the title is
    /// cut with `…` so the details fit (keeping at least ``minimumTitleCells``
    /// of it); when even that is too wide, the details go on continuation rows
    /// under the title, broken between details (and between tags), never inside a word.
    func rows(_ item: ListedTask, idWidth: Int, showList: Bool = false, width: Int?) -> [String] {
        let t = item.task
        let overdue = query.isOverdue(t)
        let idField = String(repeating: " ", count: max(idWidth - idText(item).count, 0)) + idText(item)
        let plainTitle = t.title.utf8.contains(0x0A) ? t.title.replacingAll("\n", with: " ") : t.title
        let details = details(item, overdue: overdue, showList: showList)
        let prefix = prefix(item, idWidth: idWidth)
        func styled(_ title: String) -> String {
            switch t.state {
            case .done: return terminal.strike(title)
            case .active: return terminal.bold(title)
            case .open: return overdue ? terminal.bold(title) : title
            }
        }
        func joined(_ pieces: ArraySlice<Detail>) -> String {
            var text = ""
            for (i, d) in zip(pieces.indices, pieces) {
                if i != pieces.startIndex { text += d.tight ? " " : "  " }
                text += d.text
            }
            return text
        }
        func row(_ title: String, _ shown: ArraySlice<Detail>) -> String {
            prefix + styled(title) + (shown.isEmpty ? "" : "  " + joined(shown))
        }
        guard let width else { return [row(plainTitle, details[...])] }
        // Measured as written: control characters in their visible form.
        let title = TextRules.visible(plainTitle)
        let prefixCells = 4 + 3 + CellWidth.of(idField)
        let titleCells = CellWidth.of(title)
        let cells = details.map { Terminal.cells($0.text) }
        let tailCells = zip(details, cells).reduce(0) { $0 + $1.1 + ($1.0.tight ? 1 : 2) }
        if prefixCells + titleCells + tailCells <= width { return [row(title, details[...])] }
        let room = width - prefixCells - tailCells
        if room >= min(titleCells, Self.minimumTitleCells) {
            return [row(CellWidth.truncated(title, to: room), details[...])]
        }
        // The details do not fit beside the title: continuation rows, indented under it.
        var rows = [row(CellWidth.truncated(title, to: max(width - prefixCells, 1)), [])]
        let indent = String(repeating: " ", count: prefixCells)
        var start = 0
        var used = prefixCells
        for i in details.indices {
            let gap = i == start ? 0 : (details[i].tight ? 1 : 2)
            if i > start, used + gap + cells[i] > width {
                rows.append(indent + joined(details[start..<i]))
                start = i
                used = prefixCells + cells[i]
            } else {
                used += gap + cells[i]
            }
        }
        if start < details.count { rows.append(indent + joined(details[start...])) }
        return rows
    }

    /// The fewest title cells a fitted row keeps before its details move to a row of their own.
    static let minimumTitleCells = 20

    /// One detail after the title; a tight one follows the previous with one
    /// space instead of two (the tags of a task). `kind` and `short` let a
    /// narrow `tick ui` row shorten or drop it (``UIRowLayout``).
    struct Detail {
        var text: String
        var tight = false
        var kind: UIRowField.Kind
        var short: String? = nil
    }

    /// The details after the title: list, dates, slot, fields, tags, note marker.
    /// Without `shortForms`, the details carry no ``Detail/short`` (only
    /// `tick ui`'s narrow rows use it; a listing need not format dates twice).
    func details(_ item: ListedTask, overdue: Bool, showList: Bool, shortForms: Bool = true) -> [Detail] {
        var out: [Detail] = []
        forEachDetail(item, overdue: overdue, showList: showList, shortForms: shortForms) { out.append($0) }
        return out
    }

    /// ``details(_:overdue:showList:shortForms:)`` one at a time, in order,
    /// with no array made (a streamed listing writes them as they come).
    func forEachDetail(_ item: ListedTask, overdue: Bool, showList: Bool, shortForms: Bool, _ out: (Detail) -> Void) {
        let t = item.task
        if showList { out(Detail(text: terminal.magenta("@" + item.listName), kind: .list)) }
        if let due = t.due {
            if overdue, let label = dates.overdueLabel(due) {
                out(Detail(text: terminal.boldRed("due \(dates.label(due)), \(label)"), kind: .due, short: shortForms ? terminal.boldRed(label) : nil))
            } else {
                let text = "due " + dates.label(due)
                let short = shortForms ? "due " + dates.shortLabel(due) : ""
                let today = due.localDay(in: query.timeZone) == query.today && t.state.isPending
                out(Detail(text: today ? terminal.yellow(text) : text, kind: .due, short: !shortForms ? nil : today ? terminal.yellow(short) : short))
            }
        }
        if let slot = t.slot {
            let times = " \(slot.start)-\(slot.end)"
            let day = shortForms ? dates.shortLabel(.day(slot.day)) : ""
            out(Detail(text: "at " + dates.label(.day(slot.day)) + times, kind: .slot,
                              short: shortForms ? "at " + (day == "today" ? "" : day + " ") + "\(slot.start)" : nil))
        }
        if let s = t.scheduled, s != t.slot?.day {
            out(Detail(text: "sched " + dates.label(.day(s)), kind: .scheduled, short: shortForms ? "sched " + dates.shortLabel(.day(s)) : nil))
        }
        if let r = t.remind {
            out(Detail(text: "remind " + dates.label(.time(r)), kind: .remind, short: shortForms ? "remind " + dates.shortLabel(.time(r)) : nil))
        }
        if item.blocked { out(Detail(text: terminal.yellow("blocked"), kind: .blocked)) }
        if let w = t.wait, query.isWaiting(t) {
            out(Detail(text: terminal.dim("wait " + dates.label(w)), kind: .wait, short: shortForms ? terminal.dim("wait " + dates.shortLabel(w)) : nil))
        }
        if let r = t.repeatRule { out(Detail(text: "repeat:" + r, kind: .repeatRule)) }
        if let p = t.priority { out(Detail(text: p == .must ? terminal.bold("pri:must") : "pri:flexible", kind: p == .must ? .priority : .flexible)) }
        if let e = t.energy { out(Detail(text: "energy:" + e.rawValue, kind: .energy)) }
        if let e = t.estimate { out(Detail(text: "est:" + DurationText.format(e), kind: .estimate)) }
        for (i, tag) in t.tags.enumerated() { out(Detail(text: terminal.cyan("+" + tag), tight: i > 0, kind: .tag)) }
        if t.notes != nil { out(Detail(text: terminal.dim("[note]"), kind: .note)) }
        if t.state == .done, let c = t.completedAt {
            out(Detail(text: terminal.dim("done " + dates.label(.time(c))), kind: .completed))
        }
    }

    /// A group heading such as `Work (3)`.
    func heading(_ name: String, count: Int, color: String?) -> String {
        let shown = terminal.width.map { CellWidth.truncated(name, to: max($0 - 8, 8)) } ?? name
        return terminal.colored(shown, hex: color) + terminal.dim(" (\(count))")
    }

    /// Several tasks grouped under list headings, in the order given.
    func grouped(_ items: [ListedTask], lists: [ListInfo]) -> [String] {
        let width = idWidth(items)
        var byKind: [FileKind: [ListedTask]] = [:]
        for item in items { byKind[item.kind, default: []].append(item) }
        var lines: [String] = []
        for list in lists {
            guard let inFile = byKind[list.kind], !inFile.isEmpty else { continue }
            if !lines.isEmpty { lines.append("") }
            lines.append(heading(list.name, count: inFile.count, color: list.color))
            lines += inFile.flatMap { rows($0, idWidth: width, width: terminal.width) }
        }
        return lines
    }

    /// A flat list with the list name on each line.
    func flat(_ items: [ListedTask]) -> [String] {
        let width = idWidth(items)
        return items.flatMap { rows($0, idWidth: width, showList: true, width: terminal.width) }
    }
}
