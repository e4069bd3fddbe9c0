import Foundation
import Testing
@testable import TickKit

/// Keys tick does not know survive every rewrite unchanged.
@Suite struct UnknownKeyTests {
    let text = """
    {"version": 1, "id": "9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a", "name": "Work", "x-owner": "sam",
     "createdAt": "2026-11-01T09:00:00Z", "modifiedAt": "2026-11-01T09:00:00Z",
     "tasks": [{"id": "0e4f3c2a-5b6d-4e7f-8a9b-0c1d2e3f4a5b", "title": "Report", "state": "open",
                "createdAt": "2026-11-01T09:00:00Z", "modifiedAt": "2026-11-01T09:00:00Z",
                "x-estimate": 3, "x-links": ["a", {"b": 1.50}], "x-flag": false, "x-none": null}],
     "x-trailer": {"z": 1, "a": 2}}
    """

    func decode(_ bytes: [UInt8]) throws -> TaskFile {
        try TaskFileDecoder(bytes: bytes, path: "w.json", kind: .list(slug: "work"), fallbackDate: Date()).decode()
    }

    @Test func survivesStateChangeAndEdit() throws {
        var file = try decode(Array(text.utf8))
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        file.tasks[0].setState(.done, at: now)
        var edit = TaskEdit()
        edit.title = "Final report"
        edit.addTags = ["q4"]
        edit.apply(to: &file.tasks[0], now: now)
        let reread = try decode(TaskFileEncoder.encode(file))
        #expect(reread.extra.map(\.key) == ["x-owner", "x-trailer"])
        #expect(reread.tasks[0].extra.map(\.key) == ["x-estimate", "x-links", "x-flag", "x-none"])
        #expect(reread.tasks[0].extra[0].value == JSONNode(.number("3")))
        #expect(reread.tasks[0].extra[1].value == .array([.string("a"), .object([JSONMember("b", JSONNode(.number("1.50")))])]))
        #expect(reread.tasks[0].extra[3].value == JSONNode(.null))
        #expect(reread.extra[1].value == .object([JSONMember("z", JSONNode(.number("1"))), JSONMember("a", JSONNode(.number("2")))]))
        #expect(reread.tasks[0].title == "Final report")
        #expect(reread.tasks[0].state == .done)
        #expect(reread.tasks[0].completedAt == now)
    }

    @Test func unknownKeysComeAfterKnownOnesInOriginalOrder() throws {
        let out = String(decoding: TaskFileEncoder.encode(try decode(Array(text.utf8))), as: UTF8.self)
        let estimate = try #require(out.range(of: "\"x-estimate\": 3"))
        let modified = try #require(out.range(of: "\"modifiedAt\": \"2026-11-01T09:00:00Z\",\n      \"x-estimate\""))
        #expect(modified.lowerBound < estimate.lowerBound)
        #expect(out.contains("\"x-links\": [\n        \"a\",\n        {\n          \"b\": 1.50\n        }\n      ]"))
        let trailer = try #require(out.range(of: "\"x-trailer\""))
        let tasks = try #require(out.range(of: "\"tasks\""))
        #expect(trailer.lowerBound < tasks.lowerBound)
    }
}
