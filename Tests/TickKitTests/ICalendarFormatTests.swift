import Foundation
import Testing
@testable import TickKit

/// Tests for `ICalendarCodec`.
@Suite struct ICalendarFormatTests {
    static let berlin = Zone(named: "Europe/Berlin") ?? .utc
    static let now = Date(timeIntervalSince1970: 1_795_251_600) // 2026-11-21T09:00:00Z
    static let context = InterchangeContext(path: "tasks.ics", now: now, timeZone: berlin)

    static func decode(_ text: String) throws -> [TaskFile] {
        try ICalendarCodec.decode(Array(text.utf8), context: context)
    }

    static func ts(_ s: String) throws -> Date { try #require(Timestamp.parse(s)) }

    @Test func foldsAt75OctetsWithoutSplittingUTF8() {
        let long = "SUMMARY:" + String(repeating: "ä€😀", count: 30)
        let folded = ICalendarCodec.fold(long)
        let physical = folded.components(separatedBy: "\r\n").dropLast()
        #expect(physical.count > 1)
        for line in physical { #expect(line.utf8.count <= 75) }
        // Every physical line is valid UTF-8 on its own.
        for line in physical { #expect(String(validating: Array(line.utf8), as: UTF8.self) != nil) }
        // Unfolding restores the line.
        let unfolded = physical.enumerated().map { $0.offset == 0 ? $0.element : String($0.element.dropFirst()) }.joined()
        #expect(unfolded == long)
    }

    /// Issue 45's round-trip test: Python's icalendar folds between the scalars of an
    /// emoji sequence, so a continuation line starts with a space and a zero-width joiner
    /// (one Character in Swift); it is a continuation all the same and the joiner is kept.
    @Test func unfoldsAContinuationThatStartsWithAJoiner() throws {
        let family = "\u{1F469}\u{200D}\u{1F469}\u{200D}\u{1F467}"
        let files = try Self.decode("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VTODO\r\nUID:a@b\r\nSUMMARY:Family \u{1F469}\r\n \u{200D}\u{1F469}\u{200D}\u{1F467}\r\n \u{0301}accent\r\nEND:VTODO\r\nEND:VCALENDAR\r\n")
        #expect(files.flatMap(\.tasks).map(\.title) == ["Family " + family + "\u{0301}accent"])
    }

    @Test func escapesTextBothWays() {
        let s = "a\\b; c, d\nline"
        #expect(ICalendarCodec.escape(s) == "a\\\\b\\; c\\, d\\nline")
        #expect(ICalendarCodec.unescape(ICalendarCodec.escape(s)) == s)
        #expect(ICalendarCodec.splitList("a\\,b,c") == ["a,b", "c"])
    }

    @Test func mapsForeignVTODO() throws {
        let files = try Self.decode("""
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//other//EN\r
        BEGIN:VTODO\r
        UID:abc-123@example.com\r
        SUMMARY:Call mom\\, then dad\r
        DESCRIPTION:first line\\nsecond\r
         line folded\r
        DUE;TZID=Europe/Berlin:20261124T170000\r
        DTSTART;VALUE=DATE:20261123\r
        STATUS:IN-PROCESS\r
        PRIORITY:3\r
        CATEGORIES:family,phone call\r
        RRULE:FREQ=WEEKLY;BYDAY=MO\r
        CREATED:20261101T080000Z\r
        LAST-MODIFIED:20261102T080000Z\r
        X-TICK-LIST:Home\r
        BEGIN:VALARM\r
        ACTION:DISPLAY\r
        TRIGGER;RELATED=END:-PT1H\r
        END:VALARM\r
        END:VTODO\r
        BEGIN:VTODO\r
        UID:2\r
        SUMMARY:Done thing\r
        DUE;VALUE=DATE:20261120\r
        STATUS:COMPLETED\r
        COMPLETED:20261120T100000Z\r
        PRIORITY:0\r
        END:VTODO\r
        END:VCALENDAR\r

        """)
        let home = try #require(files.first { $0.name == "Home" })
        let t = home.tasks[0]
        #expect(t.title == "Call mom, then dad")
        #expect(t.notes == "first line\nsecondline folded")
        #expect(t.due == .time(try Self.ts("2026-11-24T16:00:00Z")))
        #expect(t.scheduled == LocalDate(iso: "2026-11-23"))
        #expect(t.state == .active)
        #expect(t.priority == .must)
        #expect(t.tags == ["family", "phone-call"])
        // A phone's RRULE becomes tick's rule where tick has one (RRuleMapping, issue 34).
        #expect(t.repeatRule == "mon")
        #expect(t.createdAt == (try Self.ts("2026-11-01T08:00:00Z")))
        #expect(t.modifiedAt == (try Self.ts("2026-11-02T08:00:00Z")))
        #expect(t.remind == (try Self.ts("2026-11-24T15:00:00Z")))
        #expect(t.id == UUID(name: "ical:abc-123@example.com"))
        #expect(t.extra == [JSONMember("x-ical-uid", .string("abc-123@example.com")), JSONMember("x-ical-priority", .string("3"))])

        let inbox = try #require(files.first { $0.kind == .inbox })
        let d = inbox.tasks[0]
        #expect(d.state == .done)
        #expect(d.completedAt == (try Self.ts("2026-11-20T10:00:00Z")))
        #expect(d.due == .day(try #require(LocalDate(iso: "2026-11-20"))))
        #expect(d.priority == nil)

        // Export restores the foreign UID and priority, re-import is identical.
        let bytes = ICalendarCodec.encode(files, context: Self.context)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("UID:abc-123@example.com\r\n"))
        #expect(text.contains("PRIORITY:3\r\n"))
        #expect(text.contains("DUE;VALUE=DATE:20261120\r\n"))
        #expect(text.contains("RRULE:FREQ=WEEKLY;BYDAY=MO\r\n"))
        let again = try ICalendarCodec.decode(bytes, context: Self.context)
        #expect(again.map(\.tasks) == files.map(\.tasks))
    }

    @Test func tickTasksRoundTripExactly() throws {
        let created = try Self.ts("2026-11-01T08:00:00Z")
        let longNote = String(repeating: "Grüße, Käse; und \\ Zeilen\n", count: 8)
        let tasks = [
            TaskItem(id: UUID(), title: "Timed 😀 " + String(repeating: "ü", count: 60), due: .time(try Self.ts("2026-11-24T16:00:00Z")),
                     remind: try Self.ts("2026-11-24T15:30:00Z"), repeatRule: "every friday", priority: .flexible, energy: .low,
                     tags: ["a", "b"], notes: longNote, createdAt: created, modifiedAt: created,
                     extra: [JSONMember("x-estimate", JSONNode(.number("1.50")))]),
            TaskItem(id: UUID(), title: "Done", state: .done, createdAt: created, modifiedAt: created, completedAt: created),
        ]
        let files = [TaskFile(kind: .list(slug: "work"), id: UUID(), name: "Work", createdAt: created, modifiedAt: created, tasks: tasks)]
        let bytes = ICalendarCodec.encode(files, context: Self.context)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:"))
        for line in text.components(separatedBy: "\r\n") { #expect(line.utf8.count <= 75) }
        #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
        let back = try ICalendarCodec.decode(bytes, context: Self.context)
        #expect(back.count == 1)
        #expect(back[0].name == "Work")
        #expect(back[0].tasks == tasks)
    }

    @Test func errorsCarryLineNumbers() throws {
        #expect(throws: ImportError(path: "tasks.ics", line: 3, message: "VTODO has no SUMMARY (a task needs a title)")) {
            try Self.decode("BEGIN:VCALENDAR\nVERSION:2.0\nBEGIN:VTODO\nUID:1\nEND:VTODO\nEND:VCALENDAR\n")
        }
        #expect(throws: ImportError(path: "tasks.ics", line: 5, message: "invalid DUE value \"2026-11-24\"; expected YYYYMMDD or YYYYMMDDTHHMMSS[Z]")) {
            try Self.decode("BEGIN:VCALENDAR\nBEGIN:VTODO\nUID:1\nSUMMARY:x\nDUE:2026-11-24\nEND:VTODO\nEND:VCALENDAR\n")
        }
        #expect(throws: ImportError(path: "tasks.ics", line: 1, message: "not an iCalendar file: expected BEGIN:VCALENDAR")) {
            try Self.decode("hello: world\n")
        }
        #expect(throws: ImportError(path: "tasks.ics", line: 3, message: "BEGIN:VTODO is never closed (truncated file?)")) {
            try Self.decode("BEGIN:VCALENDAR\nBEGIN:VTODO\nSUMMARY:x\n")
        }
    }

    /// Issue 45's round-trip test: a done task's `x-ical-status` written before another
    /// unknown key came back after it (X-TICK-JSON left it out, STATUS set it last), so a
    /// re-import of tick's own export rewrote the task. X-TICK-JSON now names it in place.
    @Test func unknownKeysKeepTheirOrderWithTheIcalOnes() throws {
        let created = try Self.ts("2026-11-01T08:00:00Z")
        let task = TaskItem(id: UUID(), title: "Cancelled", state: .done, createdAt: created, modifiedAt: created, completedAt: created,
                            extra: [JSONMember(ICalendarCodec.statusKey, .string("CANCELLED")), JSONMember("x-mine", JSONNode(.bool(true)))])
        let files = [TaskFile(kind: .inbox, id: UUID(), name: nil, createdAt: created, modifiedAt: created, tasks: [task])]
        let bytes = ICalendarCodec.encode(files, context: Self.context)
        #expect(String(decoding: bytes, as: UTF8.self).contains("STATUS:CANCELLED\r\n"))
        let back = try ICalendarCodec.decode(bytes, context: Self.context)
        #expect(back.flatMap { $0.tasks }.first?.extra.map { $0.key } == [ICalendarCodec.statusKey, "x-mine"])
        #expect(back.flatMap { $0.tasks } == [task])
    }

    /// Issue 45's round-trip test: a SUMMARY's edge spaces were trimmed, so a title
    /// " Buy" came back "Buy"; and notes with a CR (which TEXT cannot carry) made every
    /// re-import of tick's own export an update.
    @Test func titlesKeepEdgeSpacesAndReimportKeepsCarriageReturns() throws {
        let created = try Self.ts("2026-11-01T08:00:00Z")
        let task = TaskItem(id: UUID(), title: " Buy ", notes: "a\r\nb\rc", createdAt: created, modifiedAt: created)
        let inbox = TaskFile(kind: .inbox, id: UUID(), name: nil, createdAt: created, modifiedAt: created, tasks: [task])
        let back = try ICalendarCodec.decode(ICalendarCodec.encode([inbox], context: Self.context), context: Self.context)
        let read = try #require(back.first?.tasks.first)
        #expect(read.title == " Buy ")
        #expect(read.notes == "a\nbc")
        let kept = ICalendarCodec.reconcile(back, with: StoreSnapshot(files: [inbox]))
        #expect(kept.first?.tasks.first?.notes == "a\r\nb\rc")
        #expect(kept.first?.tasks.first == task)
        #expect(throws: ImportError.self) { try Self.decode("BEGIN:VCALENDAR\nBEGIN:VTODO\nSUMMARY:  \nEND:VTODO\nEND:VCALENDAR\n") }
    }
}
