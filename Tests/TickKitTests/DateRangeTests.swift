import Foundation
import Testing
@testable import TickKit

/// The range of dates tick accepts from input (``DateRange``), and that every
/// writer keeps to it: the parsers, the timestamp reader, recurrence and imports.
@Suite struct DateRangeTests {
    static let now = "2026-11-21T07:20:00Z"

    func instant(_ text: String) throws -> Date { try #require(Timestamp.parse(text)) }
    func day(_ iso: String) throws -> LocalDate { try #require(LocalDate(iso: iso)) }
    func zone(_ id: String) throws -> Zone { try #require(Zone(named: id)) }
    func when(_ zoneID: String = "Europe/Berlin") throws -> WhenParser {
        WhenParser(now: try instant(Self.now), timeZone: try zone(zoneID))
    }

    @Test("the range is 1970-01-01 ... 9999-12-31; instants up to 9999-12-31T23:59:59Z")
    func bounds() throws {
        #expect(DateRange.first.iso == "1970-01-01")
        #expect(DateRange.last.iso == "9999-12-31")
        #expect(DateRange.contains(try day("1970-01-01")))
        #expect(DateRange.contains(try day("9999-12-31")))
        #expect(!DateRange.contains(try day("1969-12-31")))
        #expect(!DateRange.contains(LocalDate(daysSinceEpoch: DateRange.last.daysSinceEpoch + 1)))
        #expect(DateRange.contains(try instant("9999-12-31T23:59:59Z")))
        #expect(!DateRange.contains(try instant("1969-12-31T23:59:59Z")))
        #expect(!DateRange.contains(Date(timeIntervalSince1970: DateRange.endSeconds)))
    }

    @Test("the edges of the range parse", arguments: ["1970-01-01", "9999-12-31", "9999-12-31@23:59"])
    func edgesParse(_ text: String) throws {
        #expect(throws: Never.self) { try when().parse(text) }
    }

    @Test("dates past the range are refused with the day they name", arguments: [
        ("7974y", "10000-11-21"), ("99999mo", "10360-02-21"), ("99999y", "102025-11-21"),
        ("0000-01-01", "0000-01-01"), ("1969-12-31", "1969-12-31"),
    ])
    func dayOutOfRange(_ text: String, _ named: String) throws {
        let error = try #require(throws: DateError.self) { try when().parse(text) }
        guard case .outOfRange(let input, let day?) = error else {
            Issue.record("expected .outOfRange, got \(error)")
            return
        }
        #expect(input == text)
        #expect(day.iso == named)
        #expect(error.errorDescription == "\"\(text)\" is \(named), outside the dates tick can store (1970-01-01 to 9999-12-31)")
    }

    @Test("a time outside the range in UTC is refused, even when its local day is in range")
    func timeOutOfRange() throws {
        let la = try when("America/Los_Angeles")
        #expect(throws: DateError.outOfRange(input: "9999-12-31@23:00", day: nil)) { try la.parse("9999-12-31@23:00") }
        #expect(throws: DateError.outOfRange(input: "0000-01-01@9am", day: nil)) { try when().parse("0000-01-01@9am") }
        // 00:30 on 1970-01-01 in Berlin is still 1969 in UTC.
        #expect(throws: DateError.outOfRange(input: "1970-01-01T00:30", day: nil)) { try when().parse("1970-01-01T00:30") }
        #expect(throws: DateError.outOfRange(input: "9999-12-31T23:30-05:00", day: nil)) {
            try when().parse("9999-12-31T23:30-05:00")
        }
    }

    @Test("FieldParser: due, sched, remind and at: refuse out-of-range dates as input errors")
    func fieldParser() throws {
        let fields = FieldParser(now: try instant(Self.now), timeZone: try zone("Europe/Berlin"))
        #expect(throws: InputError.badDate(key: "due", .outOfRange(input: "7974y", day: LocalDate(year: 10_000, month: 11, day: 21)))) {
            try fields.due("7974y")
        }
        #expect(throws: InputError.self) { try fields.scheduled("99999y") }
        #expect(throws: InputError.self) { try fields.remind("0000-01-01@9am") }
        #expect(throws: InputError.self) { try fields.slotStart("0001-01-01T10:00") }
        // A day-only reminder gets the default hour; east of UTC that is still 1969 on the first day.
        let auckland = FieldParser(now: try instant(Self.now), timeZone: try zone("Pacific/Auckland"))   // UTC+12 in 1970
        #expect(throws: InputError.badDate(key: "remind", .outOfRange(input: "1970-01-01", day: nil))) {
            try auckland.remind("1970-01-01")
        }
        #expect(try fields.remind("9999-12-31") == (try instant("9999-12-31T08:00:00Z")))
    }

    @Test("Timestamp.parse refuses an offset that moves the instant out of four-digit years")
    func timestampReader() throws {
        #expect(Timestamp.parse("9999-12-31T23:59:59Z") != nil)
        #expect(Timestamp.parse("0000-01-01T00:00:00Z") != nil)
        #expect(Timestamp.parse("9999-12-31T23:00:00-05:00") == nil)
        #expect(Timestamp.parse("0000-01-01T00:00:00+01:00") == nil)
        // Whatever it reads, it writes back the same.
        for text in ["9999-12-31T23:59:59Z", "0000-01-01T00:00:00Z", "0000-01-01T00:00:00-01:00", "9999-12-31T20:00:00+02:00"] {
            let d = try instant(text)
            #expect(Timestamp.parse(Timestamp.format(d)) == d, "\(text)")
        }
    }

    @Test("a series whose next occurrence would pass 9999-12-31 ends with a message", arguments: ["daily", "yearly", "+1d", "every 999y"])
    func recurrenceStops(_ rule: String) throws {
        let now = try instant(Self.now)
        let berlin = try zone("Europe/Berlin")
        var task = TaskItem(id: UUID(), title: "Forever", createdAt: now, modifiedAt: now)
        task.due = .day(try day("9999-12-31"))
        task.repeatRule = rule
        var file = TaskFile(kind: .inbox, id: UUID(), createdAt: now, modifiedAt: now)
        file.tasks = [task]
        // "+1d" counts from the completion day: complete it on the last day.
        let completedAt = rule == "+1d" ? try instant("9999-12-31T12:00:00Z") : now
        let outcome = try file.complete(taskID: task.id, at: completedAt, timeZone: berlin)
        #expect(outcome.task.state == .done)
        #expect(outcome.next == nil)
        #expect(file.tasks.count == 1)
        let problem = try #require(outcome.ruleProblem)
        #expect(problem.contains("outside the dates tick can store (1970-01-01 to 9999-12-31); the series ends here"), "\(problem)")
    }

    @Test("a series that stays in range goes on")
    func recurrenceInRange() throws {
        let now = try instant(Self.now)
        var task = TaskItem(id: UUID(), title: "Nearly", createdAt: now, modifiedAt: now)
        task.due = .day(try day("9999-12-30"))
        task.repeatRule = "daily"
        let next = try task.nextOccurrence(completedAt: now, now: now, timeZone: try zone("Europe/Berlin"))
        #expect(next?.due == .day(try day("9999-12-31")))
    }

    @Test("importers refuse a record with an out-of-range date, naming the record and the field")
    func importers() throws {
        let la = try zone("America/Los_Angeles")
        let context = InterchangeContext(path: "in", now: try instant(Self.now), timeZone: la)
        let ics = "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nSUMMARY:Far\r\nDUE:99991231T230000\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        let icsError = try #require(throws: ImportError.self) { try ICalendarCodec.decode(Array(ics.utf8), context: context) }
        #expect(icsError.line == 2)
        #expect(icsError.message == "task \"Far\": due 10000-01-01T07:00:00Z is outside the dates tick can store (1970-01-01 to 9999-12-31)")

        let todo = "Ancient due:0001-01-01\n"
        let todoError = try #require(throws: ImportError.self) { try TodoTxtCodec.decode(Array(todo.utf8), context: context) }
        #expect(todoError.line == 1)
        #expect(todoError.message.hasPrefix("task \"Ancient\": due 0001-01-01 is outside"))

        let tw = #"[{"uuid": "6f1c2a3b-0000-4000-8000-000000000001", "description": "Old", "status": "pending", "entry": "19600101T000000Z"}]"#
        let twError = try #require(throws: ImportError.self) { try TaskwarriorCodec.decode(Array(tw.utf8), context: context) }
        #expect(twError.message.hasPrefix("task \"Old\": createdAt 1960-01-01T00:00:00Z is outside"))
    }
}
