import FoundationEssentials

/// File names for lists, derived from their names.
public enum Slug {
    /// A safe file stem for a list name: NFC, lowercased, letters and digits
    /// kept, other runs turned into one `-`, no leading or trailing `-` or `.`,
    /// at most 64 characters; `list` when nothing is left.
    public static func make(from name: String) -> String {
        let normalized = TextFolding.nfc(name).lowercased()
        var out = ""
        var pendingDash = false
        for ch in normalized {
            if ch.isLetter || ch.isNumber {
                if pendingDash, !out.isEmpty { out.append("-") }
                pendingDash = false
                out.append(ch)
            } else {
                pendingDash = true
            }
        }
        var slug = String(out.prefix(64))
        while slug.hasSuffix("-") || slug.hasSuffix(".") { slug.removeLast() }
        return slug.isEmpty ? "list" : slug
    }

    /// True when `slug` is safe to use as a file stem inside `lists/`.
    public static func isSafe(_ slug: String) -> Bool {
        !slug.isEmpty && !slug.hasPrefix(".") && !slug.utf8.contains(0x2F) && !slug.utf8.contains(0) && slug != ".."
    }

    /// The first of `base`, `base-2`, `base-3`, ... not in `taken`.
    public static func unique(_ base: String, taken: Set<String>) -> String {
        if !taken.contains(base) { return base }
        var n = 2
        while taken.contains("\(base)-\(n)") { n += 1 }
        return "\(base)-\(n)"
    }
}
