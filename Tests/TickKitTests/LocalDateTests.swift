import Foundation
import Testing
@testable import TickKit

/// Tests for `LocalDate`: validation, ISO text, integer day arithmetic and zone conversions.
@Suite struct LocalDateTests {
    func date(_ iso: String) throws -> LocalDate {
        try #require(LocalDate(iso: iso))
    }

    func zone(_ identifier: String) throws -> Zone {
        try #require(Zone(named: identifier))
    }

    func instant(_ text: String) throws -> Date {
        try #require(Timestamp.parse(text))
    }

    // MARK: - Validation and text

    @Test func validatesComponents() {
        #expect(LocalDate(year: 2026, month: 11, day: 21) != nil)
        #expect(LocalDate(year: 2028, month: 2, day: 29) != nil)
        #expect(LocalDate(year: 2000, month: 2, day: 29) != nil)
        #expect(LocalDate(year: 2026, month: 2, day: 29) == nil)
        #expect(LocalDate(year: 1900, month: 2, day: 29) == nil)
        #expect(LocalDate(year: 2026, month: 4, day: 31) == nil)
        #expect(LocalDate(year: 2026, month: 13, day: 1) == nil)
        #expect(LocalDate(year: 2026, month: 0, day: 1) == nil)
        #expect(LocalDate(year: 2026, month: 1, day: 0) == nil)
        #expect(LocalDate(year: 2026, month: 12, day: 32) == nil)
    }

    @Test func storesComponents() throws {
        let d = try #require(LocalDate(year: 2026, month: 11, day: 21))
        #expect(d.year == 2026)
        #expect(d.month == 11)
        #expect(d.day == 21)
    }

    @Test func parsesAndFormatsISO() throws {
        let d = try date("2026-01-05")
        #expect(d == LocalDate(year: 2026, month: 1, day: 5))
        #expect(d.iso == "2026-01-05")
        #expect(d.description == "2026-01-05")
        #expect("\(d)" == "2026-01-05")
        #expect(LocalDate(year: 33, month: 3, day: 9)?.iso == "0033-03-09")
    }

    @Test(arguments: [
        "", "2026-1-05", "2026-01-5", "20260105", "2026/01/05", "2026-01-05 ", " 2026-01-05",
        "2026-01-05T00:00", "+026-01-05", "2026-02-30", "2026-13-01", "2026-00-10", "2026-01-00",
        "yesterday", "２０２６-01-05",
    ])
    func rejectsMalformedISO(text: String) {
        #expect(LocalDate(iso: text) == nil)
    }

    @Test func isoRoundTripsForEveryDayOfALeapYear() throws {
        var d = try date("2028-01-01")
        for _ in 0..<366 {
            #expect(LocalDate(iso: d.iso) == d)
            d = d.adding(days: 1)
        }
        #expect(d == (try date("2029-01-01")))
    }

    // MARK: - Day numbers

    @Test func daysSinceEpochKnownValues() throws {
        #expect((try date("1970-01-01")).daysSinceEpoch == 0)
        #expect((try date("1970-01-02")).daysSinceEpoch == 1)
        #expect((try date("1969-12-31")).daysSinceEpoch == -1)
        #expect((try date("2000-03-01")).daysSinceEpoch == 11_017)
        #expect((try date("2026-11-21")).daysSinceEpoch == 20_778)
        #expect((try date("0001-01-01")).daysSinceEpoch == -719_162)
        #expect((try date("9999-12-31")).daysSinceEpoch == 2_932_896)
        #expect(LocalDate(daysSinceEpoch: 20_778) == (try date("2026-11-21")))
        #expect(LocalDate(daysSinceEpoch: -1) == (try date("1969-12-31")))
        #expect(LocalDate(daysSinceEpoch: -719_162) == (try date("0001-01-01")))
    }

    @Test func daysSinceEpochRoundTripsAndMatchesCalendar() throws {
        var utcCalendar = Calendar(identifier: .gregorian)
        utcCalendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        // Foundation's Gregorian calendar switches to Julian before October 1582, so the
        // cross-check starts in 1586 (LocalDate is proleptic Gregorian throughout).
        var previous = LocalDate(daysSinceEpoch: -140_001)
        for n in stride(from: -140_000, through: 400_000, by: 997) {
            let d = LocalDate(daysSinceEpoch: n)
            #expect(d.daysSinceEpoch == n)
            #expect(previous < d)
            previous = d
            let parts = utcCalendar.dateComponents([.year, .month, .day],
                                                   from: Date(timeIntervalSince1970: TimeInterval(n) * 86_400))
            #expect(parts.year == d.year && parts.month == d.month && parts.day == d.day, "day \(n)")
        }
    }

    @Test func consecutiveDaysAreContiguous() {
        var d = LocalDate(daysSinceEpoch: -1_000)
        for n in -999...2_000 {
            let next = d.adding(days: 1)
            #expect(next.daysSinceEpoch == n)
            #expect(d.days(until: next) == 1)
            d = next
        }
    }

    @Test func weekdayIsISO() throws {
        #expect((try date("1970-01-01")).weekday == 4)
        #expect((try date("2026-11-21")).weekday == 6)
        #expect((try date("2026-11-22")).weekday == 7)
        #expect((try date("2026-11-23")).weekday == 1)
        #expect((try date("2026-11-27")).weekday == 5)
        #expect((try date("1969-12-29")).weekday == 1)
        #expect((try date("1900-01-01")).weekday == 1)
    }

    // MARK: - Arithmetic

    @Test func addingDays() throws {
        #expect((try date("2026-12-31")).adding(days: 1) == (try date("2027-01-01")))
        #expect((try date("2028-02-28")).adding(days: 1) == (try date("2028-02-29")))
        #expect((try date("2027-03-01")).adding(days: -1) == (try date("2027-02-28")))
        #expect((try date("2026-11-21")).adding(days: 365) == (try date("2027-11-21")))
        #expect((try date("2026-11-21")).adding(days: 0) == (try date("2026-11-21")))
    }

    @Test func addingMonthsClampsToMonthEnd() throws {
        #expect((try date("2027-01-31")).adding(months: 1) == (try date("2027-02-28")))
        #expect((try date("2028-01-31")).adding(months: 1) == (try date("2028-02-29")))
        #expect((try date("2026-11-30")).adding(months: 3) == (try date("2027-02-28")))
        #expect((try date("2026-03-31")).adding(months: -1) == (try date("2026-02-28")))
        #expect((try date("2026-01-15")).adding(months: -13) == (try date("2024-12-15")))
        #expect((try date("2026-11-21")).adding(months: 2) == (try date("2027-01-21")))
        #expect((try date("2026-05-31")).adding(months: 1) == (try date("2026-06-30")))
    }

    @Test func addingYearsFromLeapDay() throws {
        #expect((try date("2028-02-29")).adding(months: 12) == (try date("2029-02-28")))
        #expect((try date("2028-02-29")).adding(months: 48) == (try date("2032-02-29")))
    }

    @Test func lastDayOfMonth() throws {
        #expect((try date("2026-02-10")).lastDayOfMonth == (try date("2026-02-28")))
        #expect((try date("2028-02-10")).lastDayOfMonth == (try date("2028-02-29")))
        #expect((try date("2026-04-05")).lastDayOfMonth == (try date("2026-04-30")))
        #expect((try date("2026-12-01")).lastDayOfMonth == (try date("2026-12-31")))
        #expect((try date("2026-12-31")).lastDayOfMonth == (try date("2026-12-31")))
    }

    @Test func daysUntil() throws {
        let a = try date("2026-11-21")
        let b = try date("2026-12-25")
        #expect(a.days(until: b) == 34)
        #expect(b.days(until: a) == -34)
        #expect(a.days(until: a) == 0)
        #expect((try date("2028-02-28")).days(until: try date("2028-03-01")) == 2)
    }

    @Test func ordering() throws {
        let dates = [try date("2027-01-01"), try date("2026-11-21"), try date("2026-12-01"), try date("2026-11-03")]
        #expect(dates.sorted().map(\.iso) == ["2026-11-03", "2026-11-21", "2026-12-01", "2027-01-01"])
        #expect(try date("2026-11-21") < date("2026-11-22"))
        #expect(!(try date("2026-11-21") < date("2026-11-21")))
        #expect(Set([try date("2026-11-21"), try date("2026-11-21")]).count == 1)
    }

    // MARK: - Time zones

    @Test func localDayOfAnInstant() throws {
        let berlin = try zone("Europe/Berlin")
        let newYork = try zone("America/New_York")
        #expect(LocalDate(date: try instant("2026-11-21T23:30:00Z"), timeZone: berlin) == (try date("2026-11-22")))
        #expect(LocalDate(date: try instant("2026-11-21T23:30:00Z"), timeZone: newYork) == (try date("2026-11-21")))
        #expect(LocalDate(date: try instant("2026-11-21T03:00:00Z"), timeZone: newYork) == (try date("2026-11-20")))
        #expect(LocalDate(date: try instant("2026-11-21T05:00:00Z"), timeZone: newYork) == (try date("2026-11-21")))
        #expect(LocalDate(date: try instant("2026-11-21T04:59:59Z"), timeZone: newYork) == (try date("2026-11-20")))
        #expect(LocalDate(date: Date(timeIntervalSince1970: -0.5), timeZone: try zone("UTC")) == (try date("1969-12-31")))
        // Summer time: Berlin is UTC+2, so 22:30Z is already the next day.
        #expect(LocalDate(date: try instant("2026-07-01T22:30:00Z"), timeZone: berlin) == (try date("2026-07-02")))
    }

    @Test func startOfDay() throws {
        let berlin = try zone("Europe/Berlin")
        #expect((try date("2026-11-21")).startOfDay(in: berlin) == (try instant("2026-11-20T23:00:00Z")))
        #expect((try date("2026-03-29")).startOfDay(in: berlin) == (try instant("2026-03-28T23:00:00Z")))
        #expect((try date("2026-03-30")).startOfDay(in: berlin) == (try instant("2026-03-29T22:00:00Z")))
        #expect((try date("2026-10-26")).startOfDay(in: berlin) == (try instant("2026-10-25T23:00:00Z")))
        #expect((try date("2026-11-01")).startOfDay(in: try zone("America/New_York")) == (try instant("2026-11-01T04:00:00Z")))
        // Midnight did not exist in São Paulo on 2018-11-04 (00:00 -> 01:00); the day starts at 01:00 (UTC-2).
        #expect((try date("2018-11-04")).startOfDay(in: try zone("America/Sao_Paulo")) == (try instant("2018-11-04T03:00:00Z")))
    }

    @Test func wallTimeToInstantAcrossDST() throws {
        let berlin = try zone("Europe/Berlin")
        let newYork = try zone("America/New_York")
        #expect((try date("2026-03-28")).at(hour: 9, minute: 0, timeZone: berlin) == (try instant("2026-03-28T08:00:00Z")))
        #expect((try date("2026-03-29")).at(hour: 9, minute: 0, timeZone: berlin) == (try instant("2026-03-29T07:00:00Z")))
        // Spring-forward gap: 02:30 does not exist and moves forward to 03:30.
        #expect((try date("2026-03-29")).at(hour: 2, minute: 30, timeZone: berlin) == (try instant("2026-03-29T01:30:00Z")))
        #expect((try date("2026-03-08")).at(hour: 2, minute: 30, timeZone: newYork) == (try instant("2026-03-08T07:30:00Z")))
        // Autumn overlap: the first occurrence of 02:30 (still summer time).
        #expect((try date("2026-10-25")).at(hour: 2, minute: 30, timeZone: berlin) == (try instant("2026-10-25T00:30:00Z")))
        #expect((try date("2026-10-25")).at(hour: 9, minute: 0, timeZone: berlin) == (try instant("2026-10-25T08:00:00Z")))
        #expect((try date("2026-11-01")).at(hour: 9, minute: 15, timeZone: newYork) == (try instant("2026-11-01T14:15:00Z")))
    }

    @Test func localDayOfWallTimeRoundTrips() throws {
        let zones = [try zone("Europe/Berlin"), try zone("America/New_York"), try zone("Asia/Kolkata"), try zone("Pacific/Auckland")]
        var d = try date("2026-01-01")
        for _ in 0..<365 {
            for tz in zones {
                #expect(LocalDate(date: d.at(hour: 12, minute: 0, timeZone: tz), timeZone: tz) == d)
                #expect(LocalDate(date: d.startOfDay(in: tz), timeZone: tz) == d)
            }
            d = d.adding(days: 1)
        }
    }
}
