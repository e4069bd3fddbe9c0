import FoundationEssentials

/// List colors: six hex digits, written `#rrggbb`.
public enum ColorCode {
    /// Normalizes `#RRGGBB` or `RRGGBB` to `#rrggbb`; nil when it is not a color.
    public static func normalize(_ text: String) -> String? {
        var s = Substring(text.trimmingWhitespace())
        if s.hasPrefix("#") { s = s.dropFirst() }
        guard s.count == 6, s.allSatisfy(\.isHexDigit) else { return nil }
        return "#" + s.lowercased()
    }

    /// A pleasant default color picked from a fixed palette by name.
    public static func `default`(for name: String) -> String {
        let palette = ["#3b82f6", "#10b981", "#f59e0b", "#ef4444", "#8b5cf6", "#ec4899", "#14b8a6", "#f97316"]
        let h = FNV1a.hash64(Array(name.utf8))
        return palette[Int(h % UInt64(palette.count))]
    }
}
