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

    /// Both filters; the line is this one's (a context's filter is reported by its own line).
    public func and(_ other: FilterExpression) -> ParsedFilter {
        ParsedFilter(expression: .both(expression, other), line: line)
    }
}
