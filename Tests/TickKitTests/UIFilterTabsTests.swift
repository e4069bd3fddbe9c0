import Foundation
import Testing
@testable import TickKit

/// `tick ui`'s filter line, per-tab filters, the help key and the tab keys
/// (issue 46), driven through the state machine without a terminal.
@Suite struct UIFilterTabsTests {
    let now = Timestamp.parse("2026-11-21T09:00:00Z")!
    let utc = Zone(named: "UTC")!
    let work = UIView.list(.list(slug: "work"), name: "Work")
    let home = UIView.list(.list(slug: "home"), name: "Home")

    func item(_ title: String, in kind: FileKind = .list(slug: "work")) -> ListedTask {
        ListedTask(task: TaskItem(id: UUID(), title: title, state: .open, createdAt: now, modifiedAt: now),
                   kind: kind, listName: "Work", shortID: nil)
    }

    /// A fresh screen on Today (the input line focused), with `views` as its tabs.
    func opened(views: [UIView]? = nil, filter: String = "") -> UIState {
        var state = UIState(timeZone: utc, view: .today, filter: filter)
        _ = state.handle(.refreshed(UIRefresh(views: views ?? [.inbox, .today, .upcoming, work, home], view: .today, rows: [item("A")])))
        return state
    }

    func type(_ text: String, into state: inout UIState) -> [UIEffect] {
        text.flatMap { state.handle(.key(.character($0))) }
    }

    // MARK: `/` and `?` typed first on the capture line

    @Test("/dentist Enter typed on the fresh capture line sets a filter and adds nothing")
    func slashFirstFilters() {
        var state = opened()
        #expect(state.focus == .input && state.mode == .capture)
        #expect(type("/", into: &state).isEmpty)
        #expect(state.mode == .filter, "a / typed first on the capture line opens the filter line")
        #expect(state.input.text.isEmpty, "the slash is the key, not text")
        _ = type("dentist", into: &state)
        let effects = state.handle(.key(.enter))
        #expect(effects == [.load])
        #expect(!effects.contains { if case .add = $0 { return true } else { return false } }, "no task titled /dentist")
        #expect(state.filter == "dentist")
        #expect(state.mode == .capture)
        #expect(state.input.text.isEmpty)
        #expect(state.focus == .rows, "the filtered rows take the keys, as after / on the rows")
        #expect(state.status == "Filter on Today: dentist")
    }

    @Test("// types a slash: //x captures \"/x\"; a slash after other text is text")
    func doubleSlashTypesSlash() {
        var state = opened()
        _ = type("//x", into: &state)
        #expect(state.mode == .capture)
        #expect(state.input.text == "/x")
        #expect(state.handle(.key(.enter)) == [.add(text: "/x", view: .today)])
        #expect(state.filter.isEmpty, "the filter was not touched")
        _ = state.handle(.wrote(UIWriteResult(message: "Added 2", succeeded: true)))
        _ = type("a/b /c", into: &state)
        #expect(state.mode == .capture)
        #expect(state.handle(.key(.enter)) == [.add(text: "a/b /c", view: .today)])
    }

    @Test("a / in the edit line is text; / on the rows then / types into the filter (a /regex/)")
    func slashElsewhereIsText() {
        var state = opened()
        _ = state.handle(.key(.tab))
        _ = state.handle(.key(.character("/")))
        _ = type("/milk/", into: &state)
        #expect(state.mode == .filter)
        #expect(state.input.text == "/milk/", "only the capture line's / gives a slash back")
        #expect(state.handle(.key(.enter)) == [.load])
        #expect(state.filter == "/milk/")
        _ = state.handle(.key(.character("e")))
        #expect(state.mode == .edit(state.rows[0].task.id))
        _ = state.handle(.key(.control("u")))
        _ = type("/x", into: &state)
        #expect(state.input.text == "/x")
    }

    @Test("Backspace on the empty filter line goes back where / was typed, the filter as it was")
    func backspaceLeavesFilterLine() {
        var state = opened()
        _ = type("/", into: &state)
        #expect(state.handle(.key(.backspace)).isEmpty)
        #expect(state.mode == .capture)
        #expect(state.focus == .input)
        #expect(state.input.text.isEmpty)
        _ = type("/a", into: &state)
        _ = state.handle(.key(.backspace))
        #expect(state.mode == .filter, "Backspace over text edits it")
        _ = state.handle(.key(.backspace))
        #expect(state.mode == .capture)
        _ = state.handle(.key(.tab))
        _ = state.handle(.key(.character("/")))
        _ = state.handle(.key(.backspace))
        #expect(state.mode == .capture)
        #expect(state.focus == .rows, "opened from the rows: back to the rows")
    }

    @Test("? typed first on the capture line shows the help; Esc or ? closes it back to the line, another key closes it and is typed")
    func questionMarkFirstIsHelp() {
        var state = opened()
        #expect(state.hint(live: "live").hasPrefix("live · ? help · / filter"), "\(state.hint(live: "live"))")
        _ = type("?", into: &state)
        #expect(state.showHelp)
        #expect(state.input.text.isEmpty)
        _ = state.handle(.key(.escape))
        #expect(!state.showHelp)
        #expect(state.focus == .input, "Esc closed the help, not the line")
        _ = type("?", into: &state)
        _ = type("?", into: &state)
        #expect(!state.showHelp)
        #expect(state.input.text.isEmpty)
        _ = type("?", into: &state)
        _ = type("Buy", into: &state)
        #expect(!state.showHelp)
        #expect(state.input.text == "Buy")
        #expect(!state.hint(live: "live").contains("? help"), "? is text once the line has some: the hint does not offer it")
        _ = type(" milk?", into: &state)
        #expect(state.input.text == "Buy milk?")
        _ = state.handle(.key(.control("u")))
        _ = type("\\? maybe", into: &state)
        #expect(state.handle(.key(.enter)) == [.add(text: "\\? maybe", view: .today)], "quick-add's \\ escape starts a title with ?")
    }

    // MARK: `/` on the rows

    @Test("/ on the rows opens an empty line with the tab's filter beside it; Enter replaces it, an empty Enter keeps it, Esc after typing cancels, Esc on the empty line clears it")
    func slashOnRows() {
        var state = opened()
        _ = state.handle(.key(.tab))
        _ = state.handle(.key(.character("/")))
        #expect(state.inputAside == nil, "no filter yet: nothing beside the line")
        _ = type("milk", into: &state)
        _ = state.handle(.key(.enter))
        #expect(state.filter == "milk")
        _ = state.handle(.key(.character("/")))
        #expect(state.mode == .filter)
        #expect(state.input.text.isEmpty, "the line starts empty, not pre-filled with the filter")
        #expect(state.inputAside == "(filter: milk)")
        #expect(state.hint(live: "live").contains("Esc clears it"), "\(state.hint(live: "live"))")
        _ = type("Email", into: &state)
        #expect(state.handle(.key(.enter)) == [.load])
        #expect(state.filter == "Email", "typing replaces the filter (not milkEmail)")
        _ = state.handle(.key(.character("/")))
        #expect(state.handle(.key(.enter)).isEmpty)
        #expect(state.filter == "Email", "Enter on the empty line keeps the filter")
        #expect(state.status.contains("Kept"))
        _ = state.handle(.key(.character("/")))
        _ = type("oops", into: &state)
        #expect(state.handle(.key(.escape)).isEmpty)
        #expect(state.filter == "Email", "Esc after typing cancels the typing")
        #expect(state.focus == .rows)
        _ = state.handle(.key(.character("/")))
        #expect(state.handle(.key(.escape)) == [.load])
        #expect(state.filter.isEmpty, "Esc on the empty line clears the filter")
        #expect(state.status == "Filter off on Today.")
        #expect(state.focus == .rows)
        #expect(state.mode == .capture)
        _ = state.handle(.key(.character("/")))
        #expect(state.handle(.key(.escape)).isEmpty, "no filter to clear: nothing to load")
    }

    @Test("the filter line gives back the capture text put aside")
    func draftSurvivesFilter() {
        var state = opened()
        _ = type("half typed", into: &state)
        _ = state.handle(.key(.tab))
        _ = state.handle(.key(.character("/")))
        _ = type("x", into: &state)
        _ = state.handle(.key(.enter))
        _ = state.handle(.key(.character("a")))
        #expect(state.input.text == "half typed")
        #expect(state.mode == .capture)
    }

    // MARK: Per-tab filters

    @Test("a filter belongs to the tab it was set on: other tabs keep theirs; switching back shows it again, also after the list is renamed")
    func filterPerTab() {
        var state = opened()
        _ = state.handle(.key(.tab))
        _ = state.handle(.key(.character("4")))
        #expect(state.view == work)
        _ = state.handle(.key(.character("/")))
        _ = type("+errand", into: &state)
        _ = state.handle(.key(.enter))
        #expect(state.filter == "+errand")
        #expect(state.handle(.key(.character("2"))) == [.load])
        #expect(state.view == .today)
        #expect(state.filter.isEmpty, "Today has no filter")
        _ = state.handle(.key(.character("/")))
        #expect(state.inputAside == nil, "Work's filter is not shown on Today's line")
        _ = type("pri:must", into: &state)
        _ = state.handle(.key(.enter))
        #expect(state.filter(of: work) == "+errand")
        #expect(state.filter(of: .today) == "pri:must")
        #expect(state.filter(of: home).isEmpty)
        _ = state.handle(.key(.character("4")))
        #expect(state.filter == "+errand")
        // The list is renamed elsewhere: its tab keeps its filter.
        let renamed = UIView.list(.list(slug: "work"), name: "Job")
        _ = state.handle(.refreshed(UIRefresh(views: [.inbox, .today, .upcoming, home, renamed], view: renamed, rows: [])))
        #expect(state.view == renamed)
        #expect(state.filter == "+errand")
        _ = state.handle(.key(.character("/")))
        _ = state.handle(.key(.escape))
        #expect(state.filter.isEmpty)
        #expect(state.filter(of: .today) == "pri:must", "clearing one tab's filter leaves the others")
    }

    @Test("tick ui FILTER is every tab's starting filter; / changes only the current tab's")
    func startFilterOnEveryTab() {
        var state = opened(filter: "+work")
        #expect(state.filter == "+work")
        #expect(state.filter(of: .inbox) == "+work" && state.filter(of: home) == "+work")
        _ = state.handle(.key(.tab))
        _ = state.handle(.key(.character("/")))
        #expect(state.inputAside == "(filter: +work)")
        _ = state.handle(.key(.escape))
        #expect(state.filter.isEmpty)
        #expect(state.filter(of: .inbox) == "+work")
    }

    // MARK: Tab keys

    @Test("1-9 then 0 reach the first ten tabs, [ and ] cycle through all of them (past the tenth too), and the tab labels name those keys")
    func tabKeys() {
        let lists = (1...9).map { UIView.list(.list(slug: "l\($0)"), name: "L\($0)") }
        let views: [UIView] = [.inbox, .today, .upcoming] + lists
        #expect(views.count == 12)
        var state = opened(views: views)
        _ = state.handle(.key(.tab))
        #expect(state.handle(.key(.character("0"))) == [.load])
        #expect(state.view == views[9], "0 is the tenth tab")
        _ = state.handle(.key(.character("]")))
        #expect(state.view == views[10])
        _ = state.handle(.key(.character("]")))
        #expect(state.view == views[11])
        _ = state.handle(.key(.character("]")))
        #expect(state.view == views[0], "] wraps around")
        _ = state.handle(.key(.character("[")))
        #expect(state.view == views[11], "[ wraps around backwards")
        _ = state.handle(.key(.character("9")))
        #expect(state.view == views[8])
        _ = state.handle(.key(.character("1")))
        #expect(state.view == .inbox)
        #expect(state.handle(.key(.character("0"))) == [.load])
        let short = opened()
        var few = short
        _ = few.handle(.key(.tab))
        #expect(few.handle(.key(.character("0"))).isEmpty, "no tenth tab: nothing happens")
        #expect(few.view == .today)
        #expect((0..<12).map { UIState.tabKey($0).map(String.init) ?? "-" }.joined() == "1234567890--")
    }

    @Test("the help names the new keys and every line still fits 78 cells")
    func helpNamesKeys() {
        let help = UIHelp.lines.joined(separator: "\n")
        #expect(help.contains("1-9, 0"))
        #expect(help.contains("[/]"))
        #expect(help.contains("// types a slash"))
        #expect(help.contains("this tab's filter"))
        for line in UIHelp.lines { #expect(CellWidth.of(line) <= UIHelp.width, "\(line)") }
    }
}
