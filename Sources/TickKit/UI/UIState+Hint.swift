extension UIState {
    /// The status line when there is no message: sync conflicts, the context,
    /// `live` (the watcher's state, as the caller words it), then the keys of
    /// the focus. `? help` comes first among the row keys and on the empty
    /// capture line (where `?` and `/` typed first are keys), so a 60-column
    /// screen still shows where every key is explained.
    public func hint(live: String) -> String {
        var context = self.context.map { "context \($0) · " } ?? ""
        if conflicts > 0 { context = "\(conflicts) sync conflict\(conflicts == 1 ? "" : "s") pending (tick resolve) · " + context }
        let keys: String
        switch (focus, mode) {
        case (.rows, _): keys = "? help · x done · Space: start/done · e edit · d delete · u undo · q quit"
        case (.input, .capture) where input.text.isEmpty: keys = "? help · / filter · " + mode.hint(contexts: false)
        case (.input, .filter): keys = filterHint
        case (.input, _): keys = mode.hint(contexts: !contextNames.isEmpty)
        }
        return context + live + " · " + keys
    }
}
