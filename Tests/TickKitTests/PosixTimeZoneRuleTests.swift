import Foundation
import Glibc
import Testing
@testable import TickKit

/// POSIX TZ strings read by tick against glibc's own reading of them (`TZ` set in
/// this process, `tzset`, `localtime_r`), instant by instant. The suite is serialized
/// and puts `TZ` back afterwards; nothing else in the unit tests reads `TZ`.
@Suite("POSIX TZ rules vs glibc", .serialized)
struct PosixTimeZoneRuleTests {
    /// What glibc says at `instant` under `TZ=rule`.
    struct Local: Equatable {
        let offset: Int
        let isDST: Bool
        let abbreviation: String
    }

    static func glibc(_ rule: String, _ instants: [Int]) -> [Local] {
        let saved = getenv("TZ").map { String(cString: $0) }
        setenv("TZ", rule, 1)
        tzset()
        defer {
            if let saved { setenv("TZ", saved, 1) } else { unsetenv("TZ") }
            tzset()
        }
        return instants.map { instant in
            var t = time_t(instant)
            var parts = tm()
            localtime_r(&t, &parts)
            return Local(offset: parts.tm_gmtoff, isDST: parts.tm_isdst > 0,
                         abbreviation: parts.tm_zone.map { String(cString: $0) } ?? "")
        }
    }

    static func tick(_ rule: String, _ instants: [Int]) throws -> [Local] {
        let zone = try Zone(posix: rule)
        return instants.map { instant in
            let date = Date(timeIntervalSince1970: TimeInterval(instant))
            return Local(offset: zone.secondsFromGMT(for: date), isDST: zone.isDaylightSavingTime(for: date),
                         abbreviation: zone.abbreviation(for: date))
        }
    }

    /// Every 15 minutes through 2028 (a leap year, so every transition is bracketed), then an odd
    /// step (a day, 3 h 17 min 11 s) through 1970-2100.
    static let instants: [Int] = {
        let from2028 = LocalDate.days(fromCivil: 2028, 1, 1) * 86_400
        let to2029 = LocalDate.days(fromCivil: 2029, 1, 1) * 86_400
        let dense = Array(stride(from: from2028, to: to2029, by: 900))
        let to2100 = LocalDate.days(fromCivil: 2100, 12, 31) * 86_400
        return dense + Array(stride(from: 0, to: to2100, by: 27 * 3_600 + 17 * 60 + 11))
    }()

    static let rules = [
        "EST5EDT,M3.2.0,M11.1.0",              // the US
        "<+0330>-3:30",                        // quoted name, half-hour offset east
        "UTC0",
        "CET-1CEST,M3.5.0,M10.5.0/3",          // the EU
        "AEST-10AEDT,M10.1.0,M4.1.0/3",        // southern hemisphere
        "<-03>3<-02>,M3.5.0/-2,M10.5.0/-1",    // negative transition times (America/Nuuk)
        "IST-2IDT,M3.4.4/26,M10.5.0",          // hour 26 (Asia/Jerusalem)
        "XXX3YYY,J60/2,J300/2",                // Jn: February 29 never counted
        "XXX3YYY,59/2,299/2",                  // n: zero-based, February 29 counted
        "<+1030>-10:30<+11>-11,M10.1.0,M4.1.0", // Lord Howe's 30-minute DST
        "NZST-12NZDT,M9.5.0,M4.1.0/3",
        "<-0930>9:30",                         // Marquesas
        "ABC+5:45:30DEF+4,M4.1.6/23:59:59,M9.5.6/1:30", // seconds in offsets and times
    ]

    @Test("each rule agrees with glibc at every sampled instant", arguments: rules)
    func agreesWithGlibc(_ rule: String) throws {
        let ours = try Self.tick(rule, Self.instants)
        let theirs = Self.glibc(rule, Self.instants)
        var mismatches = 0
        for (index, (a, b)) in zip(ours, theirs).enumerated() where a != b {
            mismatches += 1
            if mismatches <= 5 {
                Issue.record("\(rule) at \(Timestamp.format(Date(timeIntervalSince1970: TimeInterval(Self.instants[index])))): tick \(a), glibc \(b)")
            }
        }
        #expect(mismatches == 0)
    }

    @Test("EST5EDT,0/0,J365/25 is daylight time all year (RFC 8536 §3.3.1); glibc differs only in its New Year hours")
    func allYearDaylightTime() throws {
        let rule = "EST5EDT,0/0,J365/25"
        let ours = try Self.tick(rule, Self.instants)
        #expect(ours.allSatisfy { $0 == Local(offset: -4 * 3_600, isDST: true, abbreviation: "EDT") })
        // glibc evaluates the rule in the UTC year, so from 00:00Z to 05:00Z each January 1
        // (before the year's "start" at 00:00 EST) it reports EST; everywhere else it agrees.
        let theirs = Self.glibc(rule, Self.instants)
        for (index, (a, b)) in zip(ours, theirs).enumerated() where a != b {
            let secondOfYear = Self.instants[index] - LocalDate.days(fromCivil: LocalDate(daysSinceEpoch: LocalDate.floorDiv(Self.instants[index], 86_400)).year, 1, 1) * 86_400
            #expect(secondOfYear < 5 * 3_600, "\(rule) at \(Timestamp.format(Date(timeIntervalSince1970: TimeInterval(Self.instants[index])))): glibc \(b)")
        }
    }

    @Test("Zone(posix:): a DST name without rules takes the US rules, M3.2.0,M11.1.0")
    func defaultRules() throws {
        // In TZ, glibc (and tick, Zone.process) reads the posixrules file here instead:
        // ZoneGlibcTZTests. The strict reader keeps RFC 8536's reading.
        let ours = try Self.tick("ABC5DEF", Self.instants)
        #expect(ours == (try Self.tick("ABC5DEF,M3.2.0,M11.1.0", Self.instants)))
        #expect(ours.contains { $0 == Local(offset: -4 * 3_600, isDST: true, abbreviation: "DEF") })
        #expect(ours.contains { $0 == Local(offset: -5 * 3_600, isDST: false, abbreviation: "ABC") })
    }

    @Test("malformed strings are refused", arguments: [
        "", "E5", "EST", "EST5EDT,M3.2.0", "EST5EDT,M13.2.0,M11.1.0", "EST5EDT,M3.6.0,M11.1.0",
        "EST5EDT,J0,J365", "EST5EDT,366,0", "<+03", "<+3>-3", "EST25", "EST5EDT,M3.2.0/168,M11.1.0", "EST5 trailing",
    ])
    func refused(_ rule: String) {
        #expect(throws: ZoneError.invalidRule(rule)) { try Zone(posix: rule) }
    }
}
