/// A filter as parsed, with the line it was read from (for errors that point into it).
public struct ParsedFilter: Sendable, Equatable {
    public var expression: FilterExpression
    public var line: String

    public init(expression: FilterExpression, line: String) {
        self.expression = expression
        self.line = line
    }

    /// The empty filter: every task.
    public static let all = ParsedFilter(expression: .all, line: "")

    /// An error about one term, pointing at it.
    public func error(_ message: String, at term: FilterTerm) -> FilterError {
        FilterError(message, line: line, range: term.range)
    }

    /// Both filters, as one: `other`'s terms are moved behind this line, in
    /// parentheses after `label` (`+a (context work: +work or list:Work)`), so
    /// an error about either points into the line shown.
    public func and(_ other: ParsedFilter, label: String) -> ParsedFilter {
        if case .all = other.expression { return self }
        let prefix = (line.isEmpty ? "" : line + " ") + "(" + label + ": "
        let shift = prefix.count
        return ParsedFilter(expression: .both(expression, other.expression.shifted(by: shift)), line: prefix + other.line + ")")
    }
}
