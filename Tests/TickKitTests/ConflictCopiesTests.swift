import Foundation
import Testing
@testable import TickKit

/// Syncthing conflict copy names: `NAME.sync-conflict-YYYYMMDD-HHMMSS-DEVICE.json`.
@Suite struct ConflictCopiesTests {
    @Test("Syncthing's exact format gives the original name, date, time and device")
    func parsesSyncthingName() throws {
        let n = try #require(SyncConflictName(fileName: "notes.sync-conflict-20261121-093512-ABCDEF7.json"))
        #expect(n.original == "notes.json")
        #expect(n.date == "20261121")
        #expect(n.time == "093512")
        #expect(n.device == "ABCDEF7")
        #expect(n.fileName == "notes.sync-conflict-20261121-093512-ABCDEF7.json")
        // Names with dots, dashes and Unicode, and every base32 character.
        #expect(SyncConflictName(fileName: "café-receipts-märz.sync-conflict-20260101-000000-A234567.json")?.original == "café-receipts-märz.json")
        #expect(SyncConflictName(fileName: "q3.plans.sync-conflict-20261231-235959-ZZZZZZZ.json")?.original == "q3.plans.json")
        #expect(SyncConflictName(fileName: "inbox.sync-conflict-20261121-101500-ABCDEF2.json")?.original == "inbox.json")
        // Docs/FORMAT.md once used "ABCDEF1", but 1 is not a base32 digit: Syncthing never writes it.
        #expect(SyncConflictName(fileName: "work.sync-conflict-20261121-101500-ABCDEF1.json") == nil)
    }

    @Test("near misses are not conflict copies", arguments: [
        "notes.json",
        "notes.sync-conflict-20261121-093512-ABCDEF7.txt",        // not .json
        "notes.sync-conflict-20261121-093512-ABCDEF7.json.tmp",
        "notes.sync-conflict-20261121-093512-abcdef7.json",       // lowercase device
        "notes.sync-conflict-20261121-093512-ABCDEF.json",        // 6-char device
        "notes.sync-conflict-20261121-093512-ABCDEF78.json",      // 8-char device
        "notes.sync-conflict-20261121-093512-ABCDEF8.json",       // 8 is not base32
        "notes.sync-conflict-20261121-093512-ABCDE01.json",       // 0 and 1 are not base32
        "notes.sync-conflict-2026112-093512-ABCDEF7.json",        // 7-digit date
        "notes.sync-conflict-20261121-93512-ABCDEF7.json",        // 5-digit time
        "notes.sync-conflict-20261321-093512-ABCDEF7.json",       // month 13
        "notes.sync-conflict-20261100-093512-ABCDEF7.json",       // day 0
        "notes.sync-conflict-20261121-243512-ABCDEF7.json",       // hour 24
        "notes.sync-conflict-20261121_093512-ABCDEF7.json",       // wrong separator
        "notes.sync-conflict-20261121-093512_ABCDEF7.json",
        "notes-sync-conflict-20261121-093512-ABCDEF7.json",       // no dot before the marker
        "notes.sync_conflict-20261121-093512-ABCDEF7.json",
        ".sync-conflict-20261121-093512-ABCDEF7.json",            // no name
        ".notes.sync-conflict-20261121-093512-ABCDEF7.json",      // hidden
        "notes.sync-conflict-20261121-093512-ABCDEF7.sync-conflict-20261122-093512-ABCDEF7.json", // copy of a copy
        "lists/notes.sync-conflict-20261121-093512-ABCDEF7.json", // a path, not a name
        "notes.sync-conflict-20261121-093512-ABCDEF7-.json",
        "notes.sync-conflict-20261121-093512-.json",
    ])
    func rejectsNearMisses(_ name: String) {
        #expect(SyncConflictName(fileName: name) == nil, "\(name)")
    }

    @Test("the store finds copies of the inbox in its root and of lists in lists/, oldest first per file")
    func storeFindsCopies() throws {
        let dir = NSTemporaryDirectory() + "tick-conflicts-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let root = dir + "/store"
        try FileManager.default.createDirectory(atPath: root + "/lists", withIntermediateDirectories: true)
        let names = [
            "inbox.json", "inbox.sync-conflict-20261121-093512-ABCDEF7.json",
            "work.sync-conflict-20261121-093512-ABCDEF7.json",   // a list copy in the root: not a store file
            "lists/work.json",
            "lists/work.sync-conflict-20261122-080000-BBBBBBB.json",
            "lists/work.sync-conflict-20261121-093512-CCCCCCC.json",
            "lists/work.sync-conflict-20261121-093512-AAAAAAA.json",
            "lists/.hidden.sync-conflict-20261121-093512-AAAAAAA.json",
            "lists/home.sync-conflict-20261121-093512-abcdefg.json",
            "lists/home.json",
        ]
        for n in names { _ = FileManager.default.createFile(atPath: root + "/" + n, contents: Data("{}".utf8)) }
        let store = Store(location: StoreLocation(root: root, stateDirectory: dir + "/state", cacheDirectory: dir + "/cache"))
        let copies = store.conflictCopies()
        #expect(copies.map(\.relativePath) == [
            "inbox.sync-conflict-20261121-093512-ABCDEF7.json",
            "lists/work.sync-conflict-20261121-093512-AAAAAAA.json",
            "lists/work.sync-conflict-20261121-093512-CCCCCCC.json",
            "lists/work.sync-conflict-20261122-080000-BBBBBBB.json",
        ])
        #expect(copies.map(\.kind) == [.inbox, .list(slug: "work"), .list(slug: "work"), .list(slug: "work")])
        // Conflict copies are never store files themselves.
        #expect(try store.kinds() == [.inbox, .list(slug: "home"), .list(slug: "work")])
    }
}
