import Foundation
import Testing
@testable import TickKit

/// The `$EDITOR` buffer of `tick edit`: `//` header lines are ignored, and a time typed
/// without a zone is local time (issue 13).
@Suite struct EditorBufferTests {
    let newYork = Zone(named: "America/New_York")!

    func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test func headerNamesTheZoneAndIsIgnored() {
        let buffer = EditorBuffer(timeZone: newYork)
        let json = Array("{\n  \"title\": \"A\"\n}\n".utf8)
        let rendered = buffer.render(json: json)
        #expect(text(rendered).contains("local zone, America/New_York"))
        let back = buffer.json(from: rendered)
        // The header lines become empty lines: same line numbers, no comment text.
        #expect(text(back) == String(repeating: "\n", count: buffer.header.count) + text(json))
    }

    @Test func zonelessTimesAreLocalAcrossSpringForward() throws {
        let buffer = EditorBuffer(timeZone: newYork)
        let input = """
        {"due": "2026-03-08T09:00", "remind": "2026-03-07 09:00:00", "completedAt": "2026-03-08T09:00:00Z",
         "createdAt": "2026-03-08T09:00:00-05:00", "notes": "2026-03-08T09:00", "scheduled": "2026-03-08",
         "wait": "2026-03-09T08:00"}
        """
        let out = text(buffer.json(from: Array(input.utf8)))
        #expect(out.contains("\"due\": \"2026-03-08T13:00:00Z\""))          // EDT, UTC-4
        #expect(out.contains("\"remind\": \"2026-03-07T14:00:00Z\""))       // EST, UTC-5
        #expect(out.contains("\"completedAt\": \"2026-03-08T09:00:00Z\""))  // a zone: kept
        #expect(out.contains("\"createdAt\": \"2026-03-08T09:00:00-05:00\""))
        #expect(out.contains("\"notes\": \"2026-03-08T09:00\""))            // not a time key
        #expect(out.contains("\"scheduled\": \"2026-03-08\""))
        #expect(out.contains("\"wait\": \"2026-03-09T12:00:00Z\""))       // wait takes a time too
        // 02:30 does not exist that day: it moves forward by the gap, as WHEN does.
        #expect(buffer.localInstant("2026-03-08T02:30") == Timestamp.parse("2026-03-08T07:30:00Z"))
    }

    /// The time keys come from the field table: every field whose value may be an instant.
    @Test func everyFieldThatTakesATimeIsATimeKey() {
        let expected = TaskField.all.filter { [.instant, .dayOrTime].contains($0.kind) }.map(\.name)
        #expect(Set(expected) == EditorBuffer.timeKeys)
        #expect(EditorBuffer.timeKeys.isSuperset(of: ["due", "wait", "remind", "createdAt", "modifiedAt", "completedAt"]))
    }

    @Test func invalidJSONOnlyLosesComments() {
        let buffer = EditorBuffer(timeZone: newYork)
        let input = "// note\n{\"due\": \"2026-03-08T09:00\",}\n"
        #expect(text(buffer.json(from: Array(input.utf8))) == "\n{\"due\": \"2026-03-08T09:00\",}\n")
    }
}
