import Foundation
import TickKit

/// Turns tasks into terminal lines.
///
/// Color is never the only signal: overdue tasks carry a `!` marker and the
/// words "overdue", done tasks show `[x]`, active ones `[>]`.
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

    /// One line for a task.
    func line(_ item: ListedTask, idWidth: Int, showList: Bool = false) -> String {
        let t = item.task
        let overdue = query.isOverdue(t)
        let idField = String(repeating: " ", count: max(idWidth - idText(item).count, 0)) + idText(item)
        let box: String
        switch t.state {
        case .open: box = "[ ]"
        case .active: box = terminal.cyan("[>]")
        case .done: box = terminal.dim("[x]")
        }
        var title = t.title.utf8.contains(0x0A) ? t.title.replacingOccurrences(of: "\n", with: " ") : t.title
        switch t.state {
        case .done: title = terminal.strike(title)
        case .active: title = terminal.bold(title)
        case .open: if overdue { title = terminal.bold(title) }
        }
        let marker = overdue ? terminal.boldRed("!") : " "
        var details: [String] = []
        if showList { details.append(terminal.magenta("@" + item.listName)) }
        if let due = t.due {
            if overdue, let label = dates.overdueLabel(due) {
                details.append(terminal.boldRed("due \(dates.label(due)), \(label)"))
            } else {
                let text = "due " + dates.label(due)
                details.append(due.localDay(in: query.timeZone) == query.today && t.state.isPending ? terminal.yellow(text) : text)
            }
        }
        if let slot = t.slot {
            details.append("at " + dates.label(.day(slot.day)) + " \(slot.start)-\(slot.end)")
        }
        if let s = t.scheduled, s != t.slot?.day { details.append("sched " + dates.label(.day(s))) }
        if let r = t.remind { details.append("remind " + dates.label(.time(r))) }
        if let r = t.repeatRule { details.append("repeat:" + r) }
        if let p = t.priority { details.append(p == .must ? terminal.bold("pri:must") : "pri:flexible") }
        if let e = t.energy { details.append("energy:" + e.rawValue) }
        if let e = t.estimate { details.append("est:" + DurationText.format(e)) }
        if !t.tags.isEmpty { details.append(terminal.cyan(t.tags.map { "+" + $0 }.joined(separator: " "))) }
        if t.notes != nil { details.append(terminal.dim("[note]")) }
        if t.state == .done, let c = t.completedAt { details.append(terminal.dim("done " + dates.label(.time(c)))) }
        let tail = details.isEmpty ? "" : "  " + details.joined(separator: "  ")
        return "\(marker) \(terminal.dim(idField)) \(box) \(title)\(tail)"
    }

    /// A group heading such as `Work (3)`.
    func heading(_ name: String, count: Int, color: String?) -> String {
        terminal.colored(name, hex: color) + terminal.dim(" (\(count))")
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
            lines += inFile.map { line($0, idWidth: width) }
        }
        return lines
    }

    /// A flat list with the list name on each line.
    func flat(_ items: [ListedTask]) -> [String] {
        let width = idWidth(items)
        return items.map { line($0, idWidth: width, showList: true) }
    }
}
