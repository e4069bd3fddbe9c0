/// A key press, as the terminal layer decodes it.
public enum UIKey: Sendable, Equatable {
    /// A printable character (letters, digits, space, CJK, emoji).
    case character(Character)
    /// Ctrl with a letter: `.control("a")` is Ctrl-A.
    case control(Character)
    case enter, tab, backTab, escape, backspace, delete
    case up, down, left, right, home, end, pageUp, pageDown
}
