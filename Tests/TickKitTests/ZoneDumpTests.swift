import Foundation
import Testing
@testable import TickKit

/// Zone (tick's TZif reader) against `zdump -v`, the C library's own reading of the
/// same files: every transition from 1900 to 2100 (both sides of each), and the
/// middle of every interval between them.
@Suite("Zone vs zdump -v")
struct ZoneDumpTests {
    static let zones = [
        "Europe/Berlin", "Europe/Dublin", "Europe/London", "America/New_York", "America/Sao_Paulo",
        "America/Santiago", "America/Nuuk", "Australia/Sydney", "Australia/Lord_Howe", "Asia/Kolkata",
        "Asia/Kathmandu", "Asia/Tehran", "Pacific/Apia", "Pacific/Kiritimati", "Africa/Casablanca",
        "America/St_Johns", "Pacific/Chatham", "Antarctica/Troll",
    ]

    /// One line of `zdump -v`: the UT instant and what local time says there.
    struct Line {
        let instant: Int64
        let abbreviation: String
        let isDST: Bool
        let offset: Int
    }

    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Parses `Zone  Sun Mar 29 00:59:59 1970 UT = Sun Mar 29 01:59:59 1970 CET isdst=0 gmtoff=3600`;
    /// nil for the `= NULL` lines at the ends of time.
    static func parse(_ text: Substring) -> Line? {
        let f = text.split(separator: " ", omittingEmptySubsequences: true)
        guard f.count == 16, f[6] == "UT", f[7] == "=",
              let month = months.firstIndex(of: String(f[2])), let day = Int(f[3]), let year = Int(f[5]),
              f[14].hasPrefix("isdst="), f[15].hasPrefix("gmtoff="),
              let offset = Int(f[15].dropFirst(7))
        else { return nil }
        let clock = f[4].split(separator: ":").compactMap { Int($0) }
        guard clock.count == 3 else { return nil }
        let days = LocalDate.days(fromCivil: year, month + 1, day)
        let instant = Int64(days * 86_400 + clock[0] * 3_600 + clock[1] * 60 + clock[2])
        return Line(instant: instant, abbreviation: String(f[13]), isDST: f[14] == "isdst=1", offset: offset)
    }

    static func zdump(_ zone: String) throws -> String? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/zdump") else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/zdump")
        process.arguments = ["-v", "-c", "1900,2100", zone]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test("every transition and interval matches zdump", arguments: zones)
    func matchesZdump(_ name: String) throws {
        guard let output = try Self.zdump(name) else {
            Issue.record("zdump is not installed (/usr/bin/zdump, Debian package libc-bin): cannot check \(name) against the C library")
            return
        }
        guard FileManager.default.fileExists(atPath: Zone.systemDirectory + "/" + name) else {
            Issue.record("\(name) is missing from \(Zone.systemDirectory) (install tzdata)")
            return
        }
        let zone = try Zone.load(named: name)
        let lines = output.split(separator: "\n").compactMap(Self.parse)
        #expect(lines.count >= 2, "zdump printed no transitions for \(name)")
        for line in lines {
            let date = Date(timeIntervalSince1970: TimeInterval(line.instant))
            #expect(zone.secondsFromGMT(for: date) == line.offset, "\(name) offset at \(Timestamp.format(date))")
            #expect(zone.isDaylightSavingTime(for: date) == line.isDST, "\(name) isdst at \(Timestamp.format(date))")
            #expect(zone.abbreviation(for: date) == line.abbreviation, "\(name) abbreviation at \(Timestamp.format(date))")
        }
        // Between one transition and the next, the offset zdump gave after the first holds.
        for (a, b) in zip(lines, lines.dropFirst()) where b.instant - a.instant > 2 {
            let middle = Date(timeIntervalSince1970: TimeInterval(a.instant + (b.instant - a.instant) / 2))
            #expect(zone.secondsFromGMT(for: middle) == a.offset, "\(name) offset at \(Timestamp.format(middle))")
        }
    }

    @Test("the checked zones cover what the issue names: negative DST, half-hour DST, 45-minute offsets, a skipped day")
    func coverage() throws {
        guard let dublin = try Self.zdump("Europe/Dublin"), let apia = try Self.zdump("Pacific/Apia"),
              let lordHowe = try Self.zdump("Australia/Lord_Howe") else { return }
        // Europe/Dublin: winter GMT is the DST type (isdst=1 at offset 0).
        #expect(dublin.split(separator: "\n").compactMap(Self.parse).contains { $0.isDST && $0.offset == 0 })
        // Pacific/Apia skipped 2011-12-30: -10 -> +14 in one step.
        let apiaLines = apia.split(separator: "\n").compactMap(Self.parse)
        #expect(zip(apiaLines, apiaLines.dropFirst()).contains { $0.offset == -36_000 && $1.offset == 50_400 })
        // Lord Howe: +10:30 standard, +11 summer (a 30-minute DST).
        #expect(lordHowe.split(separator: "\n").compactMap(Self.parse).contains { $0.offset == 39_600 && $0.isDST })
    }
}
