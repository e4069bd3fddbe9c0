/// Case-insensitive search of an ASCII term in UTF-8 text, without
/// Foundation: the fast path of ``SearchQuery``'s matching.
///
/// It answers only when the answer is the Unicode one (lowercase the text,
/// compare by characters): ASCII letters fold byte by byte, and no other
/// character can lowercase or canonically decompose to ASCII except the four
/// it refuses to judge (U+0130 İ, U+212A Kelvin sign, U+037E Greek question
/// mark, U+1FEF Greek varia). A match touching a non-ASCII character (which
/// could be a combining mark joined to it, or a letter before a word start)
/// is left to the Unicode rules as well, unless another match is certain.
enum ASCIIMatch {
    /// Whether the lowercase `needle` occurs in `text` ignoring ASCII case
    /// (at the start of a word when `atWordStart`: after no letter or digit).
    /// Nil when the bytes cannot tell (see above) or the needle is not
    /// lowercase ASCII: the caller must use Unicode rules instead.
    static func find(_ needle: String, in text: String, atWordStart: Bool) -> Bool? {
        let result: Bool?? = needle.utf8.withContiguousStorageIfAvailable { n in
            text.utf8.withContiguousStorageIfAvailable { h in
                find(n, in: h, atWordStart: atWordStart)
            } ?? nil
        }
        return result ?? nil
    }

    /// ``find(_:in:atWordStart:)`` on bytes (SQLite's own, for `tick_search`).
    static func find(_ n: UnsafeBufferPointer<UInt8>, in h: UnsafeBufferPointer<UInt8>, atWordStart: Bool) -> Bool? {
        guard !n.isEmpty, n.allSatisfy({ $0 < 0x80 && !(0x41...0x5A).contains($0) }) else { return nil }
        let ascii = h.allSatisfy { $0 < 0x80 }
        if !ascii, hasASCIIFoldingCharacter(h) { return nil }
        guard h.count >= n.count else { return false }
        let first = n[0]
        var uncertain = false
        for i in 0...(h.count - n.count) where lower(h[i]) == first {
            var j = 1
            while j < n.count, lower(h[i + j]) == n[j] { j += 1 }
            guard j == n.count else { continue }
            let end = i + n.count
            // Next to a non-ASCII character (a combining mark joined to the match, a
            // letter before a word start, a prepended mark joined to the character
            // before it): Unicode rules decide.
            if !ascii, (end < h.count && h[end] >= 0x80) || (i > 0 && h[i - 1] >= 0x80) || (atWordStart && i > 1 && h[i - 2] >= 0x80) {
                uncertain = true
                continue
            }
            if !atWordStart || i == 0 || !isAlphanumeric(h[i - 1]) { return true }
        }
        return uncertain ? nil : false
    }

    /// Whether `h` holds one of the non-ASCII characters that lowercase or
    /// decompose to ASCII: İ (C4 B0), ; (CD BE), ` (E1 BF AF), K (E2 84 AA).
    private static func hasASCIIFoldingCharacter(_ h: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        while i + 1 < h.count {
            switch (h[i], h[i + 1]) {
            case (0xC4, 0xB0), (0xCD, 0xBE): return true
            case (0xE1, 0xBF) where i + 2 < h.count && h[i + 2] == 0xAF: return true
            case (0xE2, 0x84) where i + 2 < h.count && h[i + 2] == 0xAA: return true
            default: i += 1
            }
        }
        return false
    }

    private static func lower(_ b: UInt8) -> UInt8 {
        (0x41...0x5A).contains(b) ? b | 0x20 : b
    }

    private static func isAlphanumeric(_ b: UInt8) -> Bool {
        (0x30...0x39).contains(b) || (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b)
    }
}
