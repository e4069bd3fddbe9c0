import Foundation
import Testing
@testable import TickKit

/// Tests for `Timestamp` (file timestamps) and `TaskDate` file text.
@Suite struct TimestampTests {
    /// 2026-11-21T07:20:25Z.
    static let reference = Date(timeIntervalSince1970: 1_795_245_625)

    // MARK: - Formatting

    @Test func formatsUTCWholeSeconds() {
        #expect(Timestamp.format(Self.reference) == "2026-11-21T07:20:25Z")
        #expect(Timestamp.format(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00Z")
        #expect(Timestamp.format(Self.reference.addingTimeInterval(0.999)) == "2026-11-21T07:20:25Z")
        #expect(Timestamp.format(Date(timeIntervalSince1970: -1)) == "1969-12-31T23:59:59Z")
        #expect(Timestamp.format(Date(timeIntervalSince1970: -0.5)) == "1969-12-31T23:59:59Z")
        #expect(Timestamp.format(Date(timeIntervalSince1970: 951_782_400)) == "2000-02-29T00:00:00Z")
    }

    @Test func formatMatchesISO8601DateFormatter() {
        let reference = ISO8601DateFormatter()
        for seconds in stride(from: -2_000_000_000, through: 4_000_000_000, by: 7_654_321) {
            let date = Date(timeIntervalSince1970: TimeInterval(seconds))
            #expect(Timestamp.format(date) == reference.string(from: date))
        }
    }

    // MARK: - Parsing

    @Test func parsesCanonicalForm() {
        #expect(Timestamp.parse("2026-11-21T07:20:25Z") == Self.reference)
        #expect(Timestamp.parse("1970-01-01T00:00:00Z") == Date(timeIntervalSince1970: 0))
        #expect(Timestamp.parse("1969-12-31T23:59:59Z") == Date(timeIntervalSince1970: -1))
    }

    @Test func roundTrips() throws {
        for seconds in stride(from: -2_000_000_000, through: 4_000_000_000, by: 3_333_331) {
            let date = Date(timeIntervalSince1970: TimeInterval(seconds))
            let text = Timestamp.format(date)
            #expect(Timestamp.parse(text) == date, "\(text)")
            let reparsed = try #require(Timestamp.parse(text))
            #expect(Timestamp.format(reparsed) == text)
        }
    }

    @Test(arguments: [
        "2026-11-21T08:20:25+01:00",
        "2026-11-21T08:20:25+0100",
        "2026-11-21T02:20:25-05:00",
        "2026-11-21T02:20:25-0500",
        "2026-11-21T12:50:25+05:30",
        "2026-11-21T07:20:25+00:00",
        "2026-11-21T07:20:25-00:00",
        "2026-11-22T00:20:25+17:00",
        "2026-11-20T21:20:25-10:00",
        "2026-11-21T07:20:25",   // no zone: UTC
    ])
    func parsesOffsets(text: String) {
        #expect(Timestamp.parse(text) == Self.reference)
    }

    @Test func parsesWithoutSeconds() {
        let expected = Date(timeIntervalSince1970: 1_795_245_600)   // 2026-11-21T07:20:00Z
        #expect(Timestamp.parse("2026-11-21T07:20Z") == expected)
        #expect(Timestamp.parse("2026-11-21T08:20+01:00") == expected)
        #expect(Timestamp.parse("2026-11-21T02:20-0500") == expected)
    }

    @Test func parsesFractionalSeconds() throws {
        let millis = try #require(Timestamp.parse("2026-11-21T07:20:25.123Z"))
        #expect(abs(millis.timeIntervalSince(Self.reference) - 0.123) < 1e-6)
        let half = try #require(Timestamp.parse("2026-11-21T08:20:25.5+01:00"))
        #expect(half.timeIntervalSince(Self.reference) == 0.5)
        let nanos = try #require(Timestamp.parse("2026-11-21T07:20:25.123456789123Z"))
        #expect(abs(nanos.timeIntervalSince(Self.reference) - 0.123456789) < 1e-6)
        #expect(Timestamp.format(millis) == "2026-11-21T07:20:25Z")
        #expect(Timestamp.parse("2026-11-21T07:20:25.000Z") == Self.reference)
    }

    @Test func agreesWithISO8601DateFormatterOnOffsets() throws {
        let reference = ISO8601DateFormatter()
        for text in ["2031-06-15T23:59:59+14:00", "1999-12-31T23:59:59-12:00", "2024-02-29T12:00:00+05:45"] {
            let expected = try #require(reference.date(from: text))
            #expect(Timestamp.parse(text) == expected, "\(text)")
        }
    }

    @Test(arguments: [
        "",
        "yesterday",
        "2026-13-01T00:00:00Z",
        "2026-00-01T00:00:00Z",
        "2026-02-30T00:00:00Z",
        "2027-02-29T00:00:00Z",
        "2026-11-21T24:00:00Z",
        "2026-11-21T07:60:00Z",
        "2026-11-21T07:20:60Z",
        "2026-11-21T07:20:25+24:00",
        "2026-11-21T07:20:25+01:60",
        "2026-11-21T07:20:25+1",
        "2026-11-21T07:20:25+01",
        "2026-11-21T07:20:25+01:0",
        "2026-11-21T07:20:25ZZ",
        "2026-11-21T07:20:25Z ",
        " 2026-11-21T07:20:25Z",
        "2026-11-21T07:20:25.Z",
        "2026-11-21T07:20:25.",
        "2026-11-21T07:20:2Z",
        "2026-11-21T07:20",
        "2026-11-21T7:20:25Z",
        "2026-11-21 07:20:25Z",
        "2026-11-21t07:20:25Z",
        "2026-11-21",
        "2026/11/21T07:20:25Z",
        "2026-11-21T07:20:25UTC",
        "26-11-21T07:20:25Z",
        "2026-11-21T07:20:25Z+01:00",
    ])
    func rejectsGarbage(text: String) {
        #expect(Timestamp.parse(text) == nil)
    }

    @Test func parsesSubstringBackedAndBridgedStrings() {
        let long = "xx2026-11-21T07:20:25Zyy"
        let inner = String(long.dropFirst(2).dropLast(2))
        #expect(Timestamp.parse(inner) == Self.reference)
        let bridged = NSString(string: "2026-11-21T07:20:25Z") as String
        #expect(Timestamp.parse(bridged) == Self.reference)
    }

    // MARK: - TaskDate file text

    @Test func taskDateFileStrings() throws {
        let day = try #require(LocalDate(iso: "2026-11-24"))
        #expect(TaskDate.day(day).fileString == "2026-11-24")
        #expect(TaskDate.time(Self.reference).fileString == "2026-11-21T07:20:25Z")
        #expect(TaskDate(fileString: "2026-11-24") == .day(day))
        #expect(TaskDate(fileString: "2026-11-21T07:20:25Z") == .time(Self.reference))
        #expect(TaskDate(fileString: "2026-11-21T08:20:25+01:00") == .time(Self.reference))
        #expect(TaskDate(fileString: "2026-02-30") == nil)
        #expect(TaskDate(fileString: "tomorrow") == nil)
        #expect(TaskDate(fileString: "") == nil)
        for original in [TaskDate.day(day), .time(Self.reference)] {
            #expect(TaskDate(fileString: original.fileString) == original)
        }
    }

    @Test func taskDateLocalDay() throws {
        let berlin = try #require(Zone(named: "Europe/Berlin"))
        let newYork = try #require(Zone(named: "America/New_York"))
        let day = try #require(LocalDate(iso: "2026-11-24"))
        #expect(TaskDate.day(day).localDay(in: newYork) == day)
        let late = TaskDate.time(try #require(Timestamp.parse("2026-11-21T23:30:00Z")))
        #expect(late.localDay(in: berlin) == LocalDate(iso: "2026-11-22"))
        #expect(late.localDay(in: newYork) == LocalDate(iso: "2026-11-21"))
    }
}
