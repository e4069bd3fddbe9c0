import Foundation
import Testing
@testable import TickKit

/// Taskwarrior's (and todo.txt's) words in quick-add tokens: the other
/// spellings of tick's keys (``FieldNames``), its priorities, and the keys
/// tick does not take, which are refused rather than kept as title text.
@Suite struct TaskwarriorWordsTests {
    let berlin = Zone(named: "Europe/Berlin")!
    let now = Timestamp.parse("2026-11-21T09:00:00Z")!  // Saturday
    var parser: QuickAddParser { QuickAddParser(fields: FieldParser(now: now, timeZone: berlin)) }

    func message(_ words: [String], allowRemoval: Bool = false) -> String? {
        do {
            _ = try parser.parse(words, allowRemoval: allowRemoval)
            return nil
        } catch {
            return error.errorDescription
        }
    }

    @Test func projectAndRecurAreListAndRepeat() throws {
        let (title, edit) = try parser.parse(["Fix", "bug", "project:Work", "recur:weekly", "due:fri"])
        #expect(title == "Fix bug")
        #expect(edit.list == "Work")
        #expect(edit[\.repeatRule] == .set("weekly"))
        // Taskwarrior's own recur values, as tick import reads them.
        #expect(try parser.parse(["x", "recur:biweekly"]).edit[\.repeatRule] == .set("every 2w"))
        #expect(try parser.parse(["x", "recur:2wks"]).edit[\.repeatRule] == .set("every 2w"))
        // repeat: keeps tick's grammar only.
        #expect(throws: InputError.self) { try parser.parse(["x", "repeat:biweekly"]) }
        // Taskwarrior's `m` stays ambiguous: a month is `mo`.
        #expect(message(["x", "recur:3m"])?.contains("for months write recur:3mo") == true)
    }

    @Test func taskwarriorPrioritiesMapToMustAndFlexible() throws {
        for (typed, expected) in [("pri:H", Priority.must), ("pri:high", .must), ("priority:H", .must), ("pri:M", .must),
                                  ("pri:medium", .must), ("pri:L", .flexible), ("pri:low", .flexible), ("pri:f", .flexible)] {
            #expect(try parser.parse(["x", typed]).edit[\.priority] == .set(expected), "\(typed)")
        }
        #expect(Priority.taskwarrior("urgent") == nil)
        #expect(message(["x", "pri:urgent"])?.contains("if \"pri:urgent\" is title text") == true)
    }

    @Test func keysTickDoesNotTakeAreRefusedWithTheLiteralForm() throws {
        let until = try #require(message(["Fix", "bug", "until:eom"]))
        #expect(until.contains("until: is not a field tick sets here"))
        #expect(until.contains("use due: for a deadline"))
        #expect(until.contains("write \\until:eom"))
        for word in ["status:done", "entry:2026-01-01", "end:today", "start:9am", "t:2026-12-01", "rec:1w", "tags:a,b", "Status:done"] {
            #expect(message(["x", word])?.contains("is not a field tick sets here") == true, "\(word)")
        }
        #expect(message(["x", "rec:1w"])?.contains("repeat:") == true)
        // In edit, the same refusal (edit takes no title from mixed words).
        #expect(message(["status:done"], allowRemoval: true)?.contains("tick done") == true)
        // A filter modifier is not a field.
        #expect(message(["x", "due.before:fri"])?.contains("is a filter term") == true)
        #expect(message(["x", "project.not:x"])?.contains("list:x") == true)
    }

    @Test func textThatOnlyLooksLikeAKeyStaysTitle() throws {
        let (title, edit) = try parser.parse(["Status:", "ok", "Status: fine", "http://x.org", "16:9", "\\until:eom", "Mr.Smith:hi"])
        #expect(title == "Status: ok Status: fine http://x.org 16:9 until:eom Mr.Smith:hi")
        #expect(edit.isEmpty)
        #expect(try parser.parse(["--", "until:eom"]).title == "until:eom")
    }

    @Test func oneTableOfAliases() throws {
        #expect(FieldNames.canonical("Project") == "list")
        #expect(FieldNames.canonical("recur") == "repeat")
        #expect(QuickAddParser.keys.isSuperset(of: ["project", "recur", "priority", "scheduled", "est"]))
        #expect(FilterParser.aliases["project"] == "list")
        #expect(FilterParser.aliases["recur"] == nil)   // no repeat filter key
        #expect(try TaskSort("project,priority-").keys.map(\.key) == [.list, .table("priority")])
    }
}
