import Foundation
import Testing
@testable import TickKit

/// Format round trips against golden files in Tests/TickKitTests/Golden.
@Suite struct GoldenTests {
    static let fallback = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18T...

    func golden(_ name: String) throws -> [UInt8] {
        let url = try #require(Bundle.module.url(forResource: "Golden/\(name)", withExtension: nil))
        return Array(try Data(contentsOf: url))
    }

    func decode(_ bytes: [UInt8], kind: FileKind) throws -> TaskFile {
        try TaskFileDecoder(bytes: bytes, path: "test.json", kind: kind, fallbackDate: Self.fallback).decode()
    }

    @Test func messyFileIsWrittenCanonically() throws {
        let file = try decode(try golden("messy.json"), kind: .list(slug: "garage"))
        let out = TaskFileEncoder.encode(file)
        let expected = try golden("messy.canonical.json")
        #expect(String(decoding: out, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
    }

    @Test func canonicalFileIsAFixedPoint() throws {
        let expected = try golden("messy.canonical.json")
        let again = TaskFileEncoder.encode(try decode(expected, kind: .list(slug: "garage")))
        #expect(again == expected)
    }

    @Test func handMadeFileGetsDerivedStableIDs() throws {
        let bytes = try golden("handmade.json")
        let a = try decode(bytes, kind: .list(slug: "books"))
        let b = try decode(bytes, kind: .list(slug: "books"))
        #expect(a.needsFill)
        #expect(a.name == "Books")
        #expect(a.tasks.map(\.title) == ["Dune", "Dune", "Hyperion"])
        #expect(a.tasks.map(\.id) == b.tasks.map(\.id))
        #expect(Set(a.tasks.map(\.id)).count == 3)
        #expect(a.id == UUID(name: "tick-list:books"))
        #expect(a.tasks.allSatisfy { $0.createdAt == Self.fallback && $0.state == .open })
        let out = TaskFileEncoder.encode(a)
        #expect(String(decoding: out, as: UTF8.self) == String(decoding: try golden("handmade.canonical.json"), as: UTF8.self))
        // Once written, the ids are the same ones that were derived.
        let reread = try decode(out, kind: .list(slug: "books"))
        #expect(reread.tasks.map(\.id) == a.tasks.map(\.id))
        #expect(!reread.needsFill)
    }

    @Test func sampleDataIsCanonical() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("SampleData")
        let store = Store(location: StoreLocation(root: root.path, stateDirectory: "/nonexistent", cacheDirectory: "/nonexistent"))
        let kinds = try store.kinds()
        #expect(kinds.count >= 4)
        var total = 0
        for kind in kinds {
            let loaded = try #require(try store.read(kind))
            #expect(TaskFileEncoder.encode(loaded.file) == loaded.bytes, "\(kind.relativePath) is not canonical")
            total += loaded.file.tasks.count
        }
        #expect(total >= 35)
    }
}
