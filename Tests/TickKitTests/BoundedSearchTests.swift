import Foundation
import Testing
@testable import TickKit

/// `search --limit N` bounded from the trigram table (``BoundedSearch``)
/// against scoring every candidate (``TaskIndex/rankedSearch``) and against
/// the full ranking's first N: the same tasks in the same order, over
/// random stores large enough that levels are walked, not fetched whole.
@Suite struct BoundedSearchTests {
    let now = Date(timeIntervalSince1970: 1_795_251_600)   // 2026-11-21T09:00:00Z

    /// "invent envoy voice" holds every trigram of "invoice": a bound the
    /// trigram table gives that the exact score does not reach.
    static let words = ["invoice", "bank", "taxes", "design", "budget", "call", "milk", "report", "plan", "Invoices", "MÄRZ", "café", "日本語",
                        "invent", "envoy", "voice"]

    /// A store of `count` tasks in the inbox and three lists: titles, tags
    /// and notes drawn from a small vocabulary (so common words have
    /// thousands of hits and many ties), every state, some waiting, and a
    /// few tasks copied into a second file.
    func randomStore(seed: UInt64, count: Int) throws -> (Store, String) {
        var rng = MergeRandom(seed: seed)
        let dir = NSTemporaryDirectory() + "tick-bounded-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir + "/store/lists", withIntermediateDirectories: true)
        let names = ["inbox", "Alpha", "Zulu", "Middle"]
        var files: [[[String: Any]]] = Array(repeating: [], count: names.count)
        func text(_ n: Int) -> String { (0..<n).map { _ in rng.pick(Self.words) }.joined(separator: " ") }
        for i in 0..<count {
            var task: [String: Any] = [
                "id": rng.uuid().uuidString.lowercased(), "title": text(1 + rng.int(3)),
                "state": rng.pick(["open", "open", "open", "active", "done"]),
                "createdAt": "2026-11-01T10:00:00Z", "modifiedAt": "2026-11-02T10:00:00Z",
            ]
            if task["state"] as? String == "done" { task["completedAt"] = "2026-11-03T10:00:00Z" }
            if rng.chance(30) { task["tags"] = Array(Set((0..<(1 + rng.int(2))).map { _ in rng.pick(["bank", "plan", "home", "taxes", "x"]) })).sorted() }
            if rng.chance(30) { task["notes"] = rng.chance(20) ? "invent envoy voice" : text(1 + rng.int(4)) }
            if rng.chance(5) { task["wait"] = "2027-01-01" }
            let file = rng.int(names.count)
            files[file].append(task)
            if i % 97 == 0 { files[(file + 1) % names.count].append(task) }
        }
        for (i, name) in names.enumerated() {
            var object: [String: Any] = ["version": 1, "tasks": files[i]]
            let path: String
            if i == 0 {
                path = dir + "/store/inbox.json"
            } else {
                object["id"] = UUID(name: "list-\(name)").lowercased
                object["name"] = name
                path = dir + "/store/lists/\(name.lowercased()).json"
            }
            try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
        }
        let location = StoreLocation(root: dir + "/store", stateDirectory: dir + "/state", cacheDirectory: dir + "/cache")
        return (Store(location: location), dir)
    }

    @Test("the bounded search gives the hits and order of scoring every candidate", arguments: [UInt64(1), 2, 3])
    func sameHitsAndOrder(seed: UInt64) throws {
        let (store, dir) = try randomStore(seed: seed, count: 3000)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let clock = now.addingTimeInterval(3600)
        let index = try TaskIndex.open(store: store, now: { clock })
        try index.refresh()
        let query = TaskQuery(now: now, timeZone: .utc)
        var rng = MergeRandom(seed: seed &+ 100)
        var queries = ["invoice", "inv", "bank", "taxes design", "café", "märz", "日本語", "invoice*", "bud*", "\"invoice bank\"", "call milk report", "nothing here"]
        for _ in 0..<12 { queries.append((0..<(1 + rng.int(2))).map { _ in String(rng.pick(Self.words).lowercased().prefix(3 + rng.int(5))) }.joined(separator: " ")) }
        let filters: [(TaskFilter, FileKind?, TaskQuery?)] = [
            (TaskFilter(states: Set(TaskState.allCases)), nil, nil),
            (TaskFilter(), nil, query),
            (TaskFilter(tags: ["bank"]), nil, query),
            (TaskFilter(states: [.done]), .list(slug: "zulu"), nil),
        ]
        for text in queries {
            let search = try SearchQuery(text)
            for (filter, list, q) in filters {
                let full = try index.search(search, filter: filter, list: list, query: q)
                for limit in [1, 7, 10, 60, 400] {
                    let bounded = try index.search(search, filter: filter, list: list, limit: limit, query: q)
                    let (clause, args) = index.searchClause(search, filter: filter, list: list, query: q)
                    let scored = try index.db.read { try index.rankedSearch(index.db, search, where: clause, arguments: args, limit: limit) }
                    let got = bounded.map(\.task.id)
                    for (what, want) in [("scoring every candidate", scored.map(\.task.id)), ("the full ranking", Array(full.prefix(limit)).map(\.task.id))] {
                        let at = Array(zip(got, want)).firstIndex { $0.0 != $0.1 } ?? min(got.count, want.count)
                        #expect(got == want, "seed \(seed) \"\(text)\" \(filter) limit \(limit): \(got.count) hits, \(what) \(want.count); first difference at \(at)")
                    }
                }
            }
        }
    }
}
