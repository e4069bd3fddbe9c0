@_spi(_Unicode) import Swift

/// Case-, accent- and width-insensitive folding, as Foundation's
/// `folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)`
/// gave it through ICU, on the standard library's Unicode tables: fullwidth
/// ASCII to ASCII, full case folding (lowercase of the uppercase: `ß` is
/// `ss`, `ﬁ` is `fi`), then the canonical decomposition without its
/// non-spacing marks (`é` is `e`, `İ` is `i`). Hangul syllables stay whole.
/// Used for the order of lists; see DECISIONS.md for the edges that differ.
public enum TextFolding {
    /// The folded text.
    public static func fold(_ text: some StringProtocol) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            // ASCII folds to itself, A–Z to a–z (no decomposition, no marks).
            if scalar.isASCII {
                out.append(scalar.value >= 0x41 && scalar.value <= 0x5A ? Unicode.Scalar(UInt8(scalar.value + 0x20)) : scalar)
                continue
            }
            var s = scalar
            if (0xFF01...0xFF5E).contains(s.value), let narrow = Unicode.Scalar(s.value - 0xFEE0) { s = narrow }
            if (0xAC00...0xD7A3).contains(s.value) {
                out.append(s)
                continue
            }
            let cased = s.properties.changesWhenCaseFolded ? s.properties.uppercaseMapping.lowercased() : String(s)
            for decomposed in cased._nfd where decomposed.properties.generalCategory != .nonspacingMark {
                out.append(decomposed)
            }
        }
        return String(out)
    }

    /// The canonical composition (NFC) of `text`, as Foundation's
    /// `precomposedStringWithCanonicalMapping` gave it.
    public static func nfc(_ text: String) -> String {
        String(decoding: text._nfcCodeUnits, as: UTF8.self)
    }
}
