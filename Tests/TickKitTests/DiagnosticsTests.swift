import Foundation
import Testing
@testable import TickKit

/// The one formatters diagnostics and times go through: ``FileLocation``,
/// ``TickWarning``, ``TickError/errorLine`` and ``ClockTime/dayAndTime(_:in:separator:)``.
@Suite struct DiagnosticsTests {
    @Test func aFileLocationShowsWhatItKnows() {
        #expect(FileLocation(path: "lists/a.json").description == "lists/a.json")
        #expect(FileLocation(path: "lists/a.json", line: 4).description == "lists/a.json:4")
        #expect(FileLocation(path: "lists/a.json", line: 4, column: 19).description == "lists/a.json:4:19")
        #expect(FileLocation(path: "x", column: 3).description == "x", "a column without a line is not shown")
    }

    @Test func aWarningHasNoPrefixAndItsPlaceFirst() {
        #expect(TickWarning("the index is in memory").description == "the index is in memory")
        #expect(TickWarning("skipped", at: FileLocation(path: "/j/undo.jsonl", line: 2)).description == "/j/undo.jsonl:2: skipped")
    }

    @Test func errorsPutTheirLocationFirstElseTick() {
        let located = FormatError(path: "inbox.json", location: SourceLocation(line: 2, column: 5, lineText: "  x"), message: "bad")
        #expect(located.errorLine == "inbox.json:2:5: error: bad\n    " + "  x\n        ^")
        #expect(located.errorDescription == located.errorLine)
        #expect(FormatError(path: "inbox.json", location: nil, message: "bad").errorLine == "inbox.json: error: bad")
        #expect(ImportError(path: "t.csv", line: 3, message: "no title").errorLine == "t.csv:3: error: no title; nothing was imported")
        #expect(ImportError(path: "t.csv", line: 3, message: "no title").errorDescription == "t.csv:3: error: no title; nothing was imported")
        #expect(FileLocation.errorLine("no store", at: nil) == "tick: error: no store")
    }

    @Test func clockTimesAreTheWallClockOfTheZone() throws {
        let zone = try #require(Zone(named: "Europe/Berlin"))
        let instant = Date(timeIntervalSince1970: 1_795_532_399)   // 2026-11-24T14:59:59Z
        #expect(ClockTime(date: instant, timeZone: zone).description == "15:59")
        #expect(ClockTime.dayAndTime(instant, in: zone) == "2026-11-24 15:59")
        #expect(ClockTime.dayAndTime(instant, in: zone, separator: "T") == "2026-11-24T15:59")
        let utc = try #require(Zone(named: "UTC"))
        #expect(ClockTime.dayAndTime(Date(timeIntervalSince1970: 1_795_564_800 - 60), in: utc) == "2026-11-24 23:59")
    }
}
