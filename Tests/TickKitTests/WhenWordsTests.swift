import Foundation
import Testing
@testable import TickKit

/// Issue 13: one duration grammar (`m` minutes, `mo` months) and the WHEN words users expect
/// (`now`, `noon`, `eod`, `sow`/`som`/`soy`, month names, ordinals, `next monday`, `fri@17`,
/// `in 90min`), each pinned to a zone and a clock next to a DST change.
@Suite struct WhenWordsTests {
    func parser(_ now: String, _ zone: String) throws -> WhenParser {
        WhenParser(now: try #require(Timestamp.parse(now)), timeZone: try #require(Zone(named: zone)))
    }

    func day(_ iso: String) throws -> TaskDate { .day(try #require(LocalDate(iso: iso))) }
    func time(_ text: String) throws -> TaskDate { .time(try #require(Timestamp.parse(text))) }

    /// The instant `hour:minute` local wall time on `iso` in `zone`, computed with Foundation's
    /// Calendar (independent of tick's own arithmetic).
    func wall(_ iso: String, _ hour: Int, _ minute: Int, _ zone: String) throws -> TaskDate {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: zone))
        let parts = iso.split(separator: "-").compactMap { Int($0) }
        let date = try #require(calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2], hour: hour, minute: minute)))
        return .time(date)
    }

    // Berlin leaves summer time on Sun 2026-10-25 at 03:00 CEST -> 02:00 CET.
    // 2026-10-24T22:30:00Z is Sun 00:30 CEST, before the change.
    static let berlinNow = "2026-10-24T22:30:00Z"

    @Test func minutesAndHoursAreElapsedTimeAcrossTheChange() throws {
        let p = try parser(Self.berlinNow, "Europe/Berlin")
        let now = try #require(Timestamp.parse(Self.berlinNow))
        for text in ["in 2h", "+2h", "2h", "in 2 hours", "in 120min", "120m", "in 1h60m"] {
            #expect(try p.parse(text) == .time(now.addingTimeInterval(7_200)), "\(text)")
        }
        #expect(try p.parse("in 90min") == .time(now.addingTimeInterval(5_400)))
        #expect(try p.parse("in 1h30m") == .time(now.addingTimeInterval(5_400)))
        #expect(try p.parse("30m") == .time(now.addingTimeInterval(1_800)))
        #expect(try p.parse("now") == .time(now))
        // Three elapsed hours from 00:30 CEST cross the change: the clock then shows 02:30 CET.
        #expect(try p.parse("in 3h") == .time(now.addingTimeInterval(10_800)))
        #expect(try p.parse("in 3h") == (try time("2026-10-25T01:30:00Z")))
    }

    @Test func daysAndLongerAreWholeDays() throws {
        let p = try parser(Self.berlinNow, "Europe/Berlin")
        #expect(try p.parse("1d") == (try day("2026-10-26")))
        #expect(try p.parse("in 2w") == (try day("2026-11-08")))
        #expect(try p.parse("3mo") == (try day("2027-01-25")))
        #expect(try p.parse("+1y") == (try day("2027-10-25")))
    }

    @Test func aCapitalMIsAmbiguous() throws {
        let p = try parser(Self.berlinNow, "Europe/Berlin")
        #expect(throws: DateError.ambiguousUnit(input: "30M", amount: 30)) { try p.parse("30M") }
        #expect(throws: DateError.ambiguousUnit(input: "in 3M", amount: 3)) { try p.parse("in 3M") }
        let message = DateError.ambiguousUnit(input: "30M", amount: 30).errorDescription ?? ""
        #expect(message.contains("30min") && message.contains("30mo"))
    }

    @Test func minutesAndHoursAreRefusedWhereOnlyADayIsAllowed() throws {
        let p = try parser(Self.berlinNow, "Europe/Berlin")
        #expect(throws: DateError.relativeTimeNotAllowed(input: "3m", amount: 3, unit: .minute)) { try p.parseDay("3m") }
        #expect(throws: DateError.relativeTimeNotAllowed(input: "2h", amount: 2, unit: .hour)) { try p.parseDay("2h") }
        let minutes = DateError.relativeTimeNotAllowed(input: "3m", amount: 3, unit: .minute).errorDescription ?? ""
        #expect(minutes.contains("3 minutes") && minutes.contains("3mo"))
        #expect(try p.parseDay("3mo") == (try #require(LocalDate(iso: "2027-01-25"))))
    }

    @Test func noonAndHourAloneUseThatDaysOffset() throws {
        let p = try parser(Self.berlinNow, "Europe/Berlin")
        #expect(try p.parse("noon") == (try wall("2026-10-25", 12, 0, "Europe/Berlin")))
        #expect(try p.parse("noon") == (try time("2026-10-25T11:00:00Z")))     // CET, UTC+1
        #expect(try p.parse("today@noon") == (try time("2026-10-25T11:00:00Z")))
        #expect(try p.parse("fri@17") == (try time("2026-10-30T16:00:00Z")))   // CET
        #expect(try p.parse("sat@9") == (try time("2026-10-31T08:00:00Z")))
        // The day before the change the same wall times are an hour earlier in UTC.
        let before = try parser("2026-10-23T10:00:00Z", "Europe/Berlin")      // Fri 12:00 CEST
        #expect(try before.parse("noon") == (try time("2026-10-23T10:00:00Z")))
        #expect(try before.parse("sat@9") == (try time("2026-10-24T07:00:00Z")))
        #expect(throws: DateError.invalidTime("24")) { try p.parse("fri@24") }
    }

    @Test func dayWords() throws {
        let p = try parser(Self.berlinNow, "Europe/Berlin")   // Sunday 2026-10-25
        let expected: [(String, String)] = [
            ("eod", "2026-10-25"), ("sow", "2026-10-19"), ("som", "2026-10-01"), ("soy", "2026-01-01"),
            ("sonw", "2026-10-26"), ("sonm", "2026-11-01"), ("sony", "2027-01-01"), ("soq", "2026-10-01"), ("eoq", "2026-12-31"),
            ("eom", "2026-10-31"), ("eoy", "2026-12-31"), ("next monday", "2026-10-26"), ("next mon", "2026-10-26"),
            ("next sunday", "2026-11-01"), ("next month", "2026-11-01"), ("next year", "2027-01-01"),
            ("dec 24", "2026-12-24"), ("24 dec", "2026-12-24"), ("December 24th", "2026-12-24"),
            ("24th of december", "2026-12-24"), ("dec 24 2027", "2027-12-24"), ("oct 25", "2026-10-25"),
            ("oct 24", "2027-10-24"), ("1st", "2026-11-01"), ("25th", "2026-10-25"), ("31st", "2026-10-31"),
            ("2nd", "2026-11-02"), ("22nd", "2026-11-22"), ("11th", "2026-11-11"),
        ]
        for (text, iso) in expected {
            #expect(try p.parse(text) == (try day(iso)), "\(text)")
        }
    }

    @Test func monthDaysThatDoNotExist() throws {
        let p = try parser("2026-11-05T12:00:00Z", "Europe/Berlin")
        #expect(try p.parse("31st") == (try day("2026-12-31")))        // November has no 31st
        #expect(try p.parse("feb 29") == (try day("2028-02-29")))      // the next leap year
        #expect(throws: DateError.invalidDate("feb 30")) { try p.parse("feb 30") }
        #expect(throws: DateError.invalidDate("feb 29 2027")) { try p.parse("feb 29 2027") }
        #expect(throws: DateError.unrecognized(word: "1th", input: "1th")) { try p.parse("1th") }
    }

    // New York springs forward on Sun 2026-03-08 at 02:00 EST -> 03:00 EDT.
    @Test func newYorkSpringForward() throws {
        let p = try parser("2026-03-07T17:00:00Z", "America/New_York")   // Sat 12:00 EST
        #expect(try p.parse("noon") == (try time("2026-03-07T17:00:00Z")))
        #expect(try p.parse("tomorrow@noon") == (try time("2026-03-08T16:00:00Z")))   // EDT
        #expect(try p.parse("sun@17") == (try time("2026-03-08T21:00:00Z")))
        #expect(try p.parse("in 24h") == (try time("2026-03-08T17:00:00Z")))          // 13:00 EDT
        #expect(try p.parse("1d") == (try day("2026-03-08")))
        #expect(try p.parse("mar 8@9am") == (try wall("2026-03-08", 9, 0, "America/New_York")))
        #expect(try p.parse("8th@9am") == (try time("2026-03-08T13:00:00Z")))
    }

    @Test func durationTextSharesTheUnits() {
        #expect(DurationText.parse("30m") == 30)
        #expect(DurationText.parse("30min") == 30)
        #expect(DurationText.parse("2h") == 120)
        #expect(DurationText.parse("1h30m") == 90)
        #expect(DurationText.parse("2d") == nil)
        #expect(DurationText.parse("3mo") == nil)
        #expect(DurationText.single("2d")! == (2, .day))
        #expect(DurationText.single("3 mo")! == (3, .month))
    }
}

/// Taskwarrior's period words (issue 46): `sow`… the current period's start,
/// `eow`… its end; `p`/`n` the previous and next period; compared as instants.
@Suite struct PeriodWordTests {
    /// Saturday 28 November 2026 (what `task calc` printed on that day, 2.6.2).
    static let today = LocalDate(year: 2026, month: 11, day: 28)!

    @Test(arguments: [
        ("sod", "2026-11-28"), ("eod", "2026-11-28"), ("sow", "2026-11-23"), ("eow", "2026-11-29"),
        ("som", "2026-11-01"), ("eom", "2026-11-30"), ("soy", "2026-01-01"), ("eoy", "2026-12-31"),
        ("soq", "2026-10-01"), ("eoq", "2026-12-31"), ("sonw", "2026-11-30"), ("sonm", "2026-12-01"),
        ("sony", "2027-01-01"), ("sonq", "2027-01-01"), ("sopw", "2026-11-16"), ("sopm", "2026-10-01"),
        ("soww", "2026-11-23"), ("eoww", "2026-11-27"), ("sopq", "2026-07-01"), ("eopw", "2026-11-22"),
        ("eonm", "2026-12-31"), ("sopd", "2026-11-27"), ("EOM", "2026-11-30"),
    ])
    func wordsAreTaskwarriorsDays(word: String, iso: String) throws {
        let period = try #require(PeriodWord(word))
        #expect(period.day(from: Self.today).iso == iso)
    }

    @Test func otherWordsAreNone() {
        for word in ["so", "eo", "sox", "sonww", "sowww", "soon", "eod2", "sopp", "son"] {
            #expect(PeriodWord(word) == nil, "\(word)")
        }
    }

    @Test func aQuarterStartsInItsFirstMonthAllYear() throws {
        let soq = try #require(PeriodWord("soq")), eoq = try #require(PeriodWord("eoq"))
        for month in 1...12 {
            let day = try #require(LocalDate(year: 2027, month: month, day: 15))
            let first = (month - 1) / 3 * 3 + 1
            #expect(soq.day(from: day) == LocalDate(year: 2027, month: first, day: 1))
            #expect(eoq.day(from: day).month == first + 2 && eoq.day(from: day).adding(days: 1).day == 1)
        }
    }

    /// `due.before:eow` includes what is due on Sunday (the end is Sunday's
    /// last moment); `due.after:sow` includes Monday; `due.before:sow` does not.
    @Test func filtersComparePeriodWordsAsInstants() throws {
        let zone = try #require(Zone(named: "UTC"))
        let now = try #require(Timestamp.parse("2026-11-28T12:00:00Z"))
        let parser = FilterParser(now: now, timeZone: zone)
        let evaluator = DateTestEvaluator(timeZone: zone)
        func holds(_ filter: String, _ value: DateTestEvaluator.Value) throws -> Bool {
            let expression = try parser.parse([filter]).expression
            guard case .term(let term) = expression, case .date(_, let test) = term.kind else { Issue.record("\(expression)"); return false }
            return evaluator.holds(test, for: value)
        }
        let sunday = DateTestEvaluator.Value.day(LocalDate(year: 2026, month: 11, day: 29)!)
        let monday = DateTestEvaluator.Value.day(LocalDate(year: 2026, month: 11, day: 23)!)
        let nextMonday = DateTestEvaluator.Value.day(LocalDate(year: 2026, month: 11, day: 30)!)
        #expect(try holds("due.before:eow", sunday))
        #expect(try !holds("due.before:eow", nextMonday))
        #expect(try holds("due.by:eow", sunday))
        #expect(try !holds("due.after:eow", sunday))
        #expect(try holds("due.after:eow", nextMonday))
        #expect(try holds("due.after:sow", monday))
        #expect(try !holds("due.before:sow", monday))
        #expect(try holds("due:eow", sunday))
        let lateSunday = DateTestEvaluator.Value.instant(try #require(Timestamp.parse("2026-11-29T23:30:00Z")))
        #expect(try holds("due.before:eow", lateSunday))
        #expect(try !holds("due.after:eow", lateSunday))
    }
}
