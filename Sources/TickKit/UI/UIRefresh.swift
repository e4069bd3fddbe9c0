import FoundationEssentials

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
    /// Sync conflicts waiting for `tick resolve` (copies, files with markers).
    public var conflicts: Int

    public init(views: [UIView], view: UIView, rows: [ListedTask], context: String? = nil, listNames: [String] = [],
                contextNames: [String] = [], whereabouts: [UUID: String] = [:], conflicts: Int = 0) {
        self.views = views
        self.view = view
        self.rows = rows
        self.context = context
        self.listNames = listNames
        self.contextNames = contextNames
        self.whereabouts = whereabouts
        self.conflicts = conflicts
    }
}
