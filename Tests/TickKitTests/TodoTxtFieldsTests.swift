import Foundation
import Testing
@testable import TickKit

/// todo.txt `rec:`, `t:` and the tick fields carried as extensions, and a
/// re-import that changes nothing (issue 35).
@Suite struct TodoTxtFieldsTests {
    static let berlin = Zone(named: "Europe/Berlin") ?? .utc
    static let now = Date(timeIntervalSince1970: 1_795_251_600) // 2026-11-21T09:00:00Z

    static func decode(_ text: String, now: Date = now) throws -> [TaskItem] {
        try TodoTxtCodec.decode(Array(text.utf8), context: InterchangeContext(path: "todo.txt", now: now, timeZone: berlin))
            .flatMap(\.tasks)
    }

    /// One rule says which values a `key:` can carry, for tick's own keys
    /// (a text field of the table) and declared fields alike: the value read
    /// back from `key:value` must be the value written.
    @Test func aValueIsAWordOnlyWhenItReadsBackAsItself() {
        #expect(TodoTxtCodec.word("office", key: "location") == "office")
        #expect(TodoTxtCodec.word("45m", key: "estimate") == "45m")
        for notAWord in ["two words", "a:b", "/path", "tab\there", "line\nbreak", ""] {
            #expect(TodoTxtCodec.word(notAWord, key: "location") == nil, "\(notAWord)")
        }
        #expect(TodoTxtCodec.word("office", key: "1") == nil, "a key that is no word is title text")
    }

    @Test func recMapsToRepeat() {
        #expect(TodoTxtRecurrence.tickRule(forRec: "1w") == "+1w")
        #expect(TodoTxtRecurrence.tickRule(forRec: "+1w") == "weekly")
        #expect(TodoTxtRecurrence.tickRule(forRec: "+2d") == "every 2d")
        #expect(TodoTxtRecurrence.tickRule(forRec: "3m") == "+3mo")
        #expect(TodoTxtRecurrence.tickRule(forRec: "+1y") == "yearly")
        #expect(TodoTxtRecurrence.tickRule(forRec: "1b") == "weekdays")
        #expect(TodoTxtRecurrence.tickRule(forRec: "2b") == nil)
        #expect(TodoTxtRecurrence.tickRule(forRec: "soon") == nil)
        #expect(TodoTxtRecurrence.rec(forRule: "every 2 weeks") == "+2w")
        #expect(TodoTxtRecurrence.rec(forRule: "+3d") == "3d")
        #expect(TodoTxtRecurrence.rec(forRule: "monthly") == "+1m")
        #expect(TodoTxtRecurrence.rec(forRule: "weekdays") == "+1b")
        #expect(TodoTxtRecurrence.rec(forRule: "mon,thu") == nil)
        #expect(TodoTxtRecurrence.same("every 1w", "weekly"))
    }

    @Test func tickFieldsTravelAsExtensionsAndComeBack() throws {
        var task = TaskItem(id: UUID(), title: "Water plants", createdAt: Self.now, modifiedAt: Self.now)
        task.scheduled = LocalDate(iso: "2026-11-24")
        task.repeatRule = "every friday"
        task.remind = Self.now.addingTimeInterval(3_600)
        task.state = .active
        task.energy = .low
        task.estimate = 30
        let line = TodoTxtCodec.line(for: task, list: nil, timeZone: Self.berlin)
        #expect(line == "2026-11-21 Water plants t:2026-11-24 tickrepeat:every_friday remind:20261121T100000Z state:active energy:low estimate:30m tick:\(task.id.lowercased)")
        let back = try #require(try Self.decode(line + "\n").first)
        #expect(back.scheduled == task.scheduled)
        #expect(back.repeatRule == "every friday")
        #expect(back.remind == task.remind)
        #expect(back.state == .active)
        #expect(back.energy == .low)
        #expect(back.estimate == 30)
        #expect(back.extra.isEmpty)
        // A value tick cannot read stays an opaque extension, as before.
        let odd = try #require(try Self.decode("Thing t:someday rec:2b\n").first)
        #expect(odd.scheduled == nil && odd.repeatRule == nil)
        #expect(odd.extra == [JSONMember("x-todotxt-extra", .object([JSONMember("t", .string("someday")), JSONMember("rec", .string("2b"))]))])
    }

    @Test func reimportingALineWithoutDatesOnAnotherDayChangesNothing() throws {
        let text = "(A) Call mom @phone\nx Pay rent +Home\nWater plants rec:+1w t:2026-11-28\n"
        let first = try Self.decode(text)
        let nextDay = try Self.decode(text, now: Self.now.addingTimeInterval(86_400 * 2))
        for (current, again) in zip(first, nextDay) {
            #expect(TodoTxtCodec.merge(again, onto: current, timeZone: Self.berlin) == current, "\(current.title)")
        }
        // A line that does say something new still changes the task, and only then its modifiedAt.
        let edited = try Self.decode("Water plants rec:+1w t:2026-11-30\n", now: Self.now.addingTimeInterval(60))[0]
        let merged = TodoTxtCodec.merge(edited, onto: first[2], timeZone: Self.berlin)
        #expect(merged.scheduled == LocalDate(iso: "2026-11-30"))
        #expect(merged.modifiedAt == Self.now.addingTimeInterval(60))
    }
}
