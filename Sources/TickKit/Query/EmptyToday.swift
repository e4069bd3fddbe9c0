/// What `tick` (`tick today`) says when nothing is due today: an empty store
/// suggests a first `tick add`; a store with open tasks says how many and
/// where they are; under an active context it never suggests adding (the
/// context may be what hides everything) and names the context instead.
public enum EmptyToday {
    /// The example a first `tick add` is shown with.
    public static let example = "tick add Call the bank due:fri remind:9am"

    /// The line for an empty today view; `openTasks` counts the pending tasks
    /// of the whole store, `context` is the active context's name.
    public static func message(openTasks: Int, context: String?) -> String {
        if let context {
            return openTasks == 0
                ? "Nothing due today in context \(context), and no tasks at all yet."
                : "Nothing due today in context \(context)."
        }
        if openTasks == 0 {
            return "Nothing due today: no tasks yet. Add one with: \(example)"
        }
        return "Nothing due today. \(openTasks) open task\(openTasks == 1 ? "" : "s"): tick list"
    }
}
