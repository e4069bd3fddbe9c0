import Foundation
import Testing
@testable import TickKit

/// Bucketing, trend and streak of `CompletionStats`, and `DayBoundaries`
/// across DST, under a fixed "today" and Europe/Berlin.
@Suite struct CompletionStatsTests {
    let berlin = Zone(named: "Europe/Berlin")!
    func d(_ iso: String) throws -> LocalDate { try #require(LocalDate(iso: iso)) }
    func t(_ text: String) throws -> Date { try #require(Timestamp.parse(text)) }
    func counts(_ pairs: [(String, Int)]) throws -> [LocalDate: Int] {
        var out: [LocalDate: Int] = [:]
        for (day, n) in pairs { out[try d(day), default: 0] += n }
        return out
    }
    let noStreak = CompletionStats.Streak(days: 0, from: nil, through: nil)

    @Test("instants map to local days across the DST changes (23- and 25-hour days)")
    func dstDays() throws {
        let b = DayBoundaries(first: try d("2026-03-27"), end: try d("2026-10-27"), timeZone: berlin)
        #expect(b.day(of: try t("2026-03-28T22:59:59Z")) == (try d("2026-03-28")))
        #expect(b.day(of: try t("2026-03-28T23:30:00Z")) == (try d("2026-03-29")))   // 00:30 CET
        #expect(b.day(of: try t("2026-03-29T21:59:59Z")) == (try d("2026-03-29")))   // 23:59:59 CEST
        #expect(b.day(of: try t("2026-03-29T22:00:00Z")) == (try d("2026-03-30")))
        #expect(b.day(of: try t("2026-10-25T22:59:59Z")) == (try d("2026-10-25")))   // 23:59:59 CET, a 25-hour day
        #expect(b.day(of: try t("2026-10-25T23:00:00Z")) == (try d("2026-10-26")))
        #expect(b.day(of: try t("2026-03-26T12:00:00Z")) == nil)
        #expect(b.day(of: try t("2026-10-27T23:00:00Z")) == nil)
    }

    @Test("periods: ISO weeks start on Monday (also in a DST week), months on the 1st")
    func periods() throws {
        #expect(StatsPeriod.week.start(of: try d("2026-11-22")) == (try d("2026-11-16")))
        #expect(StatsPeriod.week.start(of: try d("2026-03-29")) == (try d("2026-03-23")))
        #expect(StatsPeriod.week.start(of: try d("2026-03-30")) == (try d("2026-03-30")))
        #expect(StatsPeriod.month.start(of: try d("2028-02-29")) == (try d("2028-02-01")))
        #expect(StatsPeriod.month.previous(try d("2026-03-01")) == (try d("2026-02-01")))
        #expect(CompletionStats.rangeStart(period: .week, today: try d("2026-11-21"), since: nil) == (try d("2026-08-31")))
        #expect(CompletionStats.rangeStart(period: .day, today: try d("2026-11-21"), since: nil) == (try d("2026-11-08")))
        #expect(CompletionStats.rangeStart(period: .month, today: try d("2026-11-21"), since: try d("2026-06-15")) == (try d("2026-06-01")))
    }

    @Test("month buckets split exactly at month boundaries; per-list breakdown sorted by count, empty lists dropped")
    func months() throws {
        let c = try counts([("2026-01-31", 1), ("2026-02-01", 2), ("2026-02-28", 1), ("2026-03-01", 4), ("2026-02-10", 5)])
        let s = CompletionStats.build(period: .month, today: try d("2026-03-01"), since: try d("2026-01-20"), perDay: c,
                                      perList: ["inbox.json": 8, "lists/work.json": 5, "lists/empty.json": 0], streak: noStreak)
        #expect(s.buckets.map(\.count) == [1, 8, 4])
        #expect(s.buckets.map(\.start.iso) == ["2026-01-01", "2026-02-01", "2026-03-01"])
        #expect(s.total == 13)
        #expect(s.lists.map(\.list) == ["inbox.json", "lists/work.json"] && s.lists.map(\.count) == [8, 5])
        // Trend: March 1 (one day) against February 1.
        #expect(s.trend == .init(current: 4, previous: 2, days: 1, percent: 100))
        #expect(s.trendText == "+100% vs last month")
    }

    @Test("weekly trend compares the same days of last week; zero previous has no percent")
    func trend() throws {
        // Today Wed 18 Nov: Mon-Wed this week against Mon-Wed last week (Thu of last week not counted).
        let c = try counts([("2026-11-09", 3), ("2026-11-10", 2), ("2026-11-12", 9), ("2026-11-16", 1), ("2026-11-18", 3)])
        let s = CompletionStats.build(period: .week, today: try d("2026-11-18"), since: nil, perDay: c, perList: [:], streak: noStreak)
        #expect(s.trend == .init(current: 4, previous: 5, days: 3, percent: -20))
        #expect(s.trendText == "-20% vs last week")
        #expect(s.buckets.count == 12 && s.buckets.last?.count == 4 && s.buckets[10].count == 14)
        let none = CompletionStats.build(period: .week, today: try d("2026-11-18"), since: nil, perDay: try counts([("2026-11-17", 2)]), perList: [:], streak: noStreak)
        #expect(none.trend.percent == nil && none.trendText == "up from none last week")
        let zero = CompletionStats.build(period: .day, today: try d("2026-11-18"), since: nil, perDay: [:], perList: [:], streak: noStreak)
        #expect(zero.trendText == "no change vs yesterday (none either)")
        // Month trend on the 31st: clamped to the 28 days of February.
        let m = CompletionStats.build(period: .month, today: try d("2026-03-31"), since: nil, perDay: try counts([("2026-02-28", 2), ("2026-03-31", 3)]), perList: [:], streak: noStreak)
        #expect(m.trend == .init(current: 3, previous: 2, days: 28, percent: 50))
    }

    @Test("streak: up to today, or up to yesterday when nothing is done yet today")
    func streak() throws {
        let today = try d("2026-11-21")
        let three = CompletionStats.streak(activeDays: [try d("2026-11-19"), try d("2026-11-20"), try d("2026-11-21"), try d("2026-11-17")], today: today)
        #expect(three == .init(days: 3, from: try d("2026-11-19"), through: today))
        let yesterday = CompletionStats.streak(activeDays: [try d("2026-11-19"), try d("2026-11-20")], today: today)
        #expect(yesterday == .init(days: 2, from: try d("2026-11-19"), through: try d("2026-11-20")))
        #expect(CompletionStats.streak(activeDays: [try d("2026-11-19")], today: today).days == 0)
        // Across a DST change and a month end.
        let long = Set((0..<40).map { today.adding(days: -$0) })
        #expect(CompletionStats.streak(activeDays: long, today: today).from == (try d("2026-10-13")))
    }
}
