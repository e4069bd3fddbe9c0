import Foundation
import Testing
@testable import TickKit

/// CSV import and export.
@Suite struct CSVFormatTests {
    let context = InterchangeContext(path: "t.csv", now: Date(timeIntervalSince1970: 1_795_338_000), timeZone: Zone(named: "Europe/Berlin") ?? .utc)

    func ts(_ s: String) throws -> Date { try #require(Timestamp.parse(s)) }
    func decode(_ text: String) throws(ImportError) -> [TaskFile] { try CSVCodec.decode(Array(text.utf8), context: context) }
    func errorLine(_ text: String) -> Int? {
        do throws(ImportError) { _ = try decode(text); return nil } catch { return error.line }
    }

    @Test func quotingEdgeCases() throws {
        #expect(CSVCodec.quote("plain") == "plain")
        #expect(CSVCodec.quote("a,b") == "\"a,b\"")
        #expect(CSVCodec.quote("say \"hi\"") == "\"say \"\"hi\"\"\"")
        #expect(CSVCodec.quote("two\nlines") == "\"two\nlines\"")
        #expect(CSVCodec.quote(" pad") == "\" pad\"")
        #expect(CSVCodec.quote("") == "")
        let records = try CSVCodec.records(Array("a,\"b,c\",\"d\"\"e\"\r\n\"multi\nline\",,\n\"\"\nlast".utf8), path: "x")
        #expect(records.map(\.fields) == [["a", "b,c", "d\"e"], ["multi\nline", "", ""], [""], ["last"]])
        #expect(records.map(\.line) == [1, 2, 4, 5])
    }

    @Test func headerInAnyOrderAndMissingColumns() throws {
        let files = try decode("""
        tags,Title,list,due,extra col
        +home errand,Buy milk,,2026-11-24,x
        ,Report,Work,2026-11-24T16:00:00Z,
        ,"Fix ""it"", now",work,,
        """)
        #expect(files.map(\.displayName) == ["Inbox", "Work"])
        let milk = files[0].tasks[0]
        #expect(milk.title == "Buy milk")
        #expect(milk.tags == ["home", "errand"])
        #expect(milk.due == .day(try #require(LocalDate(iso: "2026-11-24"))))
        #expect(milk.state == .open)
        #expect(milk.createdAt == context.now)
        #expect(milk.extra == [JSONMember("x-csv-extra col", .string("x"))])
        #expect(files[1].tasks.map(\.title) == ["Report", "Fix \"it\", now"])
        #expect(files[1].tasks[0].due == .time(try ts("2026-11-24T16:00:00Z")))
        // Rows without ids get stable ids, so a second import updates instead of duplicating.
        #expect(try decode("title\nBuy milk\n")[0].tasks[0].id == (try decode("title\nBuy milk\n"))[0].tasks[0].id)
    }

    @Test func errorsReportPhysicalLines() throws {
        #expect(errorLine("id,title\n") == nil)
        #expect(errorLine("list\nWork\n") == 1)                         // no title column
        #expect(errorLine("title,notes\nA,\"x\ny\"\nB,1,2\n") == 4)      // too many fields, after a two-line row
        #expect(errorLine("title,state\nA,open\n\"B\nb\",nope\n") == 3)  // bad state: the line the row starts on
        #expect(errorLine("title,notes\nA,\"never closed\nstill\n") == 2)
        #expect(errorLine("title,notes\nA,b\"c\n") == 2)
        #expect(errorLine("title,notes\nA,\"b\"c\n") == 2)
        #expect(errorLine("title,due\nA,\nB,tomorrow\n") == 3)
        #expect(errorLine("title,tags\nA,a,b\n") == 2)
        #expect(errorLine("title,id\nA,not-a-uuid\n") == 2)
        #expect(errorLine("title,state\n,open\n") == 2)
        #expect(errorLine("title,title\nA,B\n") == 1)
        do throws(ImportError) {
            _ = try decode("title,priority\nA,high\n")
            Issue.record("expected an error")
        } catch {
            #expect(error.errorDescription == "t.csv:2: error: priority must be must or flexible, found \"high\"; nothing was imported")
        }
    }

    @Test func roundTrip() throws {
        let now = try ts("2026-11-21T09:00:00Z")
        var inbox = TaskFile(kind: .inbox, id: UUID(name: "tick-list:inbox"), createdAt: now, modifiedAt: now)
        var work = TaskFile(kind: .list(slug: "work"), id: UUID(), name: "Work, Inc.", createdAt: now, modifiedAt: now)
        inbox.tasks = [
            TaskItem(id: UUID(), title: "Call \"mom\", now", due: .time(try ts("2026-11-22T16:30:00Z")), scheduled: LocalDate(iso: "2026-11-23"),
                     remind: try ts("2026-11-22T08:00:00Z"), repeatRule: "every friday", priority: .must, energy: .low, tags: ["phone", "family"],
                     notes: "ask about trip,\n\n\"and\" the car\r\n ", createdAt: try ts("2026-11-01T08:00:00Z"), modifiedAt: try ts("2026-11-02T08:00:00Z")),
            TaskItem(id: UUID(), title: " spaced ", createdAt: now, modifiedAt: now),
        ]
        work.tasks = [
            TaskItem(id: UUID(), title: "Report", state: .active, due: .day(try #require(LocalDate(iso: "2026-11-24"))),
                     priority: .flexible, energy: .any, createdAt: try ts("2026-11-01T08:00:00Z"), modifiedAt: try ts("2026-11-03T08:00:00Z")),
            TaskItem(id: UUID(), title: "Done one", state: .done, createdAt: try ts("2026-11-01T08:00:00Z"), modifiedAt: try ts("2026-11-05T08:00:00Z"),
                     completedAt: try ts("2026-11-04T08:00:00Z")),
        ]
        let bytes = CSVCodec.encode([inbox, work], context: context)
        let back = try CSVCodec.decode(bytes, context: context)
        #expect(back.map(\.displayName) == ["Inbox", "Work, Inc."])
        // \r\n inside notes is normalized to \n on import.
        inbox.tasks[0].notes = "ask about trip,\n\n\"and\" the car\n "
        #expect(back[0].tasks == inbox.tasks)
        #expect(back[1].tasks == work.tasks)
        #expect(CSVCodec.encode(back, context: context) == CSVCodec.encode([inbox, work], context: context))
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix("id,list,title,state,due,scheduled,remind,repeat,priority,energy,tags,notes,createdAt,modifiedAt,completedAt,estimate,wait,depends\r\n"))
    }

    /// Issue 45's round-trip test: import reads a CRLF in notes as a line break, so every
    /// re-import of tick's own export updated a task whose notes had one; the store's stay.
    @Test func reimportKeepsTheStoresCRLF() throws {
        let now = try ts("2026-11-21T09:00:00Z")
        var inbox = TaskFile(kind: .inbox, id: UUID(name: "tick-list:inbox"), createdAt: now, modifiedAt: now)
        inbox.tasks = [TaskItem(id: UUID(), title: "A", notes: "one\r\ntwo", createdAt: now, modifiedAt: now)]
        let back = try CSVCodec.decode(CSVCodec.encode([inbox], context: context), context: context)
        #expect(back.first?.tasks.first?.notes == "one\ntwo")
        #expect(CSVCodec.reconcile(back, with: StoreSnapshot(files: [inbox])).first?.tasks == inbox.tasks)
    }
}
