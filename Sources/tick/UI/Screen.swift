import CNcursesw
import FoundationEssentials
import Glibc
import TickKit

/// The terminal, through ncursesw: set-up and tear-down, keys and mouse,
/// and drawing text at a place with an attribute. Knows nothing of tasks.
final class Screen {
    /// What the terminal sent.
    enum Input {
        case key(UIKey)
        case resize
        case click(y: Int, x: Int)
        case release(y: Int, x: Int)
        case wheel(Int)
    }

    /// Looks of a piece of text (mapped to attributes, or none with NO_COLOR).
    enum Look {
        case plain, bold, dim, reverse, overdue, active, accent
    }

    private let screen: OpaquePointer?
    private let color: Bool

    /// Opens the terminal on `ttyFD` (output) and stdin (keys).
    init(ttyFD: Int32, noColor: Bool, term: String?) throws {
        // ncursesw decodes UTF-8 only under a UTF-8 locale.
        setlocale(LC_ALL, "")
        if String(cString: nl_langinfo(nl_item(CODESET))) != "UTF-8" { setlocale(LC_CTYPE, "C.UTF-8") }
        guard let out = fdopen(dup(ttyFD), "w"), let inp = fdopen(dup(STDIN_FILENO), "r") else {
            throw CLIError("cannot open the terminal: \(String(cString: strerror(errno)))")
        }
        guard let screen = newterm(nil, out, inp) else {
            throw CLIError("cannot start the terminal UI: TERM=\(term ?? "") is not a terminal type this system knows (try TERM=xterm-256color)", status: .usage)
        }
        self.screen = screen
        set_term(screen)
        raw()
        noecho()
        nonl()
        keypad(tick_stdscr(), true)
        nodelay(tick_stdscr(), true)
        set_escdelay(25)
        curs_set(1)
        mousemask(tick_all_mouse_events(), nil)
        mouseinterval(0)
        color = !noColor && has_colors()
        if color {
            start_color()
            // The terminal's own palette and background: light and dark themes both read.
            use_default_colors()
            init_pair(1, Int16(COLOR_RED), -1)
            init_pair(2, Int16(COLOR_CYAN), -1)
            init_pair(3, Int16(COLOR_MAGENTA), -1)
        }
    }

    /// Gives the terminal back as it was.
    func end() {
        endwin()
        if let screen { delscreen(screen) }
    }

    /// Leaves curses mode for a program that needs the terminal (`$EDITOR`).
    func suspend() {
        def_prog_mode()
        endwin()
    }

    /// Comes back after ``suspend()``.
    func resume() {
        reset_prog_mode()
        refresh()
    }

    var rows: Int { Int(tick_curses_lines()) }
    var columns: Int { Int(tick_curses_cols()) }

    /// Every key and mouse event waiting, without blocking.
    func pending() -> [Input] {
        var inputs: [Input] = []
        while true {
            var ch: wint_t = 0
            let r = tick_get_wch(&ch)
            if r == ERR { break }
            if r == KEY_CODE_YES {
                inputs += function(Int32(ch))
            } else if let key = Self.character(UInt32(ch)) {
                inputs.append(.key(key))
            }
        }
        return inputs
    }

    private func function(_ code: Int32) -> [Input] {
        switch code {
        case tick_key_resize(): return [.resize]
        case tick_key_mouse(): return mouseEvents()
        default: return key(code).map { [$0] } ?? []
        }
    }

    /// Every mouse event of the run behind one KEY_MOUSE, oldest first.
    ///
    /// ncurses reads the reports that are already waiting as one run and
    /// returns KEY_MOUSE once for it; `getmouse` then hands out the run's
    /// events newest first, one per call. Reading only one loses the others:
    /// a quick drag (press and release in one read) lost its press. And a
    /// press and release at one place in one run come merged as
    /// `BUTTON1_CLICKED`, which is both.
    private func mouseEvents() -> [Input] {
        var newestFirst: [[Input]] = []
        var event = MEVENT()
        while getmouse(&event) == OK {
            let y = Int(event.y), x = Int(event.x)
            var inputs: [Input] = []
            if event.bstate & tick_button4_pressed() != 0 { inputs.append(.wheel(-3)) }
            if tick_button5_pressed() != 0, event.bstate & tick_button5_pressed() != 0 { inputs.append(.wheel(3)) }
            if event.bstate & (tick_button1_pressed() | tick_button1_clicked()) != 0 { inputs.append(.click(y: y, x: x)) }
            if event.bstate & (tick_button1_released() | tick_button1_clicked()) != 0 { inputs.append(.release(y: y, x: x)) }
            newestFirst.append(inputs)
        }
        return newestFirst.reversed().flatMap { $0 }
    }

    private func key(_ code: Int32) -> Input? {
        switch code {
        case KEY_UP: return .key(.up)
        case KEY_DOWN: return .key(.down)
        case KEY_LEFT: return .key(.left)
        case KEY_RIGHT: return .key(.right)
        case KEY_HOME: return .key(.home)
        case KEY_END: return .key(.end)
        case KEY_NPAGE: return .key(.pageDown)
        case KEY_PPAGE: return .key(.pageUp)
        case KEY_BACKSPACE: return .key(.backspace)
        case KEY_DC: return .key(.delete)
        case KEY_BTAB: return .key(.backTab)
        case KEY_ENTER: return .key(.enter)
        default: return nil
        }
    }

    /// A character code as a key: Enter, Tab, Esc, Backspace, Ctrl-letters, printable text.
    static func character(_ code: UInt32) -> UIKey? {
        switch code {
        case 10, 13: return .enter
        case 9: return .tab
        case 27: return .escape
        case 8, 127: return .backspace
        case 1...26: return .control(Character(Unicode.Scalar(code + 96) ?? "a"))
        case 0..<32: return nil
        default:
            guard let scalar = Unicode.Scalar(code) else { return nil }
            return .character(Character(scalar))
        }
    }

    // MARK: Drawing

    /// Starts a frame.
    func clear() { erase() }

    /// Draws `text` at row `y`, column `x`, cut to the screen's width.
    /// `text` must already be safe (``Terminal/shown(_:keepingNewlines:)`` or ``TextRules/visible(_:keepingNewlines:)``).
    func draw(_ text: String, y: Int, x: Int, look: Look = .plain, width: Int? = nil) {
        guard y >= 0, y < rows, x < columns else { return }
        let room = min(width ?? columns - x, columns - x)
        guard room > 0 else { return }
        let safe = TextRules.visible(text).replacingAll("\t", with: " ")
        let cut = CellWidth.truncated(safe, to: room)
        let attr = attribute(look)
        if attr != 0 { _ = tick_attr_on(attr) }
        _ = cut.withCString { tick_draw(Int32(y), Int32(x), $0, -1) }
        if attr != 0 { _ = tick_attr_off(attr) }
    }

    /// Fills row `y` from `x` to the right edge with `look` (a bar).
    func bar(y: Int, from x: Int = 0, look: Look) {
        guard columns - x > 0 else { return }
        draw(String(repeating: " ", count: columns - x), y: y, x: x, look: look)
    }

    /// Puts the cursor at (y, x), shown or hidden, and shows the frame.
    func finish(cursorAt position: (y: Int, x: Int)?) {
        if let position {
            curs_set(1)
            move(Int32(position.y), Int32(position.x))
        } else {
            curs_set(0)
        }
        refresh()
    }

    private func attribute(_ look: Look) -> chtype {
        switch look {
        case .plain: return 0
        case .bold: return tick_attr_bold()
        case .dim: return color ? tick_attr_dim() : 0
        case .reverse: return tick_attr_reverse()
        case .overdue: return color ? tick_color_pair(1) | tick_attr_bold() : tick_attr_bold()
        case .active: return tick_attr_bold()
        case .accent: return color ? tick_color_pair(2) : 0
        }
    }
}
