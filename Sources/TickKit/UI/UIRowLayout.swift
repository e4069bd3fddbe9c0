/// How a task's row fits the width of `tick ui`: the title has priority.
///
/// When the whole row does not fit, in this order until it does:
/// 1. the fields the details pane shows anyway give way, one at a time, the
///    last of a kind first: the done time, `[note]`, `est:`, `energy:`,
///    `remind`, `repeat:`, `pri:flexible`, then the tags, then `@List`;
/// 2. dates take their short form (`due Thu 19 Nov` → `due 19 Nov`, an
///    overdue due date → `2d overdue`);
/// 3. the title is cut with `…`, down to ``shortestTitle`` cells (or its whole length);
/// 4. the remaining fields give way: `wait`, `sched`, `at`, `pri:must`, `blocked`, `due` last;
/// 5. the title is cut to what is left.
/// Widths are terminal cells (``CellWidth``): CJK and emoji take two.
public struct UIRowLayout: Sendable, Equatable {
    /// The title as shown (cut with `…` when it had to be).
    public var title: String
    /// The fields kept, in their order, in the form shown.
    public var fields: [UIRowField]

    /// The fewest title cells kept while fields can still give way.
    public static let shortestTitle = 24

    /// Fields that give way before the title is cut, first to go first.
    static let minor: [UIRowField.Kind] = [.completed, .note, .estimate, .energy, .remind, .repeatRule, .flexible, .tag, .list]
    /// Fields that give way only when the title is down to ``shortestTitle``, first to go first.
    static let major: [UIRowField.Kind] = [.wait, .scheduled, .slot, .priority, .blocked, .due]

    /// The title and fields to show after a prefix of `prefixCells` cells
    /// (mark, id, box and their spaces) on a row `width` cells wide.
    public static func fit(title: String, fields: [UIRowField], prefixCells: Int, width: Int) -> UIRowLayout {
        let titleCells = CellWidth.of(title)
        var kept = fields
        var tail = tailCells(kept)
        let room = { width - prefixCells - tail }
        if titleCells <= room() { return UIRowLayout(title: title, fields: kept) }
        // 1. Minor fields give way while the whole title does not fit.
        for kind in minor {
            while titleCells > room(), let i = kept.lastIndex(where: { $0.kind == kind }) {
                kept.remove(at: i)
                tail = tailCells(kept)
            }
        }
        if titleCells <= room() { return UIRowLayout(title: title, fields: kept) }
        // 2. Short dates.
        for i in kept.indices where titleCells > room() {
            if let short = kept[i].short {
                kept[i].text = short
                kept[i].short = nil
                tail = tailCells(kept)
            }
        }
        if titleCells <= room() { return UIRowLayout(title: title, fields: kept) }
        // 3. The title is cut, not below the shortest title; 4. then the other fields give way.
        let floor = min(titleCells, shortestTitle)
        for kind in major {
            while floor > room(), let i = kept.lastIndex(where: { $0.kind == kind }) {
                kept.remove(at: i)
                tail = tailCells(kept)
            }
        }
        // 5. Cut to what is left.
        return UIRowLayout(title: CellWidth.truncated(title, to: max(room(), 1)), fields: kept)
    }

    /// Title and fields as one text, fields two spaces apart (tags one).
    public var text: String {
        var out = title
        for field in fields { out += (field.tight ? " " : "  ") + field.text }
        return out
    }

    /// Cells the fields take after the title, with their gaps.
    static func tailCells(_ fields: [UIRowField]) -> Int {
        fields.reduce(0) { $0 + CellWidth.of($1.text) + ($1.tight ? 1 : 2) }
    }
}
