/// The `?` screen of `tick ui`: every key, each line at most ``width`` cells
/// so it reads whole on an 80-column terminal.
public enum UIHelp {
    /// The widest a line may be (drawn from the second column of an 80-column screen).
    public static let width = 78

    /// The lines, in the order shown.
    public static let lines = [
        "Input line: type quick-add words (due:fri +tag pri:must list:Work), Enter",
        "  adds.  Tab/Esc: to the rows   a or Tab: back   Ctrl-A/E/U/K/W: edit the line",
        "  Typed first on the empty line: / filters (// types a slash), ? this help",
        "Rows: j/k or arrows move   PgUp/PgDn   g/G first/last",
        "  1-9, 0: tabs 1-10   h/l, [/], ←/→, Shift-Tab: previous/next tab (wraps)",
        "  x: done (again: open)   Space: open → active → done → open   Enter: details",
        "  e: edit in the line   E: edit in $EDITOR   d: delete   u: undo",
        "  J/K: move down/up in the list's order   m: move to a list (Tab completes)",
        "  t/T: scheduled today/tomorrow   i: to the inbox",
        "  /: this tab's filter, as tick list takes it (Esc on the empty line: off)",
        "  c: context (Tab completes; empty: none)   r: reload   q or Ctrl-C: quit",
        "Mouse: click selects, the wheel scrolls; drag onto a row reorders,",
        "  onto a tab schedules (Today, Upcoming) or moves (a list).",
        "? or Esc closes this help.",
    ]
}
