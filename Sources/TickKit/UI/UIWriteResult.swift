/// The outcome of one write, for the status line.
public struct UIWriteResult: Sendable, Equatable {
    /// The CLI's confirmation line, or its `tick: error: …` line.
    public var message: String
    /// False when the write was refused: the input line keeps its text.
    public var succeeded: Bool

    public init(message: String, succeeded: Bool) {
        self.message = message
        self.succeeded = succeeded
    }
}
