import Foundation
import Testing
@testable import TickKit

/// Shell completion's read-only view of the index answers what the files say.
@Suite struct CompletionIndexTests {
    let now = Timestamp.parse("2026-11-21T09:00:00Z")!

    /// A copy of SampleData in a temp dir, indexed (short ids assigned) and closed.
    func indexedSample() throws -> (Store, String) {
        let dir = NSTemporaryDirectory() + "tick-completion-\(UUID().uuidString)"
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: root.appendingPathComponent("SampleData").path, toPath: dir + "/store")
        let store = Store(location: StoreLocation(root: dir + "/store", stateDirectory: dir + "/state", cacheDirectory: dir + "/cache"))
        let clock = now.addingTimeInterval(3600)
        let index = try TaskIndex.open(store: store, now: { clock })
        try index.refresh()
        _ = try index.run(.list(nil), filter: TaskFilter(), query: TaskQuery(now: now, timeZone: Zone(named: "UTC")!))
        index.close()
        return (store, dir)
    }

    @Test func listsAndTagsAreThoseOfTheFiles() throws {
        let (store, dir) = try indexedSample()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let snapshot = try store.snapshot()
        let completion = try #require(CompletionIndex(location: store.location))
        let names = snapshot.lists.compactMap(\.name)
        #expect(!names.isEmpty)
        #expect(Set(completion.listNames(prefix: "")) == Set(names))
        // Any letter case of the prefix.
        let first = try #require(names.first)
        let byPrefix = completion.listNames(prefix: String(first.prefix(2)).uppercased())
        #expect(byPrefix.contains(first))
        #expect(byPrefix.allSatisfy { $0.lowercased().hasPrefix(first.prefix(2).lowercased()) })
        let tags = Set(snapshot.files.flatMap { $0.tasks.flatMap(\.tags) })
        #expect(tags.count > 3)
        #expect(completion.tags(prefix: "") == tags.sorted())
        for tag in tags {
            let prefix = String(tag.prefix(2))
            #expect(completion.tags(prefix: prefix) == tags.filter { $0.hasPrefix(prefix) }.sorted(), "prefix \(prefix)")
        }
        #expect(completion.tags(prefix: "zzz-none").isEmpty)
    }

    @Test func tasksAreThePendingOnesWithTheirShortIDs() throws {
        let (store, dir) = try indexedSample()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let snapshot = try store.snapshot()
        let completion = try #require(CompletionIndex(location: store.location))
        let all = completion.tasks(prefix: "", limit: 10_000)
        let pending = snapshot.files.flatMap(\.tasks).filter { $0.state != .done }
        #expect(all.count == pending.count)
        #expect(Set(all.map(\.title)) == Set(pending.map(\.title)))
        #expect(all.map(\.shortID) == all.map(\.shortID).sorted())
        #expect(completion.tasks(prefix: "", limit: 3).count == 3)
        let ones = completion.tasks(prefix: "1", limit: 10_000)
        #expect(!ones.isEmpty && ones.allSatisfy { String($0.shortID).hasPrefix("1") })
        #expect(completion.tasks(prefix: "x", limit: 10).isEmpty)
    }

    @Test func noIndexNoAnswerAndNothingCreated() throws {
        let dir = NSTemporaryDirectory() + "tick-completion-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let location = StoreLocation(root: dir + "/store", stateDirectory: dir + "/state", cacheDirectory: dir + "/cache")
        #expect(CompletionIndex(location: location) == nil)
        #expect(!FileManager.default.fileExists(atPath: dir))
    }
}
