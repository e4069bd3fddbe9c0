import Foundation
import Testing
@testable import TickKit

/// The process's zone from `TZ`, as the C library resolves it, with a temporary
/// zoneinfo directory and `/etc/localtime` stand-in; and the TZif reader on files
/// written by hand (version 1, footers, damage).
@Suite("Zone: the process zone and the TZif reader")
struct ZoneProcessTests {
    /// A temporary zoneinfo directory holding Europe/Berlin (copied from the system)
    /// and a `localtime` symlink to it.
    final class Fixture {
        let root: String
        let zoneinfo: String
        let localtime: String

        init() throws {
            root = NSTemporaryDirectory() + "tick-zone-\(UUID().uuidString)"
            zoneinfo = root + "/zoneinfo"
            localtime = root + "/localtime"
            try FileManager.default.createDirectory(atPath: zoneinfo + "/Europe", withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: Zone.systemDirectory + "/Europe/Berlin", toPath: zoneinfo + "/Europe/Berlin")
            try FileManager.default.createSymbolicLink(atPath: localtime, withDestinationPath: zoneinfo + "/Europe/Berlin")
            try Data("not a zone".utf8).write(to: URL(fileURLWithPath: zoneinfo + "/Broken"))
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }

        func zone(_ tz: String?, localtime: String? = nil) -> Zone {
            Zone.process(environment: tz.map { ["TZ": $0] } ?? [:], zoneinfo: zoneinfo, localtime: localtime ?? self.localtime)
        }
    }

    /// 2026-07-01T12:00Z: CEST (+2) in Berlin, EDT (-4) under the US rule.
    static let summer = Date(timeIntervalSince1970: 1_782_907_200)

    @Test("TZ unset reads the localtime file and is named after its link target")
    func unset() throws {
        let f = try Fixture()
        let zone = f.zone(nil)
        #expect(zone.identifier == "Europe/Berlin")
        #expect(zone.secondsFromGMT(for: Self.summer) == 7_200)
        // No localtime file: UTC.
        let missing = f.zone(nil, localtime: f.root + "/nothing")
        #expect(missing == .utc)
        #expect(missing.secondsFromGMT(for: Self.summer) == 0)
    }

    @Test("TZ empty is UTC; a name, :name or absolute path reads that file")
    func namesAndPaths() throws {
        let f = try Fixture()
        #expect(f.zone("") == .utc)
        for tz in ["Europe/Berlin", ":Europe/Berlin", f.zoneinfo + "/Europe/Berlin", ":" + f.zoneinfo + "/Europe/Berlin"] {
            let zone = f.zone(tz)
            #expect(zone.identifier == "Europe/Berlin", "TZ=\(tz)")
            #expect(zone.secondsFromGMT(for: Self.summer) == 7_200, "TZ=\(tz)")
        }
        // The name is looked up in the given directory, not the system's.
        #expect(f.zone("America/New_York") == .utc)
    }

    @Test("TZ that names no file is read as a POSIX string, with or without a colon; garbage and damage are UTC")
    func posixAndGarbage() throws {
        let f = try Fixture()
        let us = f.zone("EST5EDT,M3.2.0,M11.1.0")
        #expect(us.identifier == "EST5EDT,M3.2.0,M11.1.0")
        #expect(us.secondsFromGMT(for: Self.summer) == -4 * 3_600)
        #expect(f.zone(":EST5EDT,M3.2.0,M11.1.0").secondsFromGMT(for: Self.summer) == -4 * 3_600)
        #expect(f.zone("<+0330>-3:30").secondsFromGMT(for: Self.summer) == 12_600)
        for tz in ["Not/AZone", "Broken", ":Broken", f.root + "/nothing", "5EST", ":"] {
            #expect(f.zone(tz) == .utc, "TZ=\(tz)")
        }
    }

    @Test("a relative path is read inside the zoneinfo directory, .. and empty components included, as glibc reads it")
    func relativePaths() throws {
        let f = try Fixture()
        for tz in ["../zoneinfo/Europe/Berlin", ":../zoneinfo/Europe/Berlin", "Europe/../Europe/Berlin", "Europe//Berlin", "./Europe/Berlin"] {
            let zone = f.zone(tz)
            #expect(zone.identifier == "Europe/Berlin", "TZ=\(tz)")
            #expect(zone.secondsFromGMT(for: Self.summer) == 7_200, "TZ=\(tz)")
        }
        // Out of the directory: named by its path.
        try FileManager.default.copyItem(atPath: f.zoneinfo + "/Europe/Berlin", toPath: f.root + "/Mine")
        let outside = f.zone("../Mine")
        #expect(outside.identifier == "../Mine")
        #expect(outside.secondsFromGMT(for: Self.summer) == 7_200)
    }

    @Test("a DST name without rules takes the changes of zoneinfo/posixrules, else the US rules")
    func posixRules() throws {
        let f = try Fixture()
        // 2026-03-10T12:00Z: after the US change (March 8), before the EU one (March 29).
        let march = Date(timeIntervalSince1970: 1_773_144_000)
        // No posixrules in the fixture: the US rules.
        #expect(f.zone("AAA-1BBB").secondsFromGMT(for: march) == 7_200)
        #expect(f.zone("AAA-1BBB").abbreviation(for: march) == "BBB")
        // posixrules is Berlin: Berlin's changes with the given names and offsets.
        try FileManager.default.copyItem(atPath: f.zoneinfo + "/Europe/Berlin", toPath: f.zoneinfo + "/posixrules")
        let eu = f.zone("AAA-1BBB")
        #expect(eu.secondsFromGMT(for: march) == 3_600)
        #expect(eu.abbreviation(for: march) == "AAA")
        #expect(eu.secondsFromGMT(for: Self.summer) == 7_200)
        #expect(eu.abbreviation(for: Self.summer) == "BBB")
        #expect(eu.isDaylightSavingTime(for: Self.summer))
        // A posixrules with one type is not used.
        let single = Self.tzif(version: UInt8(ascii: "2"), transitions: [100], types: [(0, false, "UTC")], indices: [0], footer: "UTC0")
        try FileManager.default.removeItem(atPath: f.zoneinfo + "/posixrules")
        try Data(single).write(to: URL(fileURLWithPath: f.zoneinfo + "/posixrules"))
        #expect(f.zone("AAA-1BBB").secondsFromGMT(for: march) == 7_200)
    }

    @Test("names that leave the zoneinfo directory are refused")
    func escapes() {
        for name in ["../etc/passwd", "Europe/../../x", "/etc/localtime", "", "Europe//Berlin"] {
            #expect(throws: ZoneError.invalidName(name)) { try Zone.load(named: name) }
        }
    }

    /// A TZif file: `version` 0 writes only the 32-bit block; 2+ writes both and a footer.
    /// The 32-bit block of a version 2+ file is deliberately wrong (every offset +1 h) to prove it is skipped.
    static func tzif(version: UInt8, transitions: [Int64], types: [(Int32, Bool, String)], indices: [UInt8], footer: String) -> [UInt8] {
        var chars: [UInt8] = []
        var designations: [UInt8] = []
        for type in types {
            designations.append(UInt8(chars.count))
            chars += Array(type.2.utf8) + [0]
        }
        func be(_ value: Int64, _ size: Int) -> [UInt8] { (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        func block(_ size: Int, shift: Int32) -> [UInt8] {
            var out: [UInt8] = Array("TZif".utf8) + [version] + Array(repeating: 0, count: 15)
            for count in [0, 0, 0, transitions.count, types.count, chars.count] { out += be(Int64(count), 4) }
            for t in transitions { out += be(t, size) }
            out += indices
            for (i, type) in types.enumerated() { out += be(Int64(type.0 + shift), 4) + [type.1 ? 1 : 0, designations[i]] }
            return out + chars
        }
        if version == 0 { return block(4, shift: 0) }
        return block(4, shift: 3_600) + block(8, shift: 0) + Array("\n\(footer)\n".utf8)
    }

    @Test("version 1 files are read from the 32-bit block; version 2+ from the 64-bit block and the footer")
    func versions() throws {
        let types: [(Int32, Bool, String)] = [(3_600, false, "CET"), (7_200, true, "CEST")]
        let v1 = Zone(identifier: "t", source: .file(try TZifFile(bytes: Self.tzif(version: 0, transitions: [100, 200], types: types, indices: [1, 0], footer: ""), path: "v1")))
        #expect(v1.secondsFromGMT(for: Date(timeIntervalSince1970: 50)) == 3_600)
        #expect(v1.secondsFromGMT(for: Date(timeIntervalSince1970: 150)) == 7_200)
        #expect(v1.abbreviation(for: Date(timeIntervalSince1970: 150)) == "CEST")
        #expect(v1.secondsFromGMT(for: Self.summer) == 3_600)
        for version in [UInt8(ascii: "2"), UInt8(ascii: "3"), UInt8(ascii: "4")] {
            let bytes = Self.tzif(version: version, transitions: [100, 200], types: types, indices: [1, 0], footer: "CET-1CEST,M3.5.0,M10.5.0/3")
            let zone = Zone(identifier: "t", source: .file(try TZifFile(bytes: bytes, path: "v\(version)")))
            #expect(zone.secondsFromGMT(for: Date(timeIntervalSince1970: 150)) == 7_200)
            #expect(zone.secondsFromGMT(for: Date(timeIntervalSince1970: 250)) == 3_600)
            // Past the table: the footer's rule (summer time in July 2026).
            #expect(zone.secondsFromGMT(for: Self.summer) == 7_200)
        }
    }

    @Test("damaged files are refused with where they break")
    func damaged() throws {
        let good = Self.tzif(version: UInt8(ascii: "2"), transitions: [100], types: [(0, false, "UTC")], indices: [0], footer: "UTC0")
        #expect(throws: ZoneError.self) { try TZifFile(bytes: Array(good.prefix(60)), path: "cut") }
        #expect(throws: ZoneError.self) { try TZifFile(bytes: Array("TZjf".utf8) + good.dropFirst(4), path: "magic") }
        var badIndex = Self.tzif(version: 0, transitions: [100], types: [(0, false, "UTC")], indices: [0], footer: "")
        badIndex[44 + 4] = 7
        #expect(throws: ZoneError.self) { try TZifFile(bytes: badIndex, path: "index") }
        let badFooter = Self.tzif(version: UInt8(ascii: "2"), transitions: [100], types: [(0, false, "UTC")], indices: [0], footer: "nonsense")
        #expect(throws: ZoneError.malformed(path: "footer", reason: "its footer \"nonsense\" is not a POSIX TZ string")) {
            try TZifFile(bytes: badFooter, path: "footer")
        }
        let noFooter = Self.tzif(version: UInt8(ascii: "2"), transitions: [100], types: [(0, false, "UTC")], indices: [0], footer: "")
        #expect(try TZifFile(bytes: noFooter, path: "empty footer").footer == nil)
    }

    @Test("a fixed offset and UTC")
    func fixed() {
        #expect(Zone(secondsFromGMT: 19_800).identifier == "GMT+0530")
        #expect(Zone(secondsFromGMT: -12_600).secondsFromGMT(for: Self.summer) == -12_600)
        #expect(Zone.utc.identifier == "UTC")
        #expect(!Zone.utc.isDaylightSavingTime(for: Self.summer))
    }
}
