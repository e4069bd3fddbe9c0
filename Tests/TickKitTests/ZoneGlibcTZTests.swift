import Foundation
import Testing
@testable import TickKit

/// `TZ` values glibc reads and tick once read as UTC (issue 46), and glibc's other
/// lenient readings, against `TZ=VALUE date`: tick's offset and abbreviation from
/// `Zone.process` at every sampled instant must be what `date` prints there.
@Suite("TZ read as glibc reads it, against date")
struct ZoneGlibcTZTests {
    /// What `date` prints at one instant.
    struct Local: Equatable, CustomStringConvertible {
        let offset: Int
        let abbreviation: String
        var description: String { "\(offset) \(abbreviation)" }
    }

    /// Every 15 minutes through 2027, then an odd step (a day, 3 h 17 min 11 s) through 1900-2100.
    static let instants: [Int] = {
        let from2027 = LocalDate.days(fromCivil: 2027, 1, 1) * 86_400
        let to2028 = LocalDate.days(fromCivil: 2028, 1, 1) * 86_400
        let dense = Array(stride(from: from2027, to: to2028, by: 900))
        let from1900 = LocalDate.days(fromCivil: 1900, 1, 1) * 86_400
        let to2100 = LocalDate.days(fromCivil: 2100, 12, 31) * 86_400
        return dense + Array(stride(from: from1900, to: to2100, by: 27 * 3_600 + 17 * 60 + 11))
    }()

    /// `TZ=tz date -f -` over `instants` (`+%s %::z %Z|`); nil when `date` is not there.
    static func date(_ tz: String, _ instants: [Int]) throws -> [Local]? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/date") else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/date")
        process.arguments = ["-f", "-", "+%s %::z %Z|"]
        process.environment = ["TZ": tz, "LC_ALL": "C"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let text = instants.map { "@\($0)\n" }.joined()
        // Written from another thread: date's output would fill the pipe first.
        let writer = Thread {
            input.fileHandleForWriting.write(Data(text.utf8))
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map { line in
            let fields = line.dropLast().split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            let clock = fields.count > 1 ? fields[1] : ""
            let sign = clock.hasPrefix("-") ? -1 : 1
            let parts = clock.dropFirst().split(separator: ":").compactMap { Int($0) }
            let seconds = parts.count == 3 ? parts[0] * 3_600 + parts[1] * 60 + parts[2] : Int.min
            return Local(offset: sign * seconds, abbreviation: fields.count > 2 ? String(fields[2]) : "")
        }
    }

    static func tick(_ tz: String, _ instants: [Int]) -> [Local] {
        let zone = Zone.process(environment: ["TZ": tz])
        return instants.map { instant in
            let date = Date(timeIntervalSince1970: TimeInterval(instant))
            return Local(offset: zone.secondsFromGMT(for: date), abbreviation: zone.abbreviation(for: date))
        }
    }

    static let values = [
        // The values issue 46 names.
        ":EST5EDT,M3.2.0,M11.1.0",             // a leading colon on a POSIX string
        "EST5EDT,M3.2.0",                      // no end rule: the US end, M11.1.0
        "EST5EDT,M3.2.0,",
        "EST5EDT,M3.2.0,M11.1.0,",             // a trailing comma: ignored
        "EST5EDT,M3.2.0,M11.1.0 ",             // a trailing space: the end rule's time is 00:00
        "CET-1CEST,M3.5.0,M10.5.0/3 ",
        "EST5EDT,M3.2.0 ",                     // the start rule fails: both rules are glibc's zeroed ones
        "EST5 ", "CET-1 ", "EST5EDT ", "EST5,",
        "../zoneinfo/Europe/Berlin", ":../zoneinfo/Europe/Berlin", "../zoneinfo/America/Santiago",
        "Europe/../Europe/Berlin", "Europe//Berlin",
        "AAA5BBB", ":AAA5BBB", "AAA5BBB,",     // DST with no rule: posixrules
        "AAA3BBB", "AAA-1BBB", "<+03>-3<+04>", "EST5EDT4", "AAA5BBB3:30",
        // Other lenient readings.
        "EST5EDT,M3.2,M11.1.0", "EST5EDT,J0,J365", "EST5EDT,M3.2.0/-,M11.1.0", "EST5EDT,M3.2.0/2:30:,M11.1.0",
        "EST5EDT, M3.2.0,M11.1.0", "EST5,M3.2.0,M11.1.0", "EST99", "EST+ 5", "EST5EDT,M3.2.0/-2,M11.1.0/99999",
        "EST5EDT,M3.2.0,M11.1.0junk", "EST5EDT,M3.2.0/2junk", "EST5EDT,M3.0.0,M11.9.0", "EST5EDT,M3.2.9,M11.1.0",
        "EST5EDT,400,J300", "XXX3YYY,J60/2,J300/2", "XXX3YYY,59/2,299/2",
        // The strict forms, now through glibc's reading (all-year DST has glibc's New Year hours).
        "EST5EDT,M3.2.0,M11.1.0", "<+0330>-3:30", "UTC0", "AEST-10AEDT,M10.1.0,M4.1.0/3",
        "<-03>3<-02>,M3.5.0/-2,M10.5.0/-1", "IST-2IDT,M3.4.4/26,M10.5.0", "EST5EDT,0/0,J365/25",
        // UTC in glibc too.
        " EST5EDT,M3.2.0,M11.1.0", "5EST", "Not/AZone", "Europe/Berlin ", "EST 5", ":", "",
    ]

    @Test("the values glibc reads as UTC are tick's UTC zone", arguments: [
        " EST5EDT,M3.2.0,M11.1.0", "5EST", "Not/AZone", "Europe/Berlin ", "EST 5", ":", "", "Broken/../../etc/passwd",
    ])
    func utc(_ tz: String) {
        #expect(Zone.process(environment: ["TZ": tz]) == .utc)
    }

    @Test("tick's offset and abbreviation are date's at every sampled instant", arguments: values)
    func agreesWithDate(_ tz: String) throws {
        for name in ["Europe/Berlin", "America/New_York", "posixrules"] where !FileManager.default.fileExists(atPath: Zone.systemDirectory + "/" + name) {
            Issue.record("\(Zone.systemDirectory)/\(name) is missing (install tzdata)")
            return
        }
        guard let theirs = try Self.date(tz, Self.instants) else {
            Issue.record("/usr/bin/date is not installed: cannot check TZ=\(tz) against glibc")
            return
        }
        #expect(theirs.count == Self.instants.count, "date printed \(theirs.count) lines")
        let ours = Self.tick(tz, Self.instants)
        // Where glibc reads UTC it names the zone after the letters it read ("Europe" for
        // "Europe/Berlin ") or not at all; tick's zone is then UTC, named "UTC".
        let isUTC = Zone.process(environment: ["TZ": tz]) == .utc
        var mismatches = 0
        for (index, (a, b)) in zip(ours, theirs).enumerated() where isUTC ? a.offset != b.offset : a != b {
            mismatches += 1
            if mismatches <= 5 {
                Issue.record("TZ=\"\(tz)\" at \(Timestamp.format(Date(timeIntervalSince1970: TimeInterval(Self.instants[index])))): tick \(a), date \(b)")
            }
        }
        #expect(mismatches == 0, "TZ=\"\(tz)\"")
    }

    @Test("the issue's values are no longer UTC: New York's or Berlin's offsets on 2027-07-01 and 2027-01-15")
    func notUTC() {
        let summer = Date(timeIntervalSince1970: TimeInterval(LocalDate.days(fromCivil: 2027, 7, 1) * 86_400 + 12 * 3_600))
        let winter = Date(timeIntervalSince1970: TimeInterval(LocalDate.days(fromCivil: 2027, 1, 15) * 86_400 + 12 * 3_600))
        for tz in [":EST5EDT,M3.2.0,M11.1.0", "EST5EDT,M3.2.0", "EST5EDT,M3.2.0,M11.1.0,", "EST5EDT,M3.2.0,M11.1.0 ", "AAA5BBB"] {
            let zone = Zone.process(environment: ["TZ": tz])
            #expect(zone.secondsFromGMT(for: summer) == -4 * 3_600, "TZ=\"\(tz)\"")
            #expect(zone.secondsFromGMT(for: winter) == -5 * 3_600, "TZ=\"\(tz)\"")
        }
        let berlin = Zone.process(environment: ["TZ": "../zoneinfo/Europe/Berlin"])
        #expect(berlin.identifier == "Europe/Berlin")
        #expect(berlin.secondsFromGMT(for: summer) == 7_200 && berlin.secondsFromGMT(for: winter) == 3_600)
    }

    @Test("a month glibc would read outside its table is UTC in tick (undefined in glibc, not compared)")
    func undefinedInGlibc() {
        for tz in ["EST5EDT,M13.2.0,M11.1.0", "EST5EDT,M.2.0,M11.1.0", "EST5EDT,M3.2.0,M0.1.0"] {
            #expect(Zone.process(environment: ["TZ": tz]) == .utc, "TZ=\(tz)")
        }
    }

    @Test("sscanf's %hu: spaces and a sign before the digits, 16-bit wrap-around, the largest value on overflow")
    func unsignedShort() {
        func scan(_ text: String) -> Int? { GlibcTimeZoneRule.unsignedShort(in: Array(text.utf8), from: 0)?.value }
        #expect(scan("5") == 5)
        #expect(scan(" \t5x") == 5)
        #expect(scan("+5") == 5)
        #expect(scan("-5") == 65_531)
        #expect(scan("65537") == 1)
        #expect(scan("99999999999999999999999") == 65_535)
        #expect(scan("") == nil)
        #expect(scan("-") == nil)
        #expect(scan("x5") == nil)
    }
}
