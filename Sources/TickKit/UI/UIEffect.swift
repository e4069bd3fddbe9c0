import FoundationEssentials

/// A write or a load the terminal layer performs for the state machine.
/// Writes go through the TickKit operation of the command named (store
/// lock, checks, the undo journal and hooks under that command's name).
public enum UIEffect: Sendable, Equatable {
    /// Quick-add words typed in the input line, captured into `view`'s list
    /// (the inbox for date views; due today in Today).
    case add(text: String, view: UIView)
    /// Start, complete or reopen.
    case setState(UUID, TaskState)
    case delete(UUID)
    /// Move the task within its file's manual order.
    case reorder(UUID, ReorderPosition)
    /// Scheduled today (`t`) or tomorrow (`T`).
    case schedule(UUID, UIDay)
    /// Move to a list named as `tick mv` takes it (`inbox` for the inbox).
    case move(UUID, list: String)
    /// Change the task to what the input line says (title and tokens).
    case edit(UUID, text: String)
    /// Edit the task's JSON in `$EDITOR`, as `tick edit ID` does.
    case editInEditor(UUID)
    case undo
    /// Switch the machine-local context (nil: none).
    case setContext(String?)
    /// Load the current view again (the view, the filter or the context changed).
    case load
    case quit
}
