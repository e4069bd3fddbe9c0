/// The `/regex/` terms of a filter, compiled once: the matcher and the
/// index's `tick_regexp` SQL function both ask this, so they agree.
public final class FilterRegexes: @unchecked Sendable {
    // Immutable after init; Regex matching reads only.
    private let compiled: [String: Regex<AnyRegexOutput>]

    public init(_ expression: FilterExpression) {
        var compiled: [String: Regex<AnyRegexOutput>] = [:]
        for term in expression.terms {
            if case .regex(let pattern) = term.kind, let regex = try? Regex(pattern).ignoresCase() {
                compiled[pattern] = regex
            }
        }
        self.compiled = compiled
    }

    public var isEmpty: Bool { compiled.isEmpty }

    /// True when the pattern matches the title or the notes, ignoring case.
    public func matches(_ pattern: String, _ title: String, _ notes: String?) -> Bool {
        guard let regex = compiled[pattern] else { return false }
        if (try? regex.firstMatch(in: title)) != nil { return true }
        if let notes, (try? regex.firstMatch(in: notes)) != nil { return true }
        return false
    }
}
