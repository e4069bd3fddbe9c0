extension UIState {
    /// The current tab's filter.
    public var filter: String { filter(of: view) }

    /// The filter of the tab showing `view`.
    public func filter(of view: UIView) -> String { filters[Self.filterKey(view)] ?? startFilter }

    /// A tab's filter is kept under its view, a list's under its file (so it
    /// stays with the list when the list is renamed).
    static func filterKey(_ view: UIView) -> UIView {
        if case .list(let kind, _) = view { return .list(kind, name: "") }
        return view
    }

    /// Shown dimmed after the text of the input line: the filter the line
    /// replaces, while the filter line is open on a filtered tab.
    public var inputAside: String? {
        guard mode == .filter, !filter.isEmpty else { return nil }
        return "(filter: \(filter))"
    }

    /// `/`: opens an empty filter line for the current tab (its filter is
    /// shown beside the line, ``inputAside``). `fromCapture`: typed first on
    /// the capture line, where a second `/` types a slash instead.
    mutating func beginFilter(fromCapture: Bool) {
        begin(.filter, text: "")
        filterFromCapture = fromCapture
    }

    /// Keys the filter line takes before the line editing does: a `/` on the
    /// empty line opened from the capture line (the capture line back, with
    /// a slash typed: `//x` captures "/x"), Esc (on an empty line: the tab's
    /// filter off; with text typed: cancel) and Backspace on an empty line
    /// (cancel, back where `/` was typed). Nil for any other key.
    mutating func filterLineKey(_ key: UIKey) -> [UIEffect]? {
        guard mode == .filter else { return nil }
        switch key {
        case .character("/") where filterFromCapture && input.text.isEmpty:
            finishMode()
            input.insert("/")
            status = ""
            return []
        case .escape:
            if input.isBlank { return setFilter("") }
            finishMode()
            focus = .rows
            status = "Cancelled; the filter is as it was."
            return []
        case .backspace, .control("h"):
            guard input.text.isEmpty else { return nil }
            let back: UIFocus = filterFromCapture ? .input : .rows
            finishMode()
            focus = back
            status = ""
            return []
        default:
            return nil
        }
    }

    /// Enter on the filter line: what is typed becomes the current tab's
    /// filter; an empty line keeps the filter as it was.
    mutating func submitFilter(_ text: String) -> [UIEffect] {
        guard !text.isEmpty else {
            finishMode()
            focus = .rows
            status = filter.isEmpty ? "No filter on \(view.title)."
                : "Kept \(view.title)'s filter: \(filter) (/ then Esc clears it)."
            return []
        }
        return setFilter(text)
    }

    /// Sets the current tab's filter (empty: none) and loads the tab again.
    mutating func setFilter(_ text: String) -> [UIEffect] {
        let had = filter
        filters[Self.filterKey(view)] = text
        loadedView = nil
        finishMode()
        focus = .rows
        if text.isEmpty {
            status = had.isEmpty ? "No filter on \(view.title)." : "Filter off on \(view.title)."
            return had.isEmpty ? [] : [.load]
        }
        status = "Filter on \(view.title): \(text)"
        return [.load]
    }

    /// The status line's words while the filter line is open.
    var filterHint: String {
        guard input.text.isEmpty else {
            return "Enter: \(view.title)'s filter · Esc cancels"
        }
        let again = filterFromCapture ? " · / again types a slash" : ""
        guard !filter.isEmpty else {
            return "a filter for \(view.title), as tick list takes it (+tag pri:must)\(again) · Esc cancels"
        }
        return "a new filter for \(view.title) · Enter keeps it · Esc clears it\(again)"
    }
}
