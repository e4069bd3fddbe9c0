import Foundation
import Testing

/// The binary tick ships links no ICU (issue 36): ICU's data was 35 MB of a
/// 65 MB file and came with full Foundation (GRDB and named time zones pulled
/// it in). tick's sources import FoundationEssentials only; these tests fail
/// when anything brings ICU back, in either build.
@Suite struct NoICUTests {
    /// Bytes every ICU build leaves in a binary that links it: the data
    /// archive's name (`icudt76l`, also in a stripped file) and the symbols of
    /// swift-foundation's ICU (`swift_ucol_open`) or a system ICU (`ucol_open_76`).
    static let icuMarkers = ["icudt", "ucol_open", "ubrk_open"]

    @Test func theBinaryHoldsNoICUDataOrSymbols() throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: TickBinary.path))
        #expect(bytes.count > 1_000_000, "\(TickBinary.path) is not the tick binary")
        for marker in Self.icuMarkers {
            #expect(bytes.range(of: Data(marker.utf8)) == nil, "\(TickBinary.path) links ICU: it holds \"\(marker)\"")
        }
    }

    /// A dynamically linked (debug) build loads no full Foundation: only
    /// FoundationEssentials, whose libraries need no ICU.
    @Test func aDynamicBuildLoadsNoFullFoundation() throws {
        let s = try Sandbox()
        let readelf = try s.run("/usr/bin/env", ["readelf", "-d", TickBinary.path])
        try #require(readelf.status == 0, "readelf failed: \(readelf.stderr)")
        let needed = readelf.stdout.split(separator: "\n").filter { $0.contains("(NEEDED)") }.map(String.init)
        for library in ["libFoundation.so", "libFoundationInternationalization.so", "lib_FoundationICU.so", "libicu"] {
            #expect(!needed.contains { $0.contains(library) }, "tick loads \(library): \(needed)")
        }
    }
}
