import FoundationEssentials

/// The outcome of one write, for the status line.
public struct UIWriteResult: Sendable, Equatable {
    /// The write's result in the CLI's confirmation style (warnings after ` — `),
    /// or the `tick: error: …` line the CLI would print.
    public var message: String
    /// False when the write was refused: the input line keeps its text.
    public var succeeded: Bool
    /// The task the write made (a capture): selected when the view shows it.
    public var task: UUID?

    public init(message: String, succeeded: Bool, task: UUID? = nil) {
        self.message = message
        self.succeeded = succeeded
        self.task = task
    }
}
