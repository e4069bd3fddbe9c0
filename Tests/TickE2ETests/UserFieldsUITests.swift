import Foundation
import Testing

/// Declared fields in `tick ui`'s `e` line, in a real terminal (tmux): shown
/// as `NAME:value`, changed and cleared by editing the line.
@Suite("user-defined fields in tick ui")
struct UserFieldsUITests {
    @Test func theEditLineShowsAndTakesDeclaredFields() throws {
        guard UITests.hasTmux else { Issue.record("tmux is not installed (scripts/ensure-deps.sh --test installs it)"); return }
        let s = try Sandbox()
        try FileManager.default.createDirectory(atPath: s.home + "/.config/tick", withIntermediateDirectories: true)
        try UserFieldsE2ETests.config.write(toFile: s.home + "/.config/tick/config.toml", atomically: true, encoding: .utf8)
        try s.add("Audit", "due:2026-11-21", "client:Acme", "size:L")
        let ui = try UITerminal(s)
        defer { ui.close() }
        try ui.waitFor("add ›")
        try ui.waitFor("[ ] Audit")
        try ui.press("Tab")
        try ui.press("e")
        try ui.waitFor("edit › Audit due:2026-11-21 client:Acme size:L")
        try ui.press("C-w")
        try ui.press("C-w")
        try ui.type("size:s")
        try ui.press("Enter")
        try ui.waitFor("Edited")
        let task = try #require(try s.tasks("inbox.json").task("Audit"))
        #expect(task.string("size") == "S")
        #expect(task["client"] == nil, "taken out of the line: cleared")
        #expect(task.string("due") == "2026-11-21")
    }
}
