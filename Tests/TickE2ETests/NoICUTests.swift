import Foundation
import Testing

/// The binary tick ships links no ICU (issue 36): ICU's data was 35 MB of a
/// 65 MB file and came with full Foundation (GRDB and named time zones pulled
/// it in). tick's sources import FoundationEssentials only; this test fails
/// when anything brings ICU back into the static release build (`make
/// test-release` runs it against that build). A dynamic debug build still
/// loads libFoundation.so: TOMLKit imports `Foundation.Data`/`Date`/`Calendar`
/// (types that live in FoundationEssentials, so the static link takes them
/// from there and no ICU); see DECISIONS.md, "No ICU".
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
}
