import Foundation
import Testing
@testable import TickKit

/// Tests for `WhenParser` (and, in a nested suite, `RelativeDateFormatter`).
///
/// The default clock is 2026-11-21T07:20:00Z, a Saturday: 08:20 in Berlin, 02:20 in New York.
@Suite struct WhenParserTests {
    static let defaultNow = "2026-11-21T07:20:00Z"

    func zone(_ identifier: String) throws -> Zone {
        try #require(Zone(named: identifier))
    }

    func instant(_ text: String) throws -> Date {
        try #require(Timestamp.parse(text))
    }

    func date(_ iso: String) throws -> LocalDate {
        try #require(LocalDate(iso: iso))
    }

    func parser(now: String = defaultNow, zone identifier: String = "Europe/Berlin") throws -> WhenParser {
        WhenParser(now: try instant(now), timeZone: try zone(identifier))
    }

    /// Parses `text` and expects an all-day date equal to `expected`.
    func expectDay(_ text: String, _ expected: String, parser: WhenParser,
                   sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let result = try parser.parse(text)
        #expect(result == .day(try date(expected)), "\(text)", sourceLocation: sourceLocation)
    }

    /// Parses `text` and expects an instant equal to the UTC timestamp `expected`.
    func expectTime(_ text: String, _ expected: String, parser: WhenParser,
                    sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let result = try parser.parse(text)
        #expect(result == .time(try instant(expected)), "\(text)", sourceLocation: sourceLocation)
    }

    // MARK: - Day words

    @Test func clockIsPinnedToASaturday() throws {
        let p = try parser()
        #expect(p.today == (try date("2026-11-21")))
        #expect(p.today.weekday == 6)
    }

    @Test func todayTomorrowYesterday() throws {
        let p = try parser()
        try expectDay("today", "2026-11-21", parser: p)
        try expectDay("tomorrow", "2026-11-22", parser: p)
        try expectDay("tom", "2026-11-22", parser: p)
        try expectDay("yesterday", "2026-11-20", parser: p)
    }

    @Test func caseInsensitiveAndTrimmed() throws {
        let p = try parser()
        try expectDay("  TOMORROW \n", "2026-11-22", parser: p)
        try expectDay("Fri", "2026-11-27", parser: p)
        try expectDay("NEXT  Week", "2026-11-23", parser: p)
        try expectDay(" In 3D ", "2026-11-24", parser: p)
    }

    @Test(arguments: [
        ("mon", "2026-11-23"), ("monday", "2026-11-23"),
        ("tue", "2026-11-24"), ("tues", "2026-11-24"), ("tuesday", "2026-11-24"),
        ("wed", "2026-11-25"), ("wednesday", "2026-11-25"),
        ("thu", "2026-11-26"), ("thur", "2026-11-26"), ("thurs", "2026-11-26"), ("thursday", "2026-11-26"),
        ("fri", "2026-11-27"), ("friday", "2026-11-27"),
        // Today is Saturday: "sat" is a week later, never today.
        ("sat", "2026-11-28"), ("saturday", "2026-11-28"),
        ("sun", "2026-11-22"), ("sunday", "2026-11-22"),
    ])
    func weekdaysAreStrictlyAfterToday(word: String, expected: String) throws {
        try expectDay(word, expected, parser: try parser())
    }

    @Test func weekdayWhenTodayIsFridayInNewYork() throws {
        // 03:00Z on Saturday is still Friday 22:00 in New York.
        let p = try parser(now: "2026-11-21T03:00:00Z", zone: "America/New_York")
        #expect(p.today == (try date("2026-11-20")))
        try expectDay("fri", "2026-11-27", parser: p)
        try expectDay("sat", "2026-11-21", parser: p)
        try expectDay("today", "2026-11-20", parser: p)
        try expectDay("tomorrow", "2026-11-21", parser: p)
        // The same instant is already Saturday in Berlin.
        try expectDay("today", "2026-11-21", parser: try parser(now: "2026-11-21T03:00:00Z"))
    }

    @Test func nextWeekIsMondayOfNextISOWeek() throws {
        let p = try parser()
        for word in ["next week", "nextweek", "next-week"] {
            try expectDay(word, "2026-11-23", parser: p)
        }
        // From a Sunday it is the very next day; from a Monday a full week ahead.
        try expectDay("next week", "2026-11-23", parser: try parser(now: "2026-11-22T12:00:00Z"))
        try expectDay("next week", "2026-11-30", parser: try parser(now: "2026-11-23T12:00:00Z"))
    }

    @Test func endOfWeekMonthYear() throws {
        let p = try parser()
        try expectDay("eow", "2026-11-22", parser: p)
        try expectDay("eom", "2026-11-30", parser: p)
        try expectDay("eoy", "2026-12-31", parser: p)
        // On a Sunday, eow is today.
        try expectDay("eow", "2026-11-22", parser: try parser(now: "2026-11-22T12:00:00Z"))
        // eom in a leap February.
        try expectDay("eom", "2028-02-29", parser: try parser(now: "2028-02-10T12:00:00Z"))
    }

    @Test(arguments: [
        ("in 3d", "2026-11-24"), ("in3d", "2026-11-24"), ("3d", "2026-11-24"), ("+3d", "2026-11-24"),
        ("in 3 days", "2026-11-24"), ("in 1 day", "2026-11-22"), ("0d", "2026-11-21"),
        ("in 2w", "2026-12-05"), ("2w", "2026-12-05"), ("in2w", "2026-12-05"), ("+2w", "2026-12-05"),
        ("in 1mo", "2026-12-21"), ("1mo", "2026-12-21"), ("in 3mo", "2027-02-21"),
        ("in 1y", "2027-11-21"), ("1y", "2027-11-21"), ("+2y", "2028-11-21"),
    ])
    func relativeOffsets(text: String, expected: String) throws {
        try expectDay(text, expected, parser: try parser())
    }

    @Test func monthOffsetsClampToMonthEnd() throws {
        try expectDay("in 1mo", "2027-02-28", parser: try parser(now: "2027-01-31T12:00:00Z"))
        try expectDay("in 1mo", "2028-02-29", parser: try parser(now: "2028-01-31T12:00:00Z"))
        try expectDay("1mo", "2027-04-30", parser: try parser(now: "2027-03-31T12:00:00Z"))
    }

    @Test func yearOffsetFromLeapDay() throws {
        try expectDay("in 1y", "2029-02-28", parser: try parser(now: "2028-02-29T12:00:00Z"))
        try expectDay("4y", "2032-02-29", parser: try parser(now: "2028-02-29T12:00:00Z"))
    }

    @Test func isoDate() throws {
        let p = try parser()
        try expectDay("2026-11-24", "2026-11-24", parser: p)
        try expectDay("2028-02-29", "2028-02-29", parser: p)
        try expectDay("2020-01-01", "2020-01-01", parser: p)
    }

    // MARK: - Date-times

    @Test func isoDateTimesAreLocalWallTime() throws {
        let berlin = try parser()
        try expectTime("2026-11-24T17:00", "2026-11-24T16:00:00Z", parser: berlin)
        try expectTime("2026-11-24T17:00:00", "2026-11-24T16:00:00Z", parser: berlin)
        try expectTime("2026-11-24 17:00", "2026-11-24T16:00:00Z", parser: berlin)
        try expectTime("2026-11-24t17:00:30", "2026-11-24T16:00:30Z", parser: berlin)
        let newYork = try parser(zone: "America/New_York")
        try expectTime("2026-11-24T17:00", "2026-11-24T22:00:00Z", parser: newYork)
        // Summer time in Berlin is UTC+2.
        try expectTime("2026-07-01T12:00", "2026-07-01T10:00:00Z", parser: berlin)
    }

    @Test func isoDateTimesWithExplicitZone() throws {
        let p = try parser(zone: "America/New_York")
        try expectTime("2026-11-24T17:00Z", "2026-11-24T17:00:00Z", parser: p)
        try expectTime("2026-11-24T17:00:00Z", "2026-11-24T17:00:00Z", parser: p)
        try expectTime("2026-11-24t17:00z", "2026-11-24T17:00:00Z", parser: p)
        try expectTime("2026-11-24T17:00:00+05:30", "2026-11-24T11:30:00Z", parser: p)
        try expectTime("2026-11-24T17:00-0500", "2026-11-24T22:00:00Z", parser: p)
        try expectTime("2026-11-24 17:00+01:00", "2026-11-24T16:00:00Z", parser: p)
    }

    // MARK: - Times alone

    @Test(arguments: [
        ("17:00", "2026-11-21T16:00:00Z"),
        ("9:05", "2026-11-21T08:05:00Z"),
        ("09:05", "2026-11-21T08:05:00Z"),
        ("5pm", "2026-11-21T16:00:00Z"),
        ("5 pm", "2026-11-21T16:00:00Z"),
        ("5:30pm", "2026-11-21T16:30:00Z"),
        ("5:30PM", "2026-11-21T16:30:00Z"),
        ("12am", "2026-11-20T23:00:00Z"),
        ("12pm", "2026-11-21T11:00:00Z"),
        ("12:30am", "2026-11-20T23:30:00Z"),
        ("9am", "2026-11-21T08:00:00Z"),
        ("0:00", "2026-11-20T23:00:00Z"),
        ("23:59", "2026-11-21T22:59:00Z"),
    ])
    func timeAloneIsTodayInBerlin(text: String, expected: String) throws {
        try expectTime(text, expected, parser: try parser())
    }

    @Test func pastTimeAloneStaysToday() throws {
        // Now is 08:20 in Berlin; 7am has passed but still means today, not tomorrow.
        let p = try parser()
        try expectTime("7am", "2026-11-21T06:00:00Z", parser: p)
        let result = try p.parse("7am")
        #expect(result.localDay(in: try zone("Europe/Berlin")) == p.today)
    }

    @Test func timeAloneInNewYorkUsesLocalToday() throws {
        // 03:00Z Saturday is Friday 22:00 in New York (EST, UTC-5).
        let p = try parser(now: "2026-11-21T03:00:00Z", zone: "America/New_York")
        try expectTime("17:00", "2026-11-20T22:00:00Z", parser: p)
        try expectTime("9am", "2026-11-20T14:00:00Z", parser: p)
    }

    // MARK: - Day@time

    @Test(arguments: [
        ("tomorrow@17:00", "2026-11-22T16:00:00Z"),
        ("tomorrow @ 17:00", "2026-11-22T16:00:00Z"),
        ("fri@9am", "2026-11-27T08:00:00Z"),
        ("Friday@9:30AM", "2026-11-27T08:30:00Z"),
        ("2026-11-24@14:30", "2026-11-24T13:30:00Z"),
        ("in 3d@9am", "2026-11-24T08:00:00Z"),
        ("today@12am", "2026-11-20T23:00:00Z"),
        ("eom@23:59", "2026-11-30T22:59:00Z"),
        ("next week@8:00", "2026-11-23T07:00:00Z"),
        ("2026-07-01@12:00", "2026-07-01T10:00:00Z"),
    ])
    func dayAtTimeInBerlin(text: String, expected: String) throws {
        try expectTime(text, expected, parser: try parser())
    }

    @Test func dayAtTimeInNewYork() throws {
        let p = try parser(zone: "America/New_York")
        try expectTime("tomorrow@17:00", "2026-11-22T22:00:00Z", parser: p)
        try expectTime("fri@9am", "2026-11-27T14:00:00Z", parser: p)
    }

    // MARK: - DST

    @Test func berlinSpringForward() throws {
        // 2026-03-29 02:00 CET -> 03:00 CEST.
        let p = try parser(now: "2026-03-28T10:00:00Z")
        try expectTime("today@9am", "2026-03-28T08:00:00Z", parser: p)       // CET, UTC+1
        try expectTime("tomorrow@9am", "2026-03-29T07:00:00Z", parser: p)    // CEST, UTC+2
        try expectTime("tomorrow@1:59", "2026-03-29T00:59:00Z", parser: p)   // last CET minute
        // 02:30 does not exist; it moves forward to 03:30 CEST.
        try expectTime("tomorrow@2:30", "2026-03-29T01:30:00Z", parser: p)
        try expectTime("tomorrow@3:00", "2026-03-29T01:00:00Z", parser: p)
    }

    @Test func berlinFallBack() throws {
        // 2026-10-25 03:00 CEST -> 02:00 CET.
        let p = try parser(now: "2026-10-24T10:00:00Z")
        try expectTime("today@9am", "2026-10-24T07:00:00Z", parser: p)       // CEST, UTC+2
        try expectTime("tomorrow@9am", "2026-10-25T08:00:00Z", parser: p)    // CET, UTC+1
        // 02:30 happens twice; the first (summer-time) occurrence is used.
        try expectTime("tomorrow@2:30", "2026-10-25T00:30:00Z", parser: p)
        try expectTime("2026-10-25T12:00", "2026-10-25T11:00:00Z", parser: p)
    }

    @Test func newYorkSpringForwardAndFallBack() throws {
        // 2026-03-08 02:00 EST -> 03:00 EDT.
        let spring = try parser(now: "2026-03-07T15:00:00Z", zone: "America/New_York")
        try expectTime("today@9am", "2026-03-07T14:00:00Z", parser: spring)      // EST, UTC-5
        try expectTime("tomorrow@9am", "2026-03-08T13:00:00Z", parser: spring)   // EDT, UTC-4
        try expectTime("tomorrow@2:30", "2026-03-08T07:30:00Z", parser: spring)  // gap -> 03:30 EDT
        // 2026-11-01 02:00 EDT -> 01:00 EST.
        let autumn = try parser(now: "2026-10-31T15:00:00Z", zone: "America/New_York")
        try expectTime("today@9am", "2026-10-31T13:00:00Z", parser: autumn)      // EDT
        try expectTime("tomorrow@9am", "2026-11-01T14:00:00Z", parser: autumn)   // EST
    }

    @Test func timeAloneOnDSTDayUsesThatDaysOffset() throws {
        // Now is 2026-03-29T10:00Z = 12:00 CEST, after the change.
        let p = try parser(now: "2026-03-29T10:00:00Z")
        try expectTime("9am", "2026-03-29T07:00:00Z", parser: p)
        try expectTime("1am", "2026-03-29T00:00:00Z", parser: p)
    }

    // MARK: - Errors

    @Test func unrecognizedWordIsNamed() throws {
        let p = try parser()
        #expect(throws: DateError.unrecognized(word: "frday", input: "frday@9am")) {
            try p.parse("frday@9am")
        }
        do throws(DateError) {
            _ = try p.parse("frday@9am")
            Issue.record("expected an error")
        } catch {
            let message = try #require(error.errorDescription)
            #expect(message == "unrecognized date word \"frday\" in \"frday@9am\"; try today, tomorrow, fri, next mon, dec 24, 15th, in 3d, in 2h, 2026-11-24, 17:00, fri@9am (all forms: tick add --help)")
        }
    }

    @Test(arguments: [
        ("blah", "blah"),
        ("Someday", "Someday"),
        ("next blah", "next blah"),
        ("dec 32", "dec 32"),
        ("2st", "2st"),
        ("in 3x", "in 3x"),
        ("3", "3"),
        ("17", "17"),
        ("in", "in"),
        ("2026-11-24T5", "2026-11-24T5"),
        ("2026/11/24", "2026/11/24"),
    ])
    func unrecognizedExpressions(text: String, word: String) throws {
        let p = try parser()
        #expect(throws: DateError.unrecognized(word: word, input: text)) {
            try p.parse(text)
        }
        let message = DateError.unrecognized(word: word, input: text).errorDescription ?? ""
        #expect(message.contains("\"\(word)\""))
    }

    @Test func unrecognizedTimePartIsNamed() throws {
        let p = try parser()
        #expect(throws: DateError.unrecognized(word: "noonish", input: "fri@noonish")) {
            try p.parse("fri@noonish")
        }
        #expect(throws: DateError.unrecognized(word: "tomorrow@", input: "tomorrow@")) {
            try p.parse("tomorrow@")
        }
        #expect(throws: DateError.unrecognized(word: "@9am", input: "@9am")) {
            try p.parse("@9am")
        }
    }

    @Test func emptyInputIsUnrecognized() throws {
        let p = try parser()
        #expect(throws: DateError.unrecognized(word: "", input: "   ")) {
            try p.parse("   ")
        }
        #expect(DateError.unrecognized(word: "", input: "").errorDescription?.hasPrefix("empty date") == true)
    }

    @Test(arguments: [
        ("fri@25:00", "25:00"),
        ("25:00", "25:00"),
        ("24:00", "24:00"),
        ("9:60", "9:60"),
        ("9:5", "9:5"),
        ("13pm", "13pm"),
        ("0am", "0am"),
        ("tomorrow@123:00", "123:00"),
        ("2026-11-24T25:00", "25:00"),
        ("2026-11-24 17:75", "17:75"),
        ("2026-11-24T25:00Z", "25:00"),
    ])
    func invalidTimes(text: String, time: String) throws {
        let p = try parser()
        #expect(throws: DateError.invalidTime(time)) {
            try p.parse(text)
        }
    }

    @Test func invalidTimeMessage() {
        let message = DateError.invalidTime("25:00").errorDescription ?? ""
        #expect(message.contains("\"25:00\""))
        #expect(message.contains("HH:MM"))
    }

    @Test(arguments: [
        ("2026-02-30", "2026-02-30"),
        ("2027-02-29", "2027-02-29"),
        ("2026-13-01", "2026-13-01"),
        ("2026-04-31@9am", "2026-04-31"),
        ("2026-02-30T10:00", "2026-02-30"),
    ])
    func invalidDates(text: String, date: String) throws {
        let p = try parser()
        #expect(throws: DateError.invalidDate(date)) {
            try p.parse(text)
        }
        #expect(DateError.invalidDate(date).errorDescription?.contains("\"\(date)\"") == true)
    }

    @Test func parseDayRejectsTimes() throws {
        let p = try parser()
        #expect(try p.parseDay("fri") == (try date("2026-11-27")))
        #expect(throws: DateError.timeNotAllowed("tomorrow@9am")) {
            try p.parseDay(" tomorrow@9am ")
        }
        #expect(throws: DateError.timeNotAllowed("17:00")) {
            try p.parseDay("17:00")
        }
        #expect(DateError.timeNotAllowed("17:00").errorDescription?.contains("\"17:00\"") == true)
    }

    // MARK: - RelativeDateFormatter

    @Suite struct RelativeLabels {
        let berlin: Zone
        let formatter: RelativeDateFormatter

        init() throws {
            berlin = try #require(Zone(named: "Europe/Berlin"))
            formatter = RelativeDateFormatter(now: try #require(Timestamp.parse("2026-11-21T07:20:00Z")), timeZone: berlin)
        }

        func day(_ iso: String) throws -> TaskDate {
            .day(try #require(LocalDate(iso: iso)))
        }

        func time(_ text: String) throws -> TaskDate {
            .time(try #require(Timestamp.parse(text)))
        }

        @Test func dayLabels() throws {
            #expect(formatter.label(try day("2026-11-21")) == "today")
            #expect(formatter.label(try day("2026-11-22")) == "tomorrow")
            #expect(formatter.label(try day("2026-11-20")) == "yesterday")
            #expect(formatter.label(try day("2026-11-24")) == "Tue 24 Nov")
            #expect(formatter.label(try day("2026-11-19")) == "Thu 19 Nov")
            #expect(formatter.label(try day("2026-01-05")) == "Mon 5 Jan")
            #expect(formatter.label(try day("2027-11-24")) == "Wed 24 Nov 2027")
            #expect(formatter.label(try day("2025-12-31")) == "Wed 31 Dec 2025")
        }

        @Test func timeLabelsUseLocal24HourClock() throws {
            #expect(formatter.label(try time("2026-11-21T16:00:00Z")) == "today 17:00")
            #expect(formatter.label(try time("2026-11-22T08:30:00Z")) == "tomorrow 09:30")
            #expect(formatter.label(try time("2026-11-20T22:59:00Z")) == "yesterday 23:59")
            #expect(formatter.label(try time("2026-11-24T16:00:00Z")) == "Tue 24 Nov 17:00")
            #expect(formatter.label(try time("2027-07-01T10:05:00Z")) == "Thu 1 Jul 2027 12:05")
            // 23:30Z is already the next day in Berlin.
            #expect(formatter.label(try time("2026-11-21T23:30:00Z")) == "tomorrow 00:30")
        }

        @Test func timeLabelsInNewYork() throws {
            let newYork = try #require(Zone(named: "America/New_York"))
            let f = RelativeDateFormatter(now: try #require(Timestamp.parse("2026-11-21T07:20:00Z")), timeZone: newYork)
            #expect(f.label(try time("2026-11-21T03:00:00Z")) == "yesterday 22:00")
            #expect(f.label(try time("2026-11-21T22:00:00Z")) == "today 17:00")
            #expect(f.label(try day("2026-11-21")) == "today")
        }

        @Test func overdueDays() throws {
            #expect(formatter.overdueDays(try day("2026-11-18")) == 3)
            #expect(formatter.overdueDays(try day("2026-11-20")) == 1)
            #expect(formatter.overdueDays(try day("2026-11-21")) == nil)
            #expect(formatter.overdueDays(try day("2026-11-22")) == nil)
            #expect(formatter.overdueDays(try time("2026-11-21T07:00:00Z")) == 0)
            #expect(formatter.overdueDays(try time("2026-11-20T23:30:00Z")) == 0)   // 00:30 today in Berlin
            #expect(formatter.overdueDays(try time("2026-11-20T22:30:00Z")) == 1)   // 23:30 yesterday
            #expect(formatter.overdueDays(try time("2026-11-19T10:00:00Z")) == 2)
            #expect(formatter.overdueDays(try time("2026-11-21T07:20:00Z")) == nil) // exactly now
            #expect(formatter.overdueDays(try time("2026-11-21T08:00:00Z")) == nil)
        }

        @Test func overdueLabels() throws {
            #expect(formatter.overdueLabel(try day("2026-11-18")) == "3d overdue")
            #expect(formatter.overdueLabel(try day("2026-11-20")) == "1d overdue")
            #expect(formatter.overdueLabel(try time("2026-11-21T07:00:00Z")) == "overdue")
            #expect(formatter.overdueLabel(try time("2026-11-19T10:00:00Z")) == "2d overdue")
            #expect(formatter.overdueLabel(try day("2026-11-21")) == nil)
            #expect(formatter.overdueLabel(try time("2026-11-22T07:00:00Z")) == nil)
        }
    }
}
