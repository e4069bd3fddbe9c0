import FoundationEssentials

/// What Enter in the input line does.
public enum UIInputMode: Sendable, Equatable {
    /// Captures a new task (the line's normal job).
    case capture
    /// Changes this task to the line's title and tokens (`e`).
    case edit(UUID)
    /// Moves this task to the list named (`m`); Tab completes list names.
    case move(UUID)
    /// Sets the current tab's filter (`/`): the line starts empty, the tab's
    /// filter shown beside it; Enter replaces it, Esc on the empty line clears it.
    case filter
    /// Switches the context (`c`); empty turns it off; Tab completes.
    case context

    /// The prompt before the text.
    public var prompt: String {
        switch self {
        case .capture: return "add"
        case .edit: return "edit"
        case .move: return "move to"
        case .filter: return "filter"
        case .context: return "context"
        }
    }

    /// What the status line says while the line is in this mode and there is no message.
    /// `contexts`: whether any context is defined (for `c`).
    public func hint(contexts: Bool) -> String {
        switch self {
        case .capture: return "Enter adds · Tab: rows"
        case .edit: return "Enter saves the change · Esc cancels"
        case .move: return "a list name (Tab completes; inbox) · Enter moves · Esc cancels"
        case .filter: return "e.g. +tag or pri:must, as tick list takes it · Enter sets this tab's · Esc cancels"
        case .context:
            return contexts ? "a context name (Tab completes) · empty: none · Esc cancels"
                : "no contexts yet: tick context define NAME FILTER · Esc cancels"
        }
    }
}
