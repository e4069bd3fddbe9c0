import FoundationEssentials
import Glibc
import TickKit

/// A report's `columns`: one row per task, one padded cell per column, under
/// a header (Docs/CLI.md "Reports").
struct ColumnRenderer {
    let terminal: Terminal
    let dates: RelativeDateFormatter
    /// The fields declared in config.toml: each is a column by its name.
    var userFields = UserFields()

    /// The columns: the short id, the list, and every field the table names
    /// a column (``TaskField/column``), in its order.
    static let names = ["id", "list"] + TaskField.all.compactMap(\.column)

    /// Checks the names; the error names the first unknown one.
    /// A declared field (`[fields.NAME]`) is a column by its name.
    static func check(_ columns: [String], report: String, userFields: UserFields = UserFields()) throws {
        let all = names + userFields.names
        for c in columns where !all.contains(c) {
            let guess = Spelling.closest(to: c, among: all).map { " (did you mean \($0)?)" } ?? ""
            throw CLIError("reports.\(report).columns in config.toml: \"\(c)\" is not a column\(guess); columns are \(all.joined(separator: ", "))", status: .usage)
        }
    }

    /// A declared field's stored value as shown: a date by its relative
    /// label, the rest as ``UserField/text(of:)``; a value of another type
    /// than declared (a hand edit) as it is (its JSON text).
    static func userValue(_ field: UserField, _ value: JSONNode, dates: RelativeDateFormatter) -> String {
        if case .date = field.kind, case .string(let s) = value.kind, let date = TaskDate(fileString: s) {
            return dates.label(date)
        }
        return field.text(of: value)
    }

    func cell(_ column: String, _ item: ListedTask) -> String {
        let t = item.task
        switch column {
        case "id": return item.shortID.map(String.init) ?? String(t.id.lowercased.prefix(8))
        case "state": return item.blocked && t.state != .done ? "blocked" : t.state.rawValue
        case "list": return item.listName
        default:
            if let field = TaskField.withColumn(column) {
                return field.shown(t).map { TextRules.visible($0.text(dates: dates)) } ?? ""
            }
            guard let field = userFields[column], field.name == column, let value = field.value(in: t) else { return "" }
            return TextRules.visible(Self.userValue(field, value, dates: dates))
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
