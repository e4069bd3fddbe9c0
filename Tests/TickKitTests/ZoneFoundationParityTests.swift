import Foundation
import Testing
@testable import TickKit

/// Zone against what tick used before it: Foundation's ICU `TimeZone` and Gregorian
/// `Calendar`. Offsets at many instants, local days, and wall time -> instant on every
/// day with a transition (gaps and overlaps), so tick's dates stay exactly what they were.
/// (ICU carries its own copy of the tz database; the years checked are ones both agree on.)
@Suite("Zone vs Foundation's TimeZone and Calendar")
struct ZoneFoundationParityTests {
    static let zones = [
        "Europe/Berlin", "America/New_York", "America/Sao_Paulo", "Australia/Sydney", "Australia/Lord_Howe",
        "Asia/Kolkata", "Asia/Kathmandu", "America/St_Johns", "Pacific/Chatham", "Pacific/Apia", "Europe/London",
        "America/Los_Angeles", "Pacific/Auckland", "UTC",
    ]
    static let first = LocalDate.days(fromCivil: 2000, 1, 1) * 86_400
    static let end = LocalDate.days(fromCivil: 2031, 1, 1) * 86_400

    func pair(_ name: String) throws -> (Zone, TimeZone, Calendar) {
        let foundation = try #require(TimeZone(identifier: name))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = foundation
        return (try Zone.load(named: name), foundation, calendar)
    }

    @Test("offsets and local days agree at every sampled instant", arguments: zones)
    func offsets(_ name: String) throws {
        let (zone, foundation, calendar) = try pair(name)
        var mismatches = 0
        for second in stride(from: Self.first, to: Self.end, by: 4 * 3_600 + 13 * 60 + 7) {
            let date = Date(timeIntervalSince1970: TimeInterval(second))
            let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
            let day = LocalDate(date: date, timeZone: zone)
            let clock = ClockTime(date: date, timeZone: zone)
            if zone.secondsFromGMT(for: date) != foundation.secondsFromGMT(for: date)
                || (day.year, day.month, day.day) != (parts.year, parts.month, parts.day)
                || (clock.hour, clock.minute) != (parts.hour, parts.minute) {
                mismatches += 1
                if mismatches <= 5 { Issue.record("\(name) at \(Timestamp.format(date))") }
            }
        }
        #expect(mismatches == 0)
    }

    @Test("wall time -> instant agrees on every transition day, every 10 minutes (gaps and overlaps)", arguments: zones)
    func wallTimes(_ name: String) throws {
        let (zone, foundation, calendar) = try pair(name)
        // The local days on which a transition falls, found with Foundation.
        var days: [LocalDate] = []
        var cursor = Date(timeIntervalSince1970: TimeInterval(Self.first))
        while let next = foundation.nextDaylightSavingTimeTransition(after: cursor), next.timeIntervalSince1970 < TimeInterval(Self.end) {
            days.append(LocalDate(date: next, timeZone: zone))
            days.append(LocalDate(date: next, timeZone: zone).adding(days: 1))
            cursor = next
        }
        days += [LocalDate(year: 2026, month: 11, day: 27), LocalDate(year: 2011, month: 12, day: 29), LocalDate(year: 2011, month: 12, day: 30)].compactMap { $0 }
        if name != "UTC" && name != "Asia/Kolkata" && name != "Asia/Kathmandu" {
            #expect(days.count > 4, "\(name) should have transitions")
        }
        var mismatches = 0
        for day in days {
            for minutes in stride(from: 0, through: 24 * 60, by: 10) {
                let ours = day.at(hour: minutes / 60, minute: minutes % 60, timeZone: zone)
                let components = DateComponents(year: day.year, month: day.month, day: day.day,
                                                hour: minutes / 60, minute: minutes % 60, second: 0)
                let theirs = try #require(calendar.date(from: components))
                if ours != theirs {
                    mismatches += 1
                    if mismatches <= 5 {
                        Issue.record("\(name) \(day.iso) \(minutes / 60):\(minutes % 60): tick \(Timestamp.format(ours)), Calendar \(Timestamp.format(theirs))")
                    }
                }
            }
        }
        #expect(mismatches == 0)
    }

    @Test("in an overlap the first (daylight) occurrence is picked; in a gap the time moves forward by the gap")
    func gapAndOverlap() throws {
        let berlin = try Zone.load(named: "Europe/Berlin")
        let fallBack = try #require(LocalDate(year: 2026, month: 10, day: 25))
        #expect(Timestamp.format(fallBack.at(hour: 2, minute: 30, timeZone: berlin)) == "2026-10-25T00:30:00Z")
        let springForward = try #require(LocalDate(year: 2026, month: 3, day: 29))
        #expect(Timestamp.format(springForward.at(hour: 2, minute: 30, timeZone: berlin)) == "2026-03-29T01:30:00Z")
        // Apia skipped 2011-12-30 entirely: any time that day is a full day later on the wall.
        let apia = try Zone.load(named: "Pacific/Apia")
        let skipped = try #require(LocalDate(year: 2011, month: 12, day: 30))
        #expect(LocalDate(date: skipped.at(hour: 9, minute: 0, timeZone: apia), timeZone: apia).iso == "2011-12-31")
    }
}
