import FoundationEssentials

/// A command that would silently reopen a done task (`tick start`, `tick
/// edit` through a short id): refused, and nothing changed. A done task keeps
/// its short id for a day, so `tick 1 start` typed for what the last listing
/// showed (or the series whose occurrence was just completed) would
/// otherwise reopen the done one (issue 46).
public struct DoneTaskError: Error, LocalizedError, Sendable, Equatable {
    /// The command's name (`start`, `edit`).
    public var command: String
    /// The done task as the user named it (its short id or UUID prefix), and its title.
    public var reference: String
    public var title: String
    /// Its 8-digit UUID prefix.
    public var prefix: String
    /// True when naming it by its UUID prefix does what was asked without reopening (edit).
    public var prefixWorks: Bool

    public var errorDescription: String? {
        var text = "\(reference) is done (\(TextRules.visible(title))); nothing changed; "
            + "`tick \(command) --reopen \(reference)` reopens it first"
        if prefixWorks { text += ", and `tick \(command) \(prefix) …` changes it as a done task" }
        return text
    }
}

extension DoneTaskError: TickError {
    public var kind: FailureKind { .failure }
}
