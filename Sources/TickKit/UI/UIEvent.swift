import Foundation

/// Everything that can happen to the `tick ui` screen.
public enum UIEvent: Sendable {
    /// A key press.
    case key(UIKey)
    /// Fresh rows of the current view (after a write or a change by another route).
    case refreshed(UIRefresh)
    /// The screen has room for this many task rows.
    case resized(rows: Int)
    /// A click on the n-th visible task row (0 is the top row shown).
    case clickedRow(Int)
    /// A click on the n-th view tab.
    case clickedTab(Int)
    /// A click on the input line.
    case clickedInput
    /// The mouse wheel: positive is down, in rows.
    case scrolled(Int)
    /// A write finished: what the CLI printed (one line), or its error text.
    case wrote(UIWriteResult)
}

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

/// The rows of the current view, as loaded by the terminal layer.
public struct UIRefresh: Sendable {
    /// The tabs: inbox, today, upcoming, then each list.
    public var views: [UIView]
    /// The view these rows are of.
    public var view: UIView
    /// The tasks of that view, in display order.
    public var rows: [ListedTask]
    /// The active context's name, if one is on.
    public var context: String?
    /// List names for completion after `m`.
    public var listNames: [String]
    /// Context names for completion after `c`.
    public var contextNames: [String]
    /// Where tasks that left the view went ("was completed", "moved to Work"),
    /// for the status line; missing means deleted.
    public var whereabouts: [UUID: String]

    public init(views: [UIView], view: UIView, rows: [ListedTask], context: String? = nil, listNames: [String] = [],
                contextNames: [String] = [], whereabouts: [UUID: String] = [:]) {
        self.views = views
        self.view = view
        self.rows = rows
        self.context = context
        self.listNames = listNames
        self.contextNames = contextNames
        self.whereabouts = whereabouts
    }
}
