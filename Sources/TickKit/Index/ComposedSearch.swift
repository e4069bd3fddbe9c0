/// Substring search as Foundation's `String.range(of:)` does it without
/// options (and so `String.contains`), in the standard library alone: text is
/// compared by composed character sequences (a base scalar and the marks
/// after it), each up to canonical equivalence (`é` matches `e` + U+0301),
/// and a match never ends inside one (`e` is not found in `e` + U+0301). A
/// match may start inside a grapheme after a prepended mark, as Foundation's.
/// For ``SearchQuery``'s Unicode path (ASCII text takes ``ASCIIMatch``).
enum ComposedSearch {
    /// The first occurrence of `needle` in `text` starting at or after
    /// `from` (a unicode-scalar index of `text`), or nil.
    static func range(of needle: String, in text: String, from: String.Index? = nil) -> Range<String.Index>? {
        let wanted = sequences(of: needle, from: needle.startIndex).map { String(needle.unicodeScalars[$0]) }
        guard !wanted.isEmpty else { return nil }
        let found = sequences(of: text, from: from ?? text.startIndex)
        guard found.count >= wanted.count else { return nil }
        let scalars = text.unicodeScalars
        for start in 0...(found.count - wanted.count) {
            var k = 0
            while k < wanted.count, String(scalars[found[start + k]]) == wanted[k] { k += 1 }
            if k == wanted.count { return found[start].lowerBound..<found[start + k - 1].upperBound }
        }
        return nil
    }

    /// True when `needle` occurs in `text`.
    static func contains(_ needle: String, in text: String) -> Bool {
        range(of: needle, in: text) != nil
    }

    /// The composed character sequences of `text` from `from`: ranges of
    /// unicode scalars, each a scalar and the combining marks after it.
    private static func sequences(of text: String, from: String.Index) -> [Range<String.Index>] {
        let scalars = text.unicodeScalars
        var out: [Range<String.Index>] = []
        var i = from
        while i < scalars.endIndex {
            var j = scalars.index(after: i)
            while j < scalars.endIndex, isMark(scalars[j]) { j = scalars.index(after: j) }
            out.append(i..<j)
            i = j
        }
        return out
    }

    private static func isMark(_ s: Unicode.Scalar) -> Bool {
        switch s.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return false
        }
    }
}
