import Foundation
import Testing
@testable import TickKit

/// Tests for `TodoTxtCodec`.
@Suite struct TodoTxtFormatTests {
    static let berlin = Zone(named: "Europe/Berlin") ?? .utc
    static let now = Date(timeIntervalSince1970: 1_795_251_600) // 2026-11-21T09:00:00Z
    static let context = InterchangeContext(path: "todo.txt", now: now, timeZone: berlin)

    static func decode(_ text: String) throws -> [TaskFile] {
        try TodoTxtCodec.decode(Array(text.utf8), context: context)
    }

    static func day(_ s: String) throws -> LocalDate { try #require(LocalDate(iso: s)) }

    @Test func mapsAllFields() throws {
        let files = try Self.decode("""
        (A) 2026-11-20 Call mom +Family @phone due:2026-11-24 t:2026-11-22 rec:1w

        (C) Pay rent +Home +Money @bills
        x 2026-11-21 2026-11-01 Buy milk @errand
        Plain task http://example.com/a:b
        """)
        #expect(files.count == 3)
        let inbox = try #require(files.first { $0.kind == .inbox })
        #expect(inbox.tasks.map(\.title) == ["Buy milk", "Plain task http://example.com/a:b"])
        let milk = inbox.tasks[0]
        #expect(milk.state == .done)
        #expect(milk.completedAt == (try Self.day("2026-11-21")).startOfDay(in: Self.berlin))
        #expect(milk.createdAt == (try Self.day("2026-11-01")).startOfDay(in: Self.berlin))
        #expect(milk.tags == ["errand"])

        let family = try #require(files.first { $0.name == "Family" })
        let call = family.tasks[0]
        #expect(call.title == "Call mom")
        #expect(call.priority == .must)
        #expect(call.tags == ["phone"])
        #expect(call.due == .day(try Self.day("2026-11-24")))
        // t: is the threshold (scheduled) day, rec:1w a week after completion.
        #expect(call.scheduled == (try Self.day("2026-11-22")))
        #expect(call.repeatRule == "+1w")
        #expect(call.extra.isEmpty)

        let home = try #require(files.first { $0.name == "Home" })
        let rent = home.tasks[0]
        #expect(rent.priority == .flexible)
        #expect(rent.extra == [
            JSONMember("x-todotxt-priority", .string("C")),
            JSONMember("x-todotxt-projects", .array([.string("Money")])),
        ])
        #expect(rent.createdAt == Self.now)
    }

    @Test func exportWritesIdAndRoundTrips() throws {
        let files = try Self.decode("(C) 2026-11-20 Pay rent +Home +Money @bills due:2026-11-24 t:2026-11-22\n")
        let text = String(decoding: TodoTxtCodec.encode(files, context: Self.context), as: UTF8.self)
        let id = files[0].tasks[0].id.lowercased
        #expect(text == "(C) 2026-11-20 Pay rent +Home +Money @bills due:2026-11-24 t:2026-11-22 tick:\(id)\n")
        let again = try TodoTxtCodec.decode(Array(text.utf8), context: Self.context)
        #expect(again[0].tasks == files[0].tasks)
    }

    @Test func tickTaskSurvivesTodoShDo() throws {
        let created = Date(timeIntervalSince1970: 1_795_000_000)
        let task = TaskItem(id: UUID(), title: "Report", priority: .must, tags: ["work"], createdAt: created, modifiedAt: created)
        let file = TaskFile(kind: .list(slug: "work"), id: UUID(), name: "Work", createdAt: created, modifiedAt: created, tasks: [task])
        let line = TodoTxtCodec.line(for: task, list: "Work", timeZone: Self.berlin)
        #expect(line.hasPrefix("(A) 2026-11-18 Report +Work @work tick:"))
        // What `todo.sh do 1` makes of it (priority removed, completion date added).
        let doneLine = "x 2026-11-21 " + line.dropFirst(4)
        let back = try Self.decode(doneLine + "\n")
        #expect(back[0].tasks[0].id == task.id)
        #expect(back[0].tasks[0].state == .done)
        #expect(back[0].name == file.name)
    }

    @Test func linesWithoutIdGetStableIdsIndependentOfCompletion() throws {
        let open = try Self.decode("(B) 2026-11-20 Water plants @home\n")
        let done = try Self.decode("x 2026-11-21 2026-11-20 Water plants @home\n")
        #expect(open[0].tasks[0].id == done[0].tasks[0].id)
    }

    @Test func errorsCarryLineNumbers() throws {
        #expect(throws: ImportError(path: "todo.txt", line: 3, message: "invalid due date \"tomorrow\"; use due:YYYY-MM-DD")) {
            try Self.decode("one\n\ntwo due:tomorrow\n")
        }
        #expect(throws: ImportError(path: "todo.txt", line: 1, message: "invalid date \"2026-02-30\"; use YYYY-MM-DD")) {
            try Self.decode("x 2026-02-30 broken\n")
        }
        #expect(throws: ImportError(path: "todo.txt", line: 2, message: "the task has no text, only markers")) {
            try Self.decode("ok\n(A) +proj @ctx\n")
        }
    }

    @Test func mergeKeepsWhatTheLineCannotSay() throws {
        let created = Date(timeIntervalSince1970: 1_795_251_600)
        var current = TaskItem(id: UUID(), title: "Report", due: .time(Date(timeIntervalSince1970: 1_795_600_000)),
                               remind: created, repeatRule: "every friday", priority: .must, energy: .high,
                               tags: ["work"], notes: "keep me", createdAt: created, modifiedAt: created,
                               extra: [JSONMember("x-estimate", JSONNode(.number("2")))])
        current.state = .active
        let line = TodoTxtCodec.line(for: current, list: "Work", timeZone: Self.berlin)
        let later = InterchangeContext(path: "todo.txt", now: created.addingTimeInterval(3_600), timeZone: Self.berlin)
        let same = try TodoTxtCodec.decode(Array((line + "\n").utf8), context: later)[0].tasks[0]
        #expect(TodoTxtCodec.merge(same, onto: current, timeZone: Self.berlin) == current)

        let doneLine = "x 2026-11-22 " + line.dropFirst(4)
        let done = try TodoTxtCodec.decode(Array((doneLine + "\n").utf8), context: later)[0].tasks[0]
        let merged = TodoTxtCodec.merge(done, onto: current, timeZone: Self.berlin)
        #expect(merged.state == .done)
        #expect(merged.notes == "keep me")
        #expect(merged.remind == current.remind)
        #expect(merged.due == current.due)
        #expect(merged.createdAt == current.createdAt)
        #expect(merged.extra == current.extra)
        #expect(merged.priority == .must)
        #expect(merged.modifiedAt == later.now)
    }

    /// Issue 45's round-trip test: a re-import put `x-todotxt-priority` behind the store's
    /// other unknown keys, rewriting a task whose values had not changed.
    @Test func reimportKeepsTheOrderOfUnknownKeys() {
        let store = [JSONMember("x-todotxt-priority", .string("C")), JSONMember("x-mine", JSONNode(.number("42"))), JSONMember("x-todotxt-extra", .string("old"))]
        let line = [JSONMember("x-todotxt-priority", .string("D")), JSONMember("x-todotxt-projects", JSONNode(.array([])))]
        let merged = ImportExtra.merge(store, dropping: ["x-todotxt-priority", "x-todotxt-projects", "x-todotxt-extra"], imported: line)
        #expect(merged.map { $0.key } == ["x-todotxt-priority", "x-mine", "x-todotxt-projects"])
        #expect(merged.first?.value == .string("D"))
        #expect(ImportExtra.merge(store, dropping: ["x-todotxt-extra"], imported: [store[0]]).map { $0.key } == ["x-todotxt-priority", "x-mine"])
    }
}
