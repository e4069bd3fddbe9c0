import FoundationEssentials

/// Everything that can happen to the `tick ui` screen.
public enum UIEvent: Sendable {
    /// A key press.
    case key(UIKey)
    /// Fresh rows of the current view (after a write or a change by another route).
    case refreshed(UIRefresh)
    /// The screen has room for this many task rows.
    case resized(rows: Int)
    /// A click (a button press) on the n-th visible task row (0 is the top
    /// row shown): selects it, and starts a drag.
    case clickedRow(Int)
    /// The button was released: a drag from a row ends there.
    case released(UIDropTarget)
    /// A click on the n-th view tab.
    case clickedTab(Int)
    /// A click on the input line.
    case clickedInput
    /// The mouse wheel: positive is down, in rows.
    case scrolled(Int)
    /// A write finished: its confirmation (one line), or its error line.
    case wrote(UIWriteResult)
    /// A message for the status line that is not a write's outcome (a warning
    /// while loading); the input line is not touched.
    case noted(String)
}
