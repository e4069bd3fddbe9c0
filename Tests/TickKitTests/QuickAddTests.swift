import Foundation
import Testing
@testable import TickKit

@Suite struct QuickAddTests {
    let berlin = TimeZone(identifier: "Europe/Berlin")!
    let now = Timestamp.parse("2026-11-21T09:00:00Z")!  // Saturday
    var parser: QuickAddParser { QuickAddParser(fields: FieldParser(now: now, timeZone: berlin)) }

    @Test func tokensBecomeFieldsAndTheRestIsTheTitle() throws {
        let (title, edit) = try parser.parse(["Call", "bank", "due:tomorrow@17:00", "+phone", "pri:m", "energy:low", "list:Work", "sched:mon", "remind:fri", "repeat:weekly"])
        #expect(title == "Call bank")
        #expect(edit.due == .set(.time(Timestamp.parse("2026-11-22T16:00:00Z")!)))
        #expect(edit.scheduled == .set(LocalDate(iso: "2026-11-23")!))
        #expect(edit.remind == .set(Timestamp.parse("2026-11-27T08:00:00Z")!))
        #expect(edit.priority == .set(.must))
        #expect(edit.energy == .set(.low))
        #expect(edit.addTags == ["phone"])
        #expect(edit.list == "Work")
        #expect(edit.repeatRule == .set("weekly"))
    }

    @Test func unknownKeysAndEscapedTokensStayInTheTitle() throws {
        let (title, edit) = try parser.parse(["Note:", "read", "http://x.org", "\\due:soon", "ratio", "3:1"])
        #expect(title == "Note: read http://x.org due:soon ratio 3:1")
        #expect(edit.isEmpty)
    }

    @Test func removalFormsOnlyInEdit() throws {
        let (_, edit) = try parser.parse(["due:", "-home", "pri:"], allowRemoval: true)
        #expect(edit.due == .clear)
        #expect(edit.priority == .clear)
        #expect(edit.removeTags == ["home"])
        #expect(throws: InputError.self) { try parser.parse(["x", "due:"]) }
    }

    @Test func badValuesAreUsageErrorsNamingTheWord() throws {
        #expect(throws: InputError.badValue(key: "pri", value: "urgent", allowed: ["must", "flexible"])) {
            try parser.parse(["x", "pri:urgent"])
        }
        do {
            _ = try parser.parse(["x", "due:frday"])
            Issue.record("expected an error")
        } catch {
            #expect(error.errorDescription?.contains("\"frday\"") == true)
        }
        #expect(throws: InputError.badDate(key: "sched", .timeNotAllowed("fri@9am"))) { try parser.parse(["x", "sched:fri@9am"]) }
        #expect(throws: InputError.self) { try parser.parse(["x", "+bad,tag"]) }
    }

    @Test func editBumpsModifiedAtOnlyWhenSomethingChanges() {
        var task = TaskItem(id: UUID(), title: "x", tags: ["a"], createdAt: now, modifiedAt: now)
        let later = now.addingTimeInterval(60)
        var edit = TaskEdit()
        edit.addTags = ["a"]
        #expect(!edit.apply(to: &task, now: later))
        #expect(task.modifiedAt == now)
        edit.removeTags = ["a"]
        edit.addTags = []
        #expect(edit.apply(to: &task, now: later))
        #expect(task.tags.isEmpty)
        #expect(task.modifiedAt == later)
    }
}
