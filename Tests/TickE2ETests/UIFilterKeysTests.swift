import Foundation
import Testing

/// `tick ui`'s filter line, per-tab filters, the help key and the keys of
/// every tab (issue 46), on a real terminal (tmux): the screen and the store.
@Suite("tick ui: the filter line, per-tab filters, ? and the tab keys", .serialized)
struct UIFilterKeysTests {
    /// A store with two tasks due today, and `tick ui` open on it showing both.
    func milkAndEmailOnToday() throws -> (Sandbox, UITerminal) {
        let s = try Sandbox()
        try s.add("Buy milk", "due:today")
        try s.add("Email Anna", "due:today")
        let ui = try UITerminal(s)
        do {
            try ui.waitFor("both tasks") { row($0, "Buy milk") != nil && row($0, "Email Anna") != nil }
        } catch {
            ui.close()
            throw error
        }
        return (s, ui)
    }

    func lines(_ screen: String) -> [String] {
        screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// The view line (under the tabs): `Today · 2 tasks · filter: milk`.
    func viewLine(_ screen: String) -> String {
        let all = lines(screen)
        return all.count > 1 ? all[1] : ""
    }

    /// The input line: the last row with text.
    func inputLine(_ screen: String) -> String {
        lines(screen).last { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? ""
    }

    /// The status line: the row above the input line.
    func statusLine(_ screen: String) -> String {
        let all = lines(screen)
        guard let i = all.lastIndex(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }), i > 0 else { return "" }
        return all[i - 1]
    }

    func row(_ screen: String, _ text: String) -> String? {
        lines(screen).first { $0.contains(text) }
    }

    /// Every task title in the store's inbox and list files.
    func allTitles(_ s: Sandbox) throws -> [String] {
        try s.storeFiles().filter { $0 == "inbox.json" || ($0.hasPrefix("lists/") && $0.hasSuffix(".json")) }
            .flatMap { try s.tasks($0) }.map { $0["title"] as? String ?? "" }
    }

    @Test("/dentist Enter typed on the capture line the UI opens in filters the view and adds no task \"/dentist\"")
    func slashFromCaptureLineFilters() throws {
        guard UITests.hasTmux else { Issue.record("tmux is not installed (scripts/ensure-deps.sh --test installs it)"); return }
        let s = try Sandbox()
        try s.add("Call the dentist", "due:today")
        try s.add("Buy milk", "due:today")
        let ui = try UITerminal(s)
        defer { ui.close() }
        try ui.waitFor("both tasks") { row($0, "Call the dentist") != nil && row($0, "Buy milk") != nil && $0.contains("add ›") }
        try ui.type("/")
        let line = try ui.waitFor("the filter line") { inputLine($0).hasPrefix("filter ›") }
        #expect(!inputLine(line).contains("/"), "the slash opened the line, it is not its text: \(line)")
        try ui.type("dentist")
        try ui.waitFor("filter › dentist")
        try ui.press("Enter")
        let filtered = try ui.waitFor("the filtered view") { viewLine($0).contains("filter: dentist") && row($0, "Buy milk") == nil }
        #expect(row(filtered, "Call the dentist") != nil, "\(filtered)")
        #expect(viewLine(filtered).contains("Today · 1 task"), "\(filtered)")
        #expect(!filtered.contains("Added"), "nothing was captured: \(filtered)")
        let titles = try allTitles(s)
        #expect(!titles.contains { $0.hasPrefix("/") }, "no task titled /dentist: \(titles)")
        #expect(titles.sorted() == ["Buy milk", "Call the dentist"])
    }

    @Test("//x on the capture line captures a task titled \"/x\"")
    func doubleSlashCapturesSlash() throws {
        guard UITests.hasTmux else { Issue.record("tmux is not installed (scripts/ensure-deps.sh --test installs it)"); return }
        let s = try Sandbox()
        let ui = try UITerminal(s)
        defer { ui.close() }
        try ui.waitFor("add ›")
        try ui.type("//x")
        let typed = try ui.waitFor("add › /x")
        #expect(inputLine(typed).hasPrefix("add › /x"), "\(typed)")
        try ui.press("Enter")
        let added = try ui.waitFor("Added 1")
        #expect(row(added, "[ ] /x") != nil, "\(added)")
        #expect(try allTitles(s) == ["/x"])
    }

    @Test("/ on the rows starts an empty line with the filter shown beside it; typing replaces the filter; Esc on the empty line clears it")
    func slashOnRowsStartsEmpty() throws {
        guard UITests.hasTmux else { Issue.record("tmux is not installed (scripts/ensure-deps.sh --test installs it)"); return }
        let (s, ui) = try milkAndEmailOnToday()
        defer { ui.close() }
        try ui.press("Tab", "/")
        try ui.waitFor("the filter line") { inputLine($0).hasPrefix("filter ›") }
        try ui.type("milk")
        try ui.press("Enter")
        try ui.waitFor("the milk filter") { viewLine($0).contains("filter: milk") && row($0, "Email Anna") == nil }
        try ui.press("/")
        let open = try ui.waitFor("the current filter beside the empty line") { inputLine($0).contains("(filter: milk)") }
        let input = inputLine(open)
        #expect(input.hasPrefix("filter ›"), "\(open)")
        #expect(!input.contains("filter › milk"), "the line starts empty, not pre-filled: \(open)")
        try ui.type("Email")
        try ui.waitFor("filter › Email")
        try ui.press("Enter")
        let replaced = try ui.waitFor("the Email filter") { viewLine($0).contains("filter: Email") }
        #expect(!viewLine(replaced).contains("milkEmail"), "\(replaced)")
        #expect(row(replaced, "Email Anna") != nil && row(replaced, "Buy milk") == nil, "typing replaced the filter: \(replaced)")
        try ui.press("/")
        try ui.waitFor("(filter: Email)")
        try ui.press("Escape")
        let cleared = try ui.waitFor("Filter off on Today.")
        #expect(!viewLine(cleared).contains("filter:"), "\(cleared)")
        #expect(row(cleared, "Buy milk") != nil && row(cleared, "Email Anna") != nil, "both tasks again: \(cleared)")
    }

    @Test("a filter set on one tab is not on another; going back shows it again")
    func filterPerTab() throws {
        guard UITests.hasTmux else { Issue.record("tmux is not installed (scripts/ensure-deps.sh --test installs it)"); return }
        let (s, ui) = try milkAndEmailOnToday()
        defer { ui.close() }
        try ui.press("Tab", "/")
        try ui.type("milk")
        try ui.press("Enter")
        try ui.waitFor("Today filtered") { viewLine($0).hasPrefix(" Today · 1 task · filter: milk") }
        try ui.press("1")
        let inbox = try ui.waitFor("the Inbox tab") { viewLine($0).contains("Inbox ·") }
        #expect(!viewLine(inbox).contains("filter"), "the Inbox has no filter: \(inbox)")
        #expect(row(inbox, "Buy milk") != nil && row(inbox, "Email Anna") != nil, "\(inbox)")
        try ui.press("2")
        let today = try ui.waitFor("Today again") { viewLine($0).contains("Today ·") }
        #expect(viewLine(today).contains("filter: milk"), "Today kept its filter: \(today)")
        #expect(row(today, "Email Anna") == nil, "\(today)")
    }

    @Test("the status line names ? for help on the capture line and on the rows; ? typed first shows the help and Esc gives the line back")
    func questionMarkNamed() throws {
        guard UITests.hasTmux else { Issue.record("tmux is not installed (scripts/ensure-deps.sh --test installs it)"); return }
        let s = try Sandbox()
        let ui = try UITerminal(s, width: 80, height: 24)
        defer { ui.close() }
        let first = try ui.waitFor("the status line") { statusLine($0).contains("live") }
        #expect(statusLine(first).contains("? help"), "\(first)")
        try ui.type("?")
        let help = try ui.waitFor("closes this help")
        #expect(help.contains("1-9, 0"), "the help names the tab keys: \(help)")
        #expect(inputLine(help).trimmingCharacters(in: .whitespaces) == "add ›", "the ? was not typed: \(help)")
        try ui.press("Escape")
        try ui.waitFor("the help closed") { !$0.contains("closes this help") }
        try ui.type("Buy?")
        try ui.waitFor("add › Buy?")
        try ui.press("Tab")
        let rows = try ui.waitFor("the rows' hint") { statusLine($0).contains("x done") }
        #expect(statusLine(rows).contains("? help"), "\(rows)")
        #expect(try allTitles(s).isEmpty)
    }

    @Test("the tenth tab is reached with 0, the eleventh with ], and [ ] cycle past the end; the tab bar labels the tenth 0")
    func tenthTab() throws {
        guard UITests.hasTmux else { Issue.record("tmux is not installed (scripts/ensure-deps.sh --test installs it)"); return }
        let s = try Sandbox()
        // Lists come after Inbox, Today and Upcoming in name order: Golf is the tenth tab, Hotel the eleventh.
        for name in ["Alpha", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot", "Golf", "Hotel"] { try s.ok("lists", "add", name) }
        try s.add("Tee time", "list:Golf")
        try s.add("Book room", "list:Hotel")
        let ui = try UITerminal(s, width: 120)
        defer { ui.close() }
        let first = try ui.waitFor("the tabs") { lines($0).first?.contains("Hotel") == true }
        #expect(lines(first).first?.contains(" 0 Golf ") == true, "\(first)")
        try ui.press("Tab", "0")
        let golf = try ui.waitFor("the tenth tab") { viewLine($0).contains("Golf · 1 task") }
        #expect(row(golf, "Tee time") != nil, "\(golf)")
        try ui.press("]")
        try ui.waitFor("the eleventh tab") { viewLine($0).contains("Hotel · 1 task") && row($0, "Book room") != nil }
        try ui.press("]")
        try ui.waitFor("] wraps to the Inbox") { viewLine($0).contains("Inbox ·") }
        try ui.press("[")
        try ui.waitFor("[ wraps back to Hotel") { viewLine($0).contains("Hotel · 1 task") }
    }
}
