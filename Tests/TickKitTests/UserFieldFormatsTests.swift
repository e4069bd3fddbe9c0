import Foundation
import Testing
@testable import TickKit

/// Declared fields in todo.txt (`NAME:value`) and CSV (a column per field),
/// both ways, and re-imports that keep what the format does not say.
@Suite struct UserFieldFormatsTests {
    static let berlin = Zone(named: "Europe/Berlin") ?? .utc
    static let fields = UserFieldTaskwarriorTests.fields
    static let now = Date(timeIntervalSince1970: 1_795_338_000)
    var context: InterchangeContext { InterchangeContext(path: "x", now: Self.now, timeZone: Self.berlin, fields: Self.fields) }

    func value(_ task: TaskItem?, _ key: String) -> JSONNode? { task?.extra.first { $0.key == key }?.value }

    func sample() -> TaskItem {
        var task = TaskItem(id: UUID(), title: "Audit", createdAt: Self.now, modifiedAt: Self.now)
        task.extra = [
            JSONMember("client", .string("Acme")), JSONMember("points", JSONNode(.number("2.5"))),
            JSONMember("review", .string("2030-12-01T09:30:00Z")), JSONMember("spent", JSONNode(.number("90"))),
            JSONMember("size", .string("L")), JSONMember("note", .string("kept")),
        ]
        return task
    }

    func files(_ task: TaskItem) -> [TaskFile] {
        var file = TaskFile.empty(.inbox, name: nil, now: Self.now)
        file.tasks = [task]
        return [file]
    }

    @Test func todoTxtWordsBothWays() throws {
        let task = sample()
        let line = TodoTxtCodec.line(for: task, list: nil, timeZone: Self.berlin, fields: Self.fields)
        #expect(line.contains(" client:Acme points:2.5 review:20301201T093000Z size:L spent:90m "), Comment(rawValue: line))
        #expect(!line.contains("note:"))
        let back = try #require(try TodoTxtCodec.decode(Array((line + "\n").utf8), context: context).first?.tasks.first)
        for key in ["client", "points", "review", "spent", "size"] { #expect(value(back, key) == value(task, key), "\(key)") }
        #expect(value(back, TodoTxtCodec.extraKey) == nil)
        // Re-imported onto the store's task: the same task (undeclared keys, order).
        let merged = TodoTxtCodec.merge(back, onto: task, timeZone: Self.berlin)
        #expect(merged.extra == task.extra)
        #expect(merged.sameContent(as: task))
    }

    @Test func todoTxtKeepsWhatHasNoWord() throws {
        var task = sample()
        task.extra[0] = JSONMember("client", .string("Globex Corp"))
        task.extra[3] = JSONMember("spent", .string("a while"))   // a hand edit of another type
        let line = TodoTxtCodec.line(for: task, list: nil, timeZone: Self.berlin, fields: Self.fields)
        #expect(!line.contains("client:") && !line.contains("spent:"), Comment(rawValue: line))
        let back = try #require(try TodoTxtCodec.decode(Array((line + "\n").utf8), context: context).first?.tasks.first)
        let merged = TodoTxtCodec.merge(back, onto: task, timeZone: Self.berlin)
        #expect(value(merged, "client") == .string("Globex Corp"))
        #expect(value(merged, "spent") == .string("a while"))
        // A word that would not come back the same stays an unknown todo.txt key.
        let odd = try #require(try TodoTxtCodec.decode(Array("Call points:007 size:xl spent:1h\n".utf8), context: context).first?.tasks.first)
        #expect(value(odd, "points") == nil && value(odd, "size") == nil && value(odd, "spent") == nil)
        #expect(value(odd, TodoTxtCodec.extraKey) == .object([
            JSONMember("points", .string("007")), JSONMember("size", .string("xl")), JSONMember("spent", .string("1h")),
        ]))
    }

    @Test func csvColumnsBothWays() throws {
        let task = sample()
        let text = String(decoding: CSVCodec.encode(files(task), context: context), as: UTF8.self)
        let lines = text.split(separator: "\r\n")
        #expect(lines.first?.hasSuffix(",depends,client,points,review,size,spent") == true, "\(lines.first ?? "")")
        #expect(lines.dropFirst().first?.hasSuffix(",Acme,2.5,2030-12-01T09:30:00Z,L,90") == true, Comment(rawValue: text))
        let back = try #require(try CSVCodec.decode(Array(text.utf8), context: context).first?.tasks.first)
        for key in ["client", "points", "review", "spent", "size"] { #expect(value(back, key) == value(task, key), "\(key)") }
        let reconciled = CSVCodec.reconcile(files(back), with: StoreSnapshot(files: files(task)))
        #expect(reconciled.first?.tasks.first?.extra == task.extra)
        // Cells as people type them; a bad one is the row's error.
        let typed = "title,size,spent,review\r\nA,m,1h30m,2030-12-01\r\n"
        let a = try #require(try CSVCodec.decode(Array(typed.utf8), context: context).first?.tasks.first)
        #expect(value(a, "size") == .string("M") && value(a, "spent") == JSONNode(.number("90")) && value(a, "review") == .string("2030-12-01"))
        #expect(throws: ImportError.self) { try CSVCodec.decode(Array("title,size\r\nA,XL\r\n".utf8), context: context) }
    }
}
