import FoundationEssentials

/// An error about one line of a multi-line input (`tick add -` reads one
/// task per stdin line): the line's number first, the error's own kind (and
/// so exit status) kept.
public struct InputLineError: Error, TickError {
    public let line: Int
    public let underlying: any TickError

    public init(line: Int, _ underlying: any TickError) {
        self.line = line
        self.underlying = underlying
    }

    public var kind: FailureKind { underlying.kind }
    public var errorDescription: String? { "stdin line \(line): \(underlying.report)" }
}
