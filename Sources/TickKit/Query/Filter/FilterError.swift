import FoundationEssentials

/// A filter that cannot be read: what is wrong, and where in the line.
public struct FilterError: Error, Sendable, Equatable, TickError {
    public var message: String
    /// The filter as typed (arguments joined by spaces) and the columns of the bad part.
    public var line: String
    public var range: Range<Int>

    public init(_ message: String, line: String, range: Range<Int>) {
        self.message = message
        self.line = line
        self.range = range
    }

    public var kind: FailureKind { .usage }
    public var errorDescription: String? { "filter: " + message }

    /// The message, then the line with a caret under the bad part.
    public var report: String {
        let width = max(1, range.count)
        let caret = String(repeating: " ", count: range.lowerBound) + String(repeating: "^", count: width)
        return "filter: \(message)\n  \(line)\n  \(caret)"
    }
}
