import FoundationEssentials

/// A task proposed for a free block, with the reasons in a few words.
public struct Suggestion: Sendable, Equatable {
    public var task: TaskItem
    /// Short reasons, most important first, e.g. ["must-do", "due tomorrow", "30m fits"].
    public var reasons: [String]
    /// The ranking key, smaller first (exposed for `--json` and tests).
    public var score: [Int]

    public init(task: TaskItem, reasons: [String], score: [Int]) {
        self.task = task
        self.reasons = reasons
        self.score = score
    }

    /// The reasons joined with " · ".
    public var explanation: String { reasons.joined(separator: " · ") }
}
