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
}
