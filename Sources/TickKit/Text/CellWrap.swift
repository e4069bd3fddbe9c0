/// Text broken into lines of at most a number of terminal cells (``CellWidth``),
/// at spaces where it can, inside a word only when one word is longer than a line.
public enum CellWrap {
    /// The lines of `text`, each at most `width` cells (at least one line).
    public static func lines(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [text] }
        var lines: [String] = []
        var line = ""
        var cells = 0
        for word in text.split(separator: " ", omittingEmptySubsequences: false).map(String.init) {
            let w = CellWidth.of(word)
            let gap = line.isEmpty ? 0 : 1
            if cells + gap + w <= width {
                line += (gap == 1 ? " " : "") + word
                cells += gap + w
                continue
            }
            if !line.isEmpty { lines.append(line) }
            // A word longer than a line is cut across lines.
            var rest = word
            while CellWidth.of(rest) > width {
                let head = prefix(rest, cells: width)
                lines.append(head)
                rest = String(rest.dropFirst(head.count))
            }
            line = rest
            cells = CellWidth.of(rest)
        }
        lines.append(line)
        return lines
    }

    /// The longest start of `text` within `cells` cells (one character at least).
    static func prefix(_ text: String, cells: Int) -> String {
        var out = ""
        var used = 0
        for c in text {
            let w = CellWidth.of(c)
            if used + w > cells, !out.isEmpty { break }
            out.append(c)
            used += w
        }
        return out
    }
}
