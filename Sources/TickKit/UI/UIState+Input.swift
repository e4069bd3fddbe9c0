import FoundationEssentials

extension UIState {
    /// Keys while the input line has the focus.
    mutating func inputKey(_ key: UIKey) -> [UIEffect] {
        if let effects = filterLineKey(key) { return effects }
        if mode == .capture, input.text.isEmpty {
            // Typed first on the capture line, `/` filters (as in vim and less:
            // never a task titled "/…"; `//` types a slash) and `?` is the help.
            switch key {
            case .character("/"):
                beginFilter(fromCapture: true)
                return []
            case .character("?"):
                showHelp = true
                return []
            default:
                break
            }
        }
        switch key {
        case .character(let c): input.insert(c)
        case .backspace, .control("h"): input.backspace()
        case .delete, .control("d"): input.deleteForward()
        case .left, .control("b"): input.left()
        case .right, .control("f"): input.right()
        case .home, .control("a"): input.home()
        case .end, .control("e"): input.end()
        case .control("u"): input.killToStart()
        case .control("k"): input.killToEnd()
        case .control("w"): input.deleteWord()
        case .enter: return submit()
        case .tab:
            if !complete() { focus = .rows }
        case .backTab:
            focus = .rows
        case .escape:
            if mode != .capture {
                finishMode()
                status = "Cancelled."
            }
            focus = .rows
        case .down, .up, .pageUp, .pageDown:
            // The arrows leave the line for the rows, where they move.
            focus = .rows
            return rowKey(key)
        default:
            break
        }
        return []
    }

    /// Enter: what the line means in its mode.
    mutating func submit() -> [UIEffect] {
        let text = input.text.trimmingWhitespace()
        switch mode {
        case .capture:
            guard !text.isEmpty else {
                status = "Type a task (quick-add words: due:fri +tag pri:must) and press Enter; Tab goes to the rows."
                return []
            }
            awaiting = .capture
            return [.add(text: text, view: view)]
        case .edit(let id):
            guard !text.isEmpty else {
                status = "A task needs a title; Esc cancels the edit."
                return []
            }
            awaiting = mode
            return [.edit(id, text: text)]
        case .move(let id):
            guard !text.isEmpty else {
                status = "Type a list name (Tab completes; inbox for the inbox); Esc cancels."
                return []
            }
            awaiting = mode
            return [.move(id, list: text)]
        case .filter:
            return submitFilter(text)
        case .context:
            awaiting = mode
            loadedView = nil
            return [.setContext(text.isEmpty ? nil : text)]
        }
    }

    /// Tab in the move and context modes: completes the name typed so far
    /// (case-insensitive prefix) to the longest prefix the candidates share.
    /// Returns false when there is nothing to complete in this mode.
    mutating func complete() -> Bool {
        let names: [String]
        switch mode {
        case .move: names = ["inbox"] + listNames.filter { $0.lowercased() != "inbox" }
        case .context: names = contextNames
        default: return false
        }
        let typed = input.text.lowercased()
        let matches = names.filter { $0.lowercased().hasPrefix(typed) }
        guard let first = matches.first else {
            if names.isEmpty {
                status = "No contexts yet: define one with tick context define NAME FILTER."
                return true
            }
            status = "No \(mode == .context ? "context" : "list") starts with \"\(input.text)\"."
            return true
        }
        var common = first
        for m in matches.dropFirst() {
            while !m.lowercased().hasPrefix(common.lowercased()) { common.removeLast() }
        }
        if common.count >= input.text.count { input = UIInput(common) }
        status = matches.count == 1 ? "" : matches.joined(separator: "  ")
        return true
    }
}
