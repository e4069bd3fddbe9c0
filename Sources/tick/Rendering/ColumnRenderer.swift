import FoundationEssentials
import Glibc
import TickKit

/// A report's `columns`: one row per task, one padded cell per column, under
/// a header (Docs/CLI.md "Reports").
struct ColumnRenderer {
    let terminal: Terminal
    let dates: RelativeDateFormatter

    static let names = ["id", "state", "title", "list", "due", "sched", "remind", "wait", "pri", "energy", "estimate", "tags",
                        "created", "modified", "completed"]

    /// Checks the names; the error names the first unknown one.
    static func check(_ columns: [String], report: String) throws {
        for c in columns where !names.contains(c) {
            let guess = Spelling.closest(to: c, among: names).map { " (did you mean \($0)?)" } ?? ""
            throw CLIError("reports.\(report).columns in config.toml: \"\(c)\" is not a column\(guess); columns are \(names.joined(separator: ", "))", status: .usage)
        }
    }

    func cell(_ column: String, _ item: ListedTask) -> String {
        let t = item.task
        func instant(_ d: Date?) -> String { d.map { dates.label(.time($0)) } ?? "" }
        switch column {
        case "id": return item.shortID.map(String.init) ?? String(t.id.lowercased.prefix(8))
        case "state": return item.blocked && t.state != .done ? "blocked" : t.state.rawValue
        case "title": return TextRules.visible(t.title)
        case "list": return item.listName
        case "due": return t.due.map(dates.label) ?? ""
        case "sched": return t.scheduled.map { dates.label(.day($0)) } ?? ""
        case "remind": return instant(t.remind)
        case "wait": return t.wait.map(dates.label) ?? ""
        case "pri": return t.priority?.rawValue ?? ""
        case "energy": return t.energy?.rawValue ?? ""
        case "estimate": return t.estimate.map { "\($0)m" } ?? ""
        case "tags": return t.tags.map { "+" + $0 }.joined(separator: " ")
        case "created": return instant(t.createdAt)
        case "modified": return instant(t.modifiedAt)
        case "completed": return instant(t.completedAt)
        default: return ""
        }
    }

    /// The header and the rows; the last column is not padded.
    func lines(_ items: [ListedTask], columns: [String]) -> [String] {
        let rows = items.map { item in columns.map { Terminal.shown(cell($0, item)) } }
        let widths = columns.indices.map { i in max(CellWidth.of(columns[i]), rows.map { CellWidth.of($0[i]) }.max() ?? 0) }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { i, c in i == cells.count - 1 ? c : CellWidth.padded(c, to: widths[i]) }
                .joined(separator: "  ").trimmingWhitespace()
        }
        return [terminal.bold(line(columns.map { $0.uppercased() }))] + rows.map(line)
    }
}
