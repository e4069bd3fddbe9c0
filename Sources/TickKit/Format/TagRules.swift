/// What a tag may look like.
public enum TagRules {
    /// A reason the tag is invalid, or nil when it is fine.
    public static func problem(with tag: String) -> String? {
        if tag.isEmpty { return "a tag must not be empty" }
        if tag.hasPrefix("+") { return "tags are stored without the leading '+' (found \"\(tag)\")" }
        if hasSpaceOrComma(tag) { return "a tag must not contain spaces or commas (found \"\(tag)\")" }
        return nil
    }

    /// True when the tag has a whitespace or comma character, decided on
    /// the bytes when they are all ASCII (one character each).
    private static func hasSpaceOrComma(_ tag: String) -> Bool {
        var found = false
        for b in tag.utf8 {
            switch b {
            case 0x09...0x0D, 0x20, 0x2C: found = true
            case 0x80...: return tag.contains(where: { $0.isWhitespace || $0 == "," })
            default: continue
            }
        }
        return found
    }
}
