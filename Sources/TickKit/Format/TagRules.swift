/// What a tag may look like.
public enum TagRules {
    /// A reason the tag is invalid, or nil when it is fine.
    public static func problem(with tag: String) -> String? {
        if tag.isEmpty { return "a tag must not be empty" }
        if tag.hasPrefix("+") { return "tags are stored without the leading '+' (found \"\(tag)\")" }
        if tag.contains(where: { $0.isWhitespace || $0 == "," }) { return "a tag must not contain spaces or commas (found \"\(tag)\")" }
        return nil
    }
}
