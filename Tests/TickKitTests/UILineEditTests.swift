import Foundation
import Testing
@testable import TickKit

/// `e` in `tick ui`: the edited line against the task it was filled from.
@Suite struct UILineEditTests {
    let now = Timestamp.parse("2026-11-21T09:00:00Z")!
    var parser: QuickAddParser { QuickAddParser(fields: FieldParser(now: now, timeZone: Zone(named: "UTC")!)) }

    var task: TaskItem {
        TaskItem(id: UUID(), title: "Call the bank", due: .day(LocalDate(iso: "2026-11-27")!), scheduled: LocalDate(iso: "2026-11-23")!,
                 priority: .must, energy: .low, estimate: 30, tags: ["phone", "Money"], createdAt: now, modifiedAt: now)
    }

    func change(_ line: String) throws -> TaskEdit {
        let (title, tokens) = try parser.split(line.split(separator: " ").map(String.init), allowRemoval: true)
        return try UILineEdit.change(to: task, titleWords: title, tokens: tokens)
    }

    @Test("a token taken out clears its field, a tag taken out is removed, what stays is kept")
    func clears() throws {
        let edit = try change("Call the bank today due:2026-11-27 +money")
        #expect(edit.title == "Call the bank today")
        #expect(edit[\.due] == .set(.day(LocalDate(iso: "2026-11-27")!)))
        #expect(edit[\.scheduled] == .clear)
        #expect(edit[\.priority] == .clear)
        #expect(edit[\.energy] == .clear)
        #expect(edit[\.estimate] == .clear)
        #expect(edit.removeTags == ["phone"], "Money is kept whatever its case")
        #expect(edit[\.remind] == .keep && edit[\.repeatRule] == .keep && edit[\.wait] == .keep, "fields the task lacks are left alone")
    }

    @Test("list:, a slot and an empty title are refused with the CLI's usage errors")
    func refused() throws {
        #expect(throws: InputError.self) { try change("Call the bank list:Work") }
        #expect(throws: InputError.self) { try change("Call the bank at:14:00") }
        #expect(throws: InputError.self) { try change("due:2026-11-27 +phone") }
    }
}
