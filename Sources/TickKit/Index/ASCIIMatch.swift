/// Case-insensitive substring search over ASCII bytes, without Foundation:
/// the fast path of ``SearchQuery``'s matching.
enum ASCIIMatch {
    /// Whether the lowercase `needle` occurs in `text` ignoring ASCII case
    /// (at the start of a word when `atWordStart`: after no letter or digit).
    /// Nil when either is not plain ASCII (or not contiguous UTF-8), so the
    /// caller must use Unicode rules instead.
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
        guard !n.isEmpty, n.allSatisfy({ $0 < 0x80 && !(0x41...0x5A).contains($0) }),
              h.allSatisfy({ $0 < 0x80 }) else { return nil }
        guard h.count >= n.count else { return false }
        let first = n[0]
        for i in 0...(h.count - n.count) where lower(h[i]) == first {
            var j = 1
            while j < n.count, lower(h[i + j]) == n[j] { j += 1 }
            if j == n.count, !atWordStart || i == 0 || !isAlphanumeric(h[i - 1]) { return true }
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
