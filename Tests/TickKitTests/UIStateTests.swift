import Foundation
import Testing
@testable import TickKit

/// The `tick ui` state machine, driven by events without a terminal.
@Suite struct UIStateTests {
    let now = Timestamp.parse("2026-11-21T09:00:00Z")!
    let utc = Zone(named: "UTC")!
    let work = UIView.list(.list(slug: "work"), name: "Work")

    func item(_ title: String, in kind: FileKind = .list(slug: "work"), state: TaskState = .open) -> ListedTask {
        ListedTask(task: TaskItem(id: UUID(), title: title, state: state, createdAt: now, modifiedAt: now),
                   kind: kind, listName: kind == .inbox ? "Inbox" : "Work", shortID: nil)
    }

    /// A state showing `rows` in the Work list view, rows focused.
    func showing(_ rows: [ListedTask], focus: Bool = true) -> UIState {
        var state = UIState(timeZone: utc, view: .today)
        _ = state.handle(.refreshed(UIRefresh(views: [.inbox, .today, .upcoming, work], view: .today, rows: [])))
        _ = state.handle(.clickedTab(3))
        _ = state.handle(.refreshed(UIRefresh(views: [.inbox, .today, .upcoming, work], view: work, rows: rows, listNames: ["Work", "Home"])))
        if focus { _ = state.handle(.key(.tab)) }
        return state
    }

    func type(_ text: String, into state: inout UIState) -> [UIEffect] {
        text.flatMap { state.handle(.key(.character($0))) }
    }

    @Test("the input line has the focus on open; typing and Enter captures into the current view, and the line empties only when the write succeeded")
    func capture() {
        var state = UIState(timeZone: utc, view: .today)
        #expect(state.focus == .input)
        #expect(type("Buy milk due:fri", into: &state).isEmpty)
        #expect(state.input.text == "Buy milk due:fri")
        let effects = state.handle(.key(.enter))
        #expect(effects == [.add(text: "Buy milk due:fri", view: .today)])
        _ = state.handle(.noted("tick: warning: lists/work.json:3:1: … (showing its last readable tasks)"))
        #expect(state.input.text == "Buy milk due:fri", "a warning while loading is not the capture's outcome")
        _ = state.handle(.wrote(UIWriteResult(message: "tick: error: due: \"fri\" …", succeeded: false)))
        #expect(state.input.text == "Buy milk due:fri", "a refused capture keeps its text to fix")
        _ = state.handle(.key(.enter))
        _ = state.handle(.wrote(UIWriteResult(message: "Added 4 (3f2a9c1e) to Inbox: Buy milk", succeeded: true)))
        #expect(state.input.text.isEmpty)
        #expect(state.status == "Added 4 (3f2a9c1e) to Inbox: Buy milk")
    }

    @Test("a captured task is selected once the view shows it")
    func captureSelects() {
        let a = item("A"), b = item("B")
        var state = showing([a], focus: false)
        _ = type("B", into: &state)
        #expect(state.handle(.key(.enter)) == [.add(text: "B", view: work)])
        _ = state.handle(.refreshed(UIRefresh(views: state.views, view: work, rows: [a, b])))
        #expect(state.selected == a.task.id)
        _ = state.handle(.wrote(UIWriteResult(message: "Added 2 (…) to Work: B", succeeded: true, task: b.task.id)))
        #expect(state.selected == b.task.id)
        #expect(state.focus == .input, "the line keeps the focus for the next capture")
    }

    @Test("what is typed survives refreshes, a change of focus and a view switch")
    func inputKeptAcrossRefreshes() {
        let a = item("A")
        var state = showing([a], focus: false)
        _ = type("half typed", into: &state)
        _ = state.handle(.key(.left))
        _ = state.handle(.key(.character("!")))
        _ = state.handle(.refreshed(UIRefresh(views: [.inbox, .today, .upcoming, work], view: work, rows: [a, item("B")])))
        #expect(state.input.text == "half type!d")
        #expect(state.input.cursor == 10)
        _ = state.handle(.key(.escape))
        #expect(state.focus == .rows)
        _ = state.handle(.key(.character("l")))
        _ = state.handle(.key(.character("a")))
        #expect(state.focus == .input)
        #expect(state.input.text == "half type!d")
    }

    @Test("j/k, arrows, g/G and PgUp/PgDn move the selection by UUID and stay in bounds")
    func navigation() {
        let rows = (1...30).map { item("T\($0)") }
        var state = showing(rows)
        _ = state.handle(.resized(rows: 10))
        #expect(state.selected == rows[0].task.id)
        _ = state.handle(.key(.character("j")))
        _ = state.handle(.key(.down))
        #expect(state.selected == rows[2].task.id)
        _ = state.handle(.key(.character("k")))
        #expect(state.selected == rows[1].task.id)
        _ = state.handle(.key(.pageDown))
        #expect(state.selected == rows[11].task.id)
        #expect(state.top == 2, "the selected row is scrolled into view")
        _ = state.handle(.key(.character("G")))
        #expect(state.selected == rows[29].task.id)
        _ = state.handle(.key(.character("j")))
        #expect(state.selected == rows[29].task.id)
        _ = state.handle(.key(.pageUp))
        #expect(state.selected == rows[19].task.id)
        _ = state.handle(.key(.character("g")))
        #expect(state.selected == rows[0].task.id)
        #expect(state.top == 0)
        _ = state.handle(.clickedRow(4))
        #expect(state.selected == rows[4].task.id)
        _ = state.handle(.scrolled(3))
        #expect(state.selected == rows[7].task.id)
    }

    @Test("Space cycles open → active → done → open")
    func spaceCycles() {
        let a = item("A")
        var state = showing([a])
        #expect(state.handle(.key(.character(" "))) == [.setState(a.task.id, .active)])
        var started = a
        started.task.state = .active
        _ = state.handle(.refreshed(UIRefresh(views: state.views, view: work, rows: [started])))
        #expect(state.handle(.key(.character(" "))) == [.setState(a.task.id, .done)])
        var done = a
        done.task.state = .done
        _ = state.handle(.refreshed(UIRefresh(views: state.views, view: work, rows: [done])))
        #expect(state.handle(.key(.character(" "))) == [.setState(a.task.id, .open)])
    }

    @Test("J puts the task after the next one of its file, K before the previous; at the end nothing is written")
    func reorder() {
        let inbox = item("In inbox", in: .inbox)
        let a = item("A"), b = item("B"), c = item("C")
        var state = showing([a, inbox, b, c])
        #expect(state.handle(.key(.character("J"))) == [.reorder(a.task.id, .after(b.task.id))], "the inbox task in between is another file")
        _ = state.handle(.key(.character("G")))
        #expect(state.handle(.key(.character("K"))) == [.reorder(c.task.id, .before(b.task.id))])
        #expect(state.handle(.key(.character("J"))).isEmpty)
        #expect(state.status.contains("last"))
        _ = state.handle(.key(.character("g")))
        #expect(state.handle(.key(.character("K"))).isEmpty)
    }

    @Test("in Today, J/K pass only the adjacent task of the same list and date (the order the view shows); otherwise they say why and write nothing")
    func reorderInToday() {
        var a = item("A"), b = item("B"), c = item("C"), d = item("D", in: .inbox)
        let today = LocalDate(date: now, timeZone: utc)
        a.task.due = .day(today)
        b.task.due = .day(today)
        c.task.due = .day(today.adding(days: 1))
        d.task.due = .day(today.adding(days: 1))
        var state = UIState(timeZone: utc, view: .today)
        _ = state.handle(.refreshed(UIRefresh(views: [.inbox, .today, .upcoming, work], view: .today, rows: [a, b, c, d])))
        _ = state.handle(.key(.tab))
        #expect(state.handle(.key(.character("J"))) == [.reorder(a.task.id, .after(b.task.id))])
        _ = state.handle(.key(.character("j")))
        #expect(state.handle(.key(.character("J"))).isEmpty, "C is due another day: the view would not show the move")
        #expect(state.status.contains("ordered by date"))
        _ = state.handle(.key(.character("j")))
        #expect(state.handle(.key(.character("J"))).isEmpty, "D is in another file")
    }

    @Test("a refresh keeps the selection on its task when it moved within the view")
    func refreshKeepsSelection() {
        let a = item("A"), b = item("B"), c = item("C")
        var state = showing([a, b, c])
        _ = state.handle(.key(.character("j")))
        #expect(state.selected == b.task.id)
        _ = state.handle(.refreshed(UIRefresh(views: state.views, view: work, rows: [b, c, a])))
        #expect(state.selected == b.task.id)
        #expect(state.selectedIndex == 0)
        #expect(state.status.isEmpty)
    }

    @Test("when the selected task leaves the view, its neighbour is selected and the status line says why")
    func refreshAfterDeletion() {
        let a = item("A"), b = item("B"), c = item("C")
        var state = showing([a, b, c])
        _ = state.handle(.key(.character("j")))
        _ = state.handle(.refreshed(UIRefresh(views: state.views, view: work, rows: [a, c])))
        #expect(state.selected == c.task.id, "the next task takes the selection")
        #expect(state.status == "\"B\" was deleted; selected the next task.")
        _ = state.handle(.refreshed(UIRefresh(views: state.views, view: work, rows: [a], whereabouts: [c.task.id: "moved to Home"])))
        #expect(state.selected == a.task.id, "without a next task, the previous one")
        #expect(state.status == "\"C\" moved to Home; selected the next task.")
        _ = state.handle(.refreshed(UIRefresh(views: state.views, view: work, rows: [])))
        #expect(state.selected == nil)
        #expect(state.status == "\"A\" was deleted.")
    }

    @Test("when the list shown is deleted elsewhere, the screen falls back to the view the loader chose and says so")
    func listGone() {
        let a = item("A")
        var state = showing([a])
        let today = item("Due", in: .inbox)
        _ = state.handle(.refreshed(UIRefresh(views: [.inbox, .today, .upcoming], view: .today, rows: [today])))
        #expect(state.view == .today)
        #expect(state.rows.map(\.task.id) == [today.task.id])
        #expect(state.selected == today.task.id)
        #expect(state.status == "Work is gone; showing Today.")
    }

    @Test("row keys produce the writes: d deletes, t/T schedule, i sends to the inbox, E opens the editor, u undoes, q quits")
    func taskKeys() {
        let a = item("A")
        var state = showing([a])
        let id = a.task.id
        #expect(state.handle(.key(.character("d"))) == [.delete(id)])
        #expect(state.handle(.key(.character("t"))) == [.schedule(id, .today)])
        #expect(state.handle(.key(.character("T"))) == [.schedule(id, .tomorrow)])
        #expect(state.handle(.key(.character("i"))) == [.move(id, list: "inbox")])
        #expect(state.handle(.key(.character("E"))) == [.editInEditor(id)])
        #expect(state.handle(.key(.character("u"))) == [.undo])
        #expect(state.handle(.key(.character("q"))) == [.quit])
        var empty = showing([])
        #expect(empty.handle(.key(.character("d"))).isEmpty)
        #expect(empty.status == "No task selected.")
    }

    @Test("e opens the task in the input line as quick-add words; Enter edits it; Esc gives back the capture text")
    func editInLine() {
        var a = item("Call due:maybe")
        a.task.due = .day(LocalDate(iso: "2026-11-27")!)
        a.task.priority = .must
        a.task.tags = ["phone"]
        var state = showing([a], focus: false)
        _ = type("draft", into: &state)
        _ = state.handle(.key(.tab))
        _ = state.handle(.key(.character("e")))
        #expect(state.focus == .input)
        #expect(state.mode == .edit(a.task.id))
        #expect(state.input.text == "Call \\due:maybe due:2026-11-27 pri:must +phone")
        _ = type(" +home", into: &state)
        #expect(state.handle(.key(.enter)) == [.edit(a.task.id, text: "Call \\due:maybe due:2026-11-27 pri:must +phone +home")])
        _ = state.handle(.wrote(UIWriteResult(message: "Edited", succeeded: true)))
        #expect(state.mode == .capture)
        #expect(state.input.text == "draft")
        _ = state.handle(.key(.escape))
        _ = state.handle(.key(.character("e")))
        _ = state.handle(.key(.escape))
        #expect(state.mode == .capture)
        #expect(state.input.text == "draft")
    }

    @Test("m asks for a list; Tab completes its name; Enter moves")
    func moveWithCompletion() {
        let a = item("A")
        var state = showing([a])
        _ = state.handle(.key(.character("m")))
        #expect(state.mode == .move(a.task.id))
        _ = type("ho", into: &state)
        _ = state.handle(.key(.tab))
        #expect(state.input.text == "Home")
        #expect(state.handle(.key(.enter)) == [.move(a.task.id, list: "Home")])
    }

    @Test("/ sets a filter and reloads; c switches the context; h/l and digits switch views")
    func filterContextViews() {
        var state = showing([item("A")])
        _ = state.handle(.key(.character("/")))
        _ = type("+errand", into: &state)
        #expect(state.handle(.key(.enter)) == [.load])
        #expect(state.filter == "+errand")
        #expect(state.focus == .rows)
        _ = state.handle(.key(.character("c")))
        _ = type("home", into: &state)
        #expect(state.handle(.key(.enter)) == [.setContext("home")])
        _ = state.handle(.key(.escape))
        #expect(state.handle(.key(.character("1"))) == [.load])
        #expect(state.view == .inbox)
        #expect(state.handle(.key(.character("h"))) == [.load])
        #expect(state.view == work, "h wraps around to the last view")
    }

    @Test("the mouse: a drag onto another row of the same list reorders; onto Today, Upcoming or a list's tab reschedules or moves; a click alone only selects")
    func drag() {
        let a = item("A"), b = item("B"), c = item("C")
        var state = showing([a, b, c])
        _ = state.handle(.clickedRow(0))
        #expect(state.handle(.released(.row(0))).isEmpty, "a click writes nothing")
        #expect(state.selected == a.task.id)
        _ = state.handle(.clickedRow(0))
        #expect(state.handle(.released(.row(2))) == [.reorder(a.task.id, .after(c.task.id))])
        _ = state.handle(.clickedRow(2))
        #expect(state.handle(.released(.row(1))) == [.reorder(c.task.id, .before(b.task.id))])
        _ = state.handle(.clickedRow(1))
        #expect(state.handle(.released(.tab(1))) == [.schedule(b.task.id, .today)])
        _ = state.handle(.clickedRow(1))
        #expect(state.handle(.released(.tab(2))) == [.schedule(b.task.id, .tomorrow)])
        _ = state.handle(.clickedRow(1))
        #expect(state.handle(.released(.tab(0))) == [.move(b.task.id, list: "inbox")])
        _ = state.handle(.clickedRow(1))
        #expect(state.handle(.released(.tab(3))).isEmpty, "dropped on its own list")
        _ = state.handle(.clickedRow(1))
        #expect(state.handle(.released(.nowhere)).isEmpty)
        #expect(state.handle(.released(.row(0))).isEmpty, "no drag after the button was released")
    }

    @Test("Enter on an empty line writes nothing and says what to do")
    func emptyCapture() {
        var state = UIState(timeZone: utc)
        _ = type("   ", into: &state)
        #expect(state.handle(.key(.enter)).isEmpty)
        #expect(state.status.contains("Type a task"))
    }

    @Test("m, / and c replace the last confirmation with their own hint; Tab in c with no context defined says how to define one")
    func promptHints() {
        let a = item("A")
        var state = showing([a])
        _ = state.handle(.wrote(UIWriteResult(message: "1 (6f1c2a3b) is already there: A", succeeded: true)))
        #expect(!state.status.isEmpty)
        _ = state.handle(.key(.character("m")))
        #expect(state.status.isEmpty, "the old confirmation would read as the prompt's answer: \(state.status)")
        #expect(state.mode.hint(contexts: false).contains("Tab completes"))
        _ = state.handle(.key(.escape))
        #expect(state.focus == .rows, "Esc gives the rows back")
        _ = state.handle(.key(.character("c")))
        #expect(state.mode == .context)
        #expect(state.mode.hint(contexts: false).contains("tick context define"))
        #expect(state.mode.hint(contexts: true).contains("Tab completes"))
        _ = state.handle(.key(.tab))
        #expect(state.status.contains("tick context define"), "\(state.status)")
        _ = state.handle(.key(.escape))
        #expect(state.focus == .rows, "Esc gives the rows back")
        _ = state.handle(.key(.character("/")))
        #expect(state.mode == .filter)
        #expect(state.mode.hint(contexts: false) != UIInputMode.capture.hint(contexts: false))
    }

    @Test("every line of the ? screen fits an 80-column terminal (78 cells from the second column)")
    func helpFits() {
        #expect(!UIHelp.lines.isEmpty)
        for line in UIHelp.lines { #expect(CellWidth.of(line) <= UIHelp.width, "\(line)") }
        #expect(UIHelp.lines.contains { $0.contains("closes this help") })
    }

    @Test("the status line's hint names ? help within the first 60 cells (a narrow screen cuts the rest) and follows the focus")
    func hintOnNarrowScreens() {
        var state = showing([item("A")])
        let rows = state.hint(live: "live")
        #expect(rows.contains("? help"))
        #expect(CellWidth.of(String(rows[..<(rows.range(of: "? help")?.upperBound ?? rows.endIndex)])) <= 58, "\(rows)")
        _ = state.handle(.key(.tab))
        #expect(state.focus == .input)
        #expect(state.hint(live: "live") == "live · ? help · / filter · " + UIInputMode.capture.hint(contexts: false),
                "on the empty capture line, where ? and / typed first are keys")
    }
}
