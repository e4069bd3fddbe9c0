/// Where a mouse button was released after pressing it on a task row.
public enum UIDropTarget: Sendable, Equatable {
    /// The n-th visible task row (0 is the top row shown): reorder there.
    case row(Int)
    /// The n-th view tab: reschedule (Today, Upcoming) or move (a list).
    case tab(Int)
    /// Anywhere else: nothing.
    case nowhere
}
