extension UIState {
    /// The status line when there is no message: sync conflicts, the context,
    /// `live` (the watcher's state, as the caller words it), then the keys of
    /// the focus. `? help` comes first among the row keys, so a 60-column
    /// screen still shows where every key is explained.
    public func hint(live: String) -> String {
        var context = self.context.map { "context \($0) · " } ?? ""
        if conflicts > 0 { context = "\(conflicts) sync conflict\(conflicts == 1 ? "" : "s") pending (tick resolve) · " + context }
        let keys = focus == .input ? mode.hint(contexts: !contextNames.isEmpty)
            : "? help · x done · Space: start/done · e edit · d delete · u undo · q quit"
        return context + live + " · " + keys
    }
}
