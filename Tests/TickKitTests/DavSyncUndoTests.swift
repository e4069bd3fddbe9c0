import Foundation
import Testing
@testable import TickKit

/// Issue 44: what a CalDAV sync changes in the store is journaled for `tick
/// undo` by the sync itself (``DavSync/run(accepting:discovering:waiting:)``),
/// one entry per run, whoever runs it: `tick dav sync` once, `tick watch`
/// again and again with one journal session. vdirsyncer is a script here:
/// its `sync` brings the "phone's" deletes down into the vdir, as the real
/// one would, after tick confirmed what it uploaded.
@Suite struct DavSyncUndoTests {
    static let t0 = Timestamp.parse("2026-11-21T09:00:00Z")!
    static func at(_ minutes: Double) -> Date { t0.addingTimeInterval(minutes * 60) }
    static let utc = Zone(named: "UTC")!

    final class Fixture {
        let dir: String
        let location: StoreLocation
        var dav: String { dir + "/dav" }
        var vdir: String { dav + "/vdir" }
        var configPath: String { dir + "/vdirsyncer.conf" }
        /// The phone's deletes the next `vdirsyncer sync` brings down: vdir paths, one a line.
        var phoneQueue: String { dir + "/phone" }
        var vdirsyncer: String { dir + "/vdirsyncer" }
        var settings: DavSettings {
            var s = DavSettings()
            s.vdirsyncer = vdirsyncer
            return s
        }
        var journal: UndoJournal { UndoJournal(location: location) }

        init() throws {
            dir = NSTemporaryDirectory() + "tick-davundo-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: dir + "/store/lists", withIntermediateDirectories: true)
            location = StoreLocation(root: dir + "/store", stateDirectory: dir + "/state", cacheDirectory: dir + "/cache")
            try Data("# vdirsyncer is a script in these tests\n".utf8).write(to: URL(fileURLWithPath: configPath))
            // Called as `vdirsyncer -c CONFIG sync|discover|metasync …`; every run succeeds.
            let script = """
            #!/bin/sh
            if [ "$3" = sync ] && [ -f '\(phoneQueue)' ]; then
              while IFS= read -r path; do rm -f "$path"; done < '\(phoneQueue)'
              rm -f '\(phoneQueue)'
            fi
            exit 0

            """
            try Data(script.utf8).write(to: URL(fileURLWithPath: vdirsyncer))
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: vdirsyncer)
        }

        deinit { try? FileManager.default.removeItem(atPath: dir) }

        /// One sync at `now` through `store` (its journal session, if any, is the sync's).
        func sync(_ store: Store, at now: Date) throws -> DavReport {
            let bridge = DavBridge(store: store.with(clock: { now }), settings: settings, root: dav, now: now, timeZone: DavSyncUndoTests.utc)
            var sync = DavSync(bridge: bridge, configPath: configPath, environment: [:], clock: { now })
            sync.backoff = []
            return try sync.run()
        }

        /// A store whose writes go into one journal session named `command`,
        /// as `tick watch` keeps one for all its syncs.
        func journaledStore(_ command: String) -> Store {
            return Store(location: location, journal: JournalSession(journal: journal, command: command, now: DavSyncUndoTests.t0))
        }

        func entries() throws -> [JournalEntry] { try journal.read().entries }

        func tasks() throws -> [TaskItem] { try Store(location: location).read(.inbox)?.file.tasks ?? [] }

        /// The vdir item of a task (its file name in the inbox collection).
        func itemName(of id: UUID) -> String? {
            let dir = vdir + "/inbox"
            return ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).first { name in
                name.hasSuffix(".ics") && (FileManager.default.contents(atPath: dir + "/" + name).map {
                    String(decoding: $0, as: UTF8.self).contains("UID:" + id.lowercased)
                } ?? false)
            }
        }

        /// The phone deletes a task: its item goes from the vdir at the next `vdirsyncer sync`.
        func phoneDeletes(_ id: UUID) throws {
            let name = try #require(itemName(of: id), "no item for \(id)")
            let queued = FileManager.default.contents(atPath: phoneQueue) ?? Data()
            try (queued + Data((vdir + "/inbox/" + name + "\n").utf8)).write(to: URL(fileURLWithPath: phoneQueue))
        }
    }

    static func task(_ title: String) -> TaskItem {
        TaskItem(id: UUID(name: "dav-undo-test:" + title), title: title, createdAt: t0, modifiedAt: t0)
    }

    static let bank = task("Call the bank"), milk = task("Buy milk"), plants = task("Water plants")

    /// A store with three inbox tasks, synced once (their items are in the vdir).
    static func synced() throws -> Fixture {
        let f = try Fixture()
        try Store(location: f.location, clock: { t0 }).withLock { writer in
            try writer.update(.inbox, create: { TaskFile.empty(.inbox, name: nil, now: t0) }) { $0.tasks = [bank, milk, plants] }
        }
        _ = try f.sync(Store(location: f.location), at: at(1))
        for t in [bank, milk, plants] { #expect(f.itemName(of: t.id) != nil, "\(t.title) was not written to the vdir") }
        return f
    }

    @Test("each sync that changed the store is one `dav sync` entry of its own, with one long-lived session; a sync that changed nothing adds none")
    func oneEntryPerSync() throws {
        let f = try Self.synced()
        let watcher = f.journaledStore("dav sync")
        // Nothing changed on either side: no entry.
        _ = try f.sync(watcher, at: Self.at(2))
        let none = try f.entries()
        #expect(none.isEmpty, "\(none)")

        try f.phoneDeletes(Self.bank.id)
        let first = try f.sync(watcher, at: Self.at(3))
        #expect(first.deleted == 1, "\(first)")
        #expect(try f.tasks().map(\.id) == [Self.milk.id, Self.plants.id])
        var entries = try f.entries()
        #expect(entries.count == 1 && entries.first?.command == "dav sync", "\(entries)")
        #expect(entries.first?.taskIDs == [Self.bank.id])
        #expect(entries.first?.files.map(\.path) == ["inbox.json"])
        #expect(entries.first?.files.first?.tasks.first.map { $0.before != nil && $0.after == nil } == true, "the task's removal, with its image")
        #expect(entries.first?.date == Self.at(3))

        // Again nothing: still one entry.
        _ = try f.sync(watcher, at: Self.at(4))
        #expect(try f.entries().count == 1)

        // The next change, in the same session: an entry of its own (not a rewrite of the first).
        try f.phoneDeletes(Self.milk.id)
        _ = try f.sync(watcher, at: Self.at(5))
        entries = try f.entries()
        #expect(entries.count == 2, "\(entries)")
        #expect(Set(entries.map(\.id)).count == 2)
        #expect(entries.map(\.taskIDs) == [[Self.bank.id], [Self.milk.id]])
        #expect(UndoJournal.undoable(entries).map(\.taskIDs) == [[Self.milk.id], [Self.bank.id]], "newest first")
    }

    @Test("tick undo reverts a sync's delete, and the next sync sends the task again")
    func undoBringsItBack() throws {
        let f = try Self.synced()
        let watcher = f.journaledStore("dav sync")
        try f.phoneDeletes(Self.bank.id)
        _ = try f.sync(watcher, at: Self.at(3))
        #expect(!(try f.tasks().contains { $0.id == Self.bank.id }))
        #expect(f.itemName(of: Self.bank.id) == nil)

        let undoSession = JournalSession(journal: f.journal, command: "undo", now: Self.at(4))
        let outcome = try UndoRun(store: Store(location: f.location, journal: undoSession, clock: { Self.at(4) }), force: false)
            .undo(count: 1)
        #expect(outcome.failure == nil, "\(String(describing: outcome.failure))")
        #expect(outcome.undone.map(\.command) == ["dav sync"])
        #expect(try f.tasks().map(\.id) == [Self.bank.id, Self.milk.id, Self.plants.id])
        #expect(UndoJournal.undoable(try f.entries()).isEmpty)

        // Restored after the delete was seen: a later change, sent again; that sync changes nothing in the store.
        let again = try f.sync(watcher, at: Self.at(5))
        #expect(f.itemName(of: Self.bank.id) != nil, "\(again)")
        let after = try f.entries()
        #expect(after.count == 2, "the sync that sent it back changed nothing in the store: \(after.map(\.command))")
    }

    @Test("a store without a journal session records nothing (tick dav setup, tests)")
    func noSessionNoEntry() throws {
        let f = try Self.synced()
        try f.phoneDeletes(Self.bank.id)
        _ = try f.sync(Store(location: f.location), at: Self.at(3))
        #expect(!(try f.tasks().contains { $0.id == Self.bank.id }))
        #expect(try f.entries().isEmpty)
    }
}
