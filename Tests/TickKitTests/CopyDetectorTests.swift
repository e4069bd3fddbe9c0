import Foundation
import Testing
@testable import TickKit

/// CopyDetector finds every repeated id, and only those, however many rows come.
@Suite struct CopyDetectorTests {
    @Test func findsRepeatsAcrossGrowth() throws {
        var detector = CopyDetector()
        var rng = SystemRandomNumberGenerator()
        var ids: [UUID] = []
        var expected: [Int: Int] = [:]
        for row in 0..<5_000 {
            if row > 0, row % 97 == 0 {
                let first = Int(rng.next() % UInt64(ids.count))
                let root = expected[first] ?? first
                ids.append(ids[root])
                expected[row] = root
            } else {
                ids.append(UUID())
            }
        }
        for (row, id) in ids.enumerated() {
            let found = detector.add(id)
            #expect(found.map(Int.init) == expected[row], "row \(row)")
        }
        #expect(UUID(fastString: "e5ad53e3-2b26-48bd-9c56-e77eab538220") == UUID(uuidString: "E5AD53E3-2B26-48BD-9C56-E77EAB538220"))
    }
}
