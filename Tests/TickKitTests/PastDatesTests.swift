import Foundation
import Testing
@testable import TickKit

/// ``WhenParser`` looking back (``WhenDirection/past``), the future check of
/// `--since` and of `completed`/`created`/`modified` filters (issue 35).
/// The clock is Saturday 2026-11-21 08:20 in Berlin.
@Suite struct PastDatesTests {
    static let now = Timestamp.parse("2026-11-21T07:20:00Z") ?? Date()
    static let berlin = Zone(named: "Europe/Berlin") ?? .utc
    let past = WhenParser(now: now, timeZone: berlin, direction: .past)
    let future = WhenParser(now: now, timeZone: berlin)

    func day(_ parser: WhenParser, _ text: String) throws -> String {
        try parser.parseDay(text).iso
    }

    @Test func unsignedFormsLeanBack() throws {
        #expect(try day(past, "7d") == "2026-11-14")
        #expect(try day(past, "2w") == "2026-11-07")
        #expect(try day(past, "1mo") == "2026-10-21")
        #expect(try day(past, "nov 19") == "2026-11-19")
        #expect(try day(past, "dec 1") == "2025-12-01", "a month-day is the last one, not the next")
        #expect(try day(past, "nov 21") == "2026-11-21", "today is not in the future")
        #expect(try day(past, "fri") == "2026-11-20")
        #expect(try day(past, "sat") == "2026-11-14", "a weekday name is strictly before today")
        #expect(try day(past, "15th") == "2026-11-15")
        #expect(try day(past, "31st") == "2026-10-31")
        #expect(try day(past, "sow") == "2026-11-16")
        #expect(try day(past, "som") == "2026-11-01")
        // The future direction is unchanged.
        #expect(try day(future, "7d") == "2026-11-28")
        #expect(try day(future, "fri") == "2026-11-27")
        #expect(try day(future, "nov 19") == "2027-11-19")
        #expect(try day(future, "sow") == "2026-11-16", "Taskwarrior's sow: this week's Monday, either way")
        #expect(try day(future, "sonw") == "2026-11-23")
    }

    @Test func signedFormsSayTheirOwnWay() throws {
        for parser in [past, future] {
            #expect(try day(parser, "7d ago") == "2026-11-14")
            #expect(try day(parser, "-7d") == "2026-11-14")
            #expect(try day(parser, "2 weeks ago") == "2026-11-07")
            #expect(try day(parser, "yesterday") == "2026-11-20")
            #expect(try day(parser, "last week") == "2026-11-09")
            #expect(try day(parser, "last month") == "2026-10-01")
            #expect(try day(parser, "last year") == "2025-01-01")
            #expect(try day(parser, "this week") == "2026-11-16")
            #expect(try day(parser, "last fri") == "2026-11-20")
            #expect(try day(parser, "in 3d") == "2026-11-24")
            #expect(try day(parser, "+3d") == "2026-11-24")
            #expect(try parser.parse("2h ago") == .time(Self.now.addingTimeInterval(-7_200)))
            #expect(try parser.parse("-90min") == .time(Self.now.addingTimeInterval(-5_400)))
        }
        #expect(throws: DateError.self) { try past.parse("in 3d ago") }
        #expect(throws: DateError.ambiguousUnit(input: "3M", amount: 3)) { try past.parse("3M ago") }
    }

    @Test func aFutureDateWhereOnlyThePastMattersIsRefused() throws {
        let since = try CompletionStats.sinceDay("7d", now: Self.now, timeZone: Self.berlin)
        #expect(since.iso == "2026-11-14")
        #expect(try CompletionStats.sinceDay("today", now: Self.now, timeZone: Self.berlin).iso == "2026-11-21")
        #expect(throws: InputError.self) { try CompletionStats.sinceDay("in 3d", now: Self.now, timeZone: Self.berlin) }
        do {
            _ = try CompletionStats.sinceDay("next week", now: Self.now, timeZone: Self.berlin)
            Issue.record("next week is accepted")
        } catch {
            #expect(error.errorDescription == "--since: \"next week\" is 2026-11-23, not in the past, so --since would match nothing; "
                + "give a past date, e.g. 7d ago, -2w, yesterday, last week, last month, nov 19, 2026-11-01")
        }
    }

    @Test func filtersOnPastFieldsLeanBackAndRefuseTheFuture() throws {
        let parser = FilterParser(now: Self.now, timeZone: Self.berlin)
        func kinds(_ word: String) throws -> [FilterTerm.Kind] { try parser.parse([word]).expression.terms.map(\.kind) }
        #expect(try kinds("completed.after:fri") == kinds("completed.after:2026-11-20"))
        #expect(try kinds("created.after:7d") == kinds("created.after:2026-11-14"))
        #expect(try kinds("due.before:fri") == kinds("due.before:2026-11-27"))
        #expect(try kinds("due.before:fri") != kinds("due.before:2026-11-20"))
        // One shell word with a date with spaces: `19` is the day, not task 19.
        #expect(try kinds("completed:nov 19") == kinds("completed:2026-11-19"))
        #expect(try kinds("created.after:2 weeks ago") == kinds("created.after:2026-11-07"))
        #expect(try parser.parse(["list:Work 19"]).expression.terms.count == 2, "elsewhere a number is still an id")
        #expect(throws: FilterError.self) { try parser.parse(["completed.after:today"]) }
        #expect(throws: FilterError.self) { try parser.parse(["created:in 2d"]) }
        #expect(throws: FilterError.self) { try parser.parse(["modified.after:2026-12-01"]) }
        _ = try parser.parse(["completed.before:2026-12-01"])   // everything so far: fine
        _ = try parser.parse(["completed.after:-7d"])
        _ = try parser.parse(["\"completed.after:7d ago\""])
        _ = try parser.parse(["due.after:fri"])                  // due looks ahead, as before
        do {
            _ = try parser.parse(["completed.after:today"])
        } catch {
            #expect("\(error.errorDescription ?? "")".contains("not in the past, so completed.after: would match nothing"), "\(error)")
        }
    }
}
