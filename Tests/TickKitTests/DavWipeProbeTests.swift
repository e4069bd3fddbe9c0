import Foundation
import Testing
@testable import TickKit

/// The probe of a wiped calendar (``DavSync/probeWiped(_:)``) holds the
/// calendar's items and vdirsyncer's record of it aside while vdirsyncer
/// fetches; a sync that stopped in between puts both back first.
@Suite struct DavWipeProbeTests {
    static let t0 = Timestamp.parse("2026-11-21T09:00:00Z")!

    @Test func whatAStoppedProbeHeldComesBackAndAFetchedItemStays() throws {
        let f = try DavBridgeTests.Fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let sync = DavSync(bridge: f.bridge(at: Self.t0), configPath: f.dir + "/vdirsyncer.conf", environment: [:], clock: { Self.t0 })
        let fm = FileManager.default
        func write(_ text: String, _ path: String) throws {
            try fm.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        }
        func read(_ path: String) -> String? { fm.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) } }
        // As a probe left them when the sync was killed: two items held, one
        // of them fetched meanwhile under the same name, and the record.
        try write("held a", sync.probePath + "/inbox/a.ics")
        try write("held b", sync.probePath + "/inbox/b.ics")
        try write("fetched b", f.vdir + "/inbox/b.ics")
        try write("record", sync.probeStatusPath + "/inbox.items")
        try write("probe's own record", sync.vdirsyncer.statusDirectory + "/inbox.items")
        try sync.recoverProbes()
        #expect(read(f.vdir + "/inbox/a.ics") == "held a")
        #expect(read(f.vdir + "/inbox/b.ics") == "fetched b", "the fetched copy stays; the join merges it by change time")
        #expect(read(sync.vdirsyncer.statusDirectory + "/inbox.items") == "record", "vdirsyncer's record as it was before the probe")
        #expect(!fm.fileExists(atPath: sync.probePath) && !fm.fileExists(atPath: sync.probeStatusPath))
        // Nothing held: nothing to do.
        try sync.recoverProbes()
        #expect(read(f.vdir + "/inbox/a.ics") == "held a")
    }

    /// A synced store whose inbox items a probe held when the sync was
    /// killed, with vdirsyncer's record of the inbox kept aside.
    static func stoppedProbe() throws -> (DavSyncUndoTests.Fixture, DavSync) {
        let f = try DavSyncUndoTests.synced()
        let now = DavSyncUndoTests.at(2)
        let bridge = DavBridge(store: Store(location: f.location, clock: { now }), settings: f.settings, root: f.dav, now: now, timeZone: DavSyncUndoTests.utc)
        var sync = DavSync(bridge: bridge, configPath: f.configPath, environment: [:], clock: { now })
        sync.backoff = []
        let fm = FileManager.default
        try fm.createDirectory(atPath: sync.probePath + "/inbox", withIntermediateDirectories: true)
        for name in bridge.vdirItems("inbox").keys {
            try fm.moveItem(atPath: f.vdir + "/inbox/" + name, toPath: sync.probePath + "/inbox/" + name)
        }
        try fm.createDirectory(atPath: sync.probeStatusPath, withIntermediateDirectories: true)
        try Data("the record before the probe".utf8).write(to: URL(fileURLWithPath: sync.probeStatusPath + "/inbox.items"))
        return (f, sync)
    }

    @Test func theNextSyncAfterAStoppedProbeDeletesNothing() throws {
        let (f, sync) = try Self.stoppedProbe()
        let report = try sync.run()
        #expect(report.deleted == 0, "\(report)")
        #expect(try f.tasks().count == 3)
        #expect(FileManager.default.contents(atPath: sync.vdirsyncer.statusDirectory + "/inbox.items").map { String(decoding: $0, as: UTF8.self) } == "the record before the probe")
    }

    @Test func aRestoreAfterAStoppedProbeForgetsTheRecordAndDeletesNothing() throws {
        let (f, sync) = try Self.stoppedProbe()
        let report = try sync.restore(["inbox"])
        #expect(report.deleted == 0, "\(report)")
        #expect(try f.tasks().count == 3)
        // The restore's fresh start stands: the held record did not come back over it.
        #expect(!FileManager.default.fileExists(atPath: sync.vdirsyncer.statusDirectory + "/inbox.items"))
        #expect(!FileManager.default.fileExists(atPath: sync.probePath))
    }
}
