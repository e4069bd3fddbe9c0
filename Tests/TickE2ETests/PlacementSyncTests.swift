import Foundation
import Testing

/// Issue 33, classes 2–4, through the real CLI: two or three stores whose
/// files are copied between them as Syncthing does (a file the receiver does
/// not have arrives as it is; one it changed too arrives as a
/// `NAME.sync-conflict-….json` copy, merged by `tick resolve`).
@Suite struct PlacementSyncTests {
    static let work = "lists/work.json"
    static let home = "lists/home.json"
    static let archive = "archive/2026.json"

    /// The store's task files (inbox, lists, archive), not conflict copies.
    static func taskFiles(_ s: Sandbox) -> [String] {
        s.storeFiles().filter { $0.hasSuffix(".json") && !$0.contains(".sync-conflict-") && !$0.hasPrefix(".") }
    }

    /// Copies every task file of `from` that differs into `to` (a conflict
    /// copy when `to` has its own version), then runs `tick resolve` there.
    static func deliver(_ from: Sandbox, to: Sandbox, now: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for rel in taskFiles(from) {
            let theirs = try from.text(rel)
            if !to.exists(rel) {
                try to.write(rel, theirs)
            } else if try to.text(rel) != theirs {
                let copy = String(rel.dropLast(".json".count)) + ".sync-conflict-20261127-100000-ABCDEFG.json"
                try to.write(copy, theirs)
            }
        }
        let r = try to.tick("resolve", now: now)
        #expect(r.status == 0, "\(r)", sourceLocation: sourceLocation)
        #expect(!to.storeFiles().contains { $0.contains(".sync-conflict-") }, sourceLocation: sourceLocation)
    }

    /// Every task file of the stores is the same, byte for byte.
    static func expectSame(_ stores: [Sandbox], sourceLocation: SourceLocation = #_sourceLocation) throws {
        guard let first = stores.first else { return }
        for other in stores.dropFirst() {
            #expect(taskFiles(other) == taskFiles(first), sourceLocation: sourceLocation)
            for rel in taskFiles(first) where other.exists(rel) {
                #expect(try other.text(rel) == first.text(rel), "\(rel) differs", sourceLocation: sourceLocation)
            }
        }
    }

    /// The files of `s` holding the task `id`.
    static func places(_ id: String, in s: Sandbox) throws -> [String] {
        try taskFiles(s).filter { rel in try s.tasks(rel).contains { $0.string("id") == id } }
    }

    static func task(_ id: String, in s: Sandbox, _ rel: String) throws -> [String: Any]? {
        try s.tasks(rel).first { $0.string("id") == id }
    }

    /// A store with a daily task in Work, completed at 09:00 (its next occurrence made), and a copy of it.
    static func completedSeries() throws -> (a: Sandbox, b: Sandbox, series: String, next: String) {
        let a = try Sandbox(), b = try Sandbox()
        try a.ok("lists", "add", "Work", now: "2026-11-27T08:00:00Z")
        try a.add("Water plants", "list:Work", "repeat:daily", "due:2026-11-27", now: "2026-11-27T08:00:00Z")
        let series = try #require(try a.tasks(work).first?.string("id"))
        try a.ok("done", String(series.prefix(8)), now: "2026-11-27T09:00:00Z")
        let next = try #require(try a.tasks(work).first { $0.string("id") != series }?.string("id"))
        try deliver(a, to: b, now: "2026-11-27T09:01:00Z")
        return (a, b, series, next)
    }

    @Test("a repeat's next occurrence completed and archived on one machine stays archived when the series is completed again on the other")
    func reCompletionKeepsTheArchivedOccurrence() throws {
        let (a, b, series, next) = try Self.completedSeries()
        try a.ok("reopen", String(series.prefix(8)), now: "2026-11-27T09:10:00Z")
        #expect(try Self.places(next, in: a) == [], "the untouched occurrence is taken back")
        try b.ok("done", String(next.prefix(8)), now: "2026-11-27T09:20:00Z")
        #expect(try b.tick("archive", "--before", "2026-11-28", "--yes", now: "2026-11-27T09:30:00Z").status == 0)
        try a.ok("done", String(series.prefix(8)), now: "2026-11-27T09:40:00Z")
        try Self.deliver(b, to: a, now: "2026-11-27T09:50:00Z")
        try Self.deliver(a, to: b, now: "2026-11-27T09:51:00Z")
        for s in [a, b] {
            #expect(try Self.places(next, in: s) == [Self.archive], "one id, one file: the archive")
            let n = try Self.task(next, in: s, Self.archive)
            #expect(n?.string("state") == "done" && n?.string("completedAt") == "2026-11-27T09:20:00Z")
        }
        try Self.expectSame([a, b])
    }

    @Test("completing a series again where its next occurrence was archived makes no list copy of it, even before a resolve")
    func reCompletionAfterTheArchiveArrived() throws {
        let (a, b, series, next) = try Self.completedSeries()
        try a.ok("reopen", String(series.prefix(8)), now: "2026-11-27T09:10:00Z")
        try b.ok("done", String(next.prefix(8)), now: "2026-11-27T09:20:00Z")
        #expect(try b.tick("archive", "--before", "2026-11-28", "--yes", now: "2026-11-27T09:30:00Z").status == 0)
        try Self.deliver(b, to: a, now: "2026-11-27T09:35:00Z")
        #expect(try Self.task(series, in: a, Self.work)?.string("state") == "open", "the reopen is later than B's archived completion")
        try a.ok("done", String(series.prefix(8)), now: "2026-11-27T09:40:00Z")
        #expect(try Self.places(next, in: a) == [Self.archive], "one id, one file, without waiting for a resolve")
        try Self.deliver(a, to: b, now: "2026-11-27T09:45:00Z")
        try Self.expectSame([a, b])
    }

    @Test("a reopen takes back the untouched next occurrence on the other machine too; completing again makes the same one")
    func reopenReachesTheOtherMachine() throws {
        let (a, b, series, next) = try Self.completedSeries()
        let made = try #require(try Self.task(next, in: a, Self.work))
        try a.ok("reopen", String(series.prefix(8)), now: "2026-11-27T09:10:00Z")
        #expect(!(try a.text(Self.work)).contains("\"deleted\""), "no tombstone")
        try b.add("Other", "list:Work", now: "2026-11-27T09:05:00Z")
        try Self.deliver(a, to: b, now: "2026-11-27T09:20:00Z")
        try Self.deliver(b, to: a, now: "2026-11-27T09:21:00Z")
        for s in [a, b] {
            #expect(try Self.places(next, in: s) == [])
            #expect(try Self.task(series, in: s, Self.work)?.string("state") == "open")
        }
        try Self.expectSame([a, b])
        try a.ok("done", String(series.prefix(8)), now: "2026-11-27T09:30:00Z")
        let again = try #require(try Self.task(next, in: a, Self.work))
        #expect(again.string("createdAt") == made.string("createdAt") && again.string("modifiedAt") == made.string("modifiedAt"))
        #expect(again.string("createdAt") == "2026-11-27T08:00:00Z", "the series' creation")
    }

    @Test("a repeat's next occurrence deleted on one machine does not come back when the series is completed again on the other")
    func reCompletionKeepsTheDeletion() throws {
        let (a, b, series, next) = try Self.completedSeries()
        try a.ok("reopen", String(series.prefix(8)), now: "2026-11-27T09:10:00Z")
        try b.ok("rm", String(next.prefix(8)), "--yes", now: "2026-11-27T09:20:00Z")
        try a.ok("done", String(series.prefix(8)), now: "2026-11-27T09:40:00Z")
        try Self.deliver(b, to: a, now: "2026-11-27T09:50:00Z")
        try Self.deliver(a, to: b, now: "2026-11-27T09:51:00Z")
        for s in [a, b] {
            #expect(try Self.places(next, in: s) == [], "the deletion stands")
            #expect(try Self.task(series, in: s, Self.work)?.string("state") == "done")
        }
        // Reopening and completing the series again after the deletion was seen: still gone.
        try a.ok("reopen", String(series.prefix(8)), now: "2026-11-27T10:00:00Z")
        try a.ok("done", String(series.prefix(8)), now: "2026-11-27T10:10:00Z")
        #expect(try Self.places(next, in: a) == [])
        try Self.deliver(a, to: b, now: "2026-11-27T10:11:00Z")
        try Self.expectSame([a, b])
    }

    @Test("a task moved on C, archived on A and reopened on B goes back to the list C placed it in")
    func reopenedAfterArchiveGoesToTheListPlacedLast() throws {
        let a = try Sandbox(), b = try Sandbox(), c = try Sandbox()
        try a.ok("lists", "add", "Work", now: "2026-11-27T08:00:00Z")
        try a.ok("lists", "add", "Home", now: "2026-11-27T08:00:00Z")
        try a.add("Pay rent", "list:Work", now: "2026-11-27T08:00:00Z")
        let id = try #require(try a.tasks(Self.work).first?.string("id"))
        try a.ok("done", String(id.prefix(8)), now: "2026-11-27T08:30:00Z")
        try Self.deliver(a, to: b, now: "2026-11-27T08:31:00Z")
        try Self.deliver(a, to: c, now: "2026-11-27T08:31:00Z")
        try c.ok("mv", String(id.prefix(8)), "Home", now: "2026-11-27T09:00:00Z")
        #expect(try a.tick("archive", "--before", "2026-11-28", "--yes", now: "2026-11-27T10:00:00Z").status == 0)
        try Self.deliver(c, to: a, now: "2026-11-27T10:01:00Z")
        try Self.deliver(a, to: c, now: "2026-11-27T10:02:00Z")
        #expect(try Self.places(id, in: a) == [Self.archive])
        #expect(try Self.task(id, in: a, Self.archive)?.string("archivedFrom") == Self.home, "the list it was in last")
        try b.ok("reopen", String(id.prefix(8)), now: "2026-11-27T11:00:00Z")
        try Self.deliver(b, to: a, now: "2026-11-27T11:01:00Z")
        try Self.deliver(a, to: b, now: "2026-11-27T11:02:00Z")
        try Self.deliver(a, to: c, now: "2026-11-27T11:03:00Z")
        for s in [a, b, c] {
            #expect(try Self.places(id, in: s) == [Self.home], "back in the list C moved it to, not its original list")
            let t = try Self.task(id, in: s, Self.home)
            #expect(t?.string("state") == "open" && t?.string("archivedFrom") == nil)
        }
        try Self.expectSame([a, b, c])
    }

    @Test("a move stamped after a deletion on another machine keeps the task (10:03:07 vs 10:03:00)")
    func aLaterMoveBeatsAnEarlierTombstone() throws {
        let a = try Sandbox(), c = try Sandbox()
        try a.ok("lists", "add", "Work", now: "2026-11-27T10:00:00Z")
        try a.ok("lists", "add", "Home", now: "2026-11-27T10:00:00Z")
        try a.add("Call mom", "list:Work", now: "2026-11-27T10:00:00Z")
        let id = try #require(try a.tasks(Self.work).first?.string("id"))
        try Self.deliver(a, to: c, now: "2026-11-27T10:01:00Z")
        // C moves it back and forth within one second (TICK_NOW pinned): the
        // `list` stamps run one second apart, 10:03:00 to 10:03:07; it ends in Work.
        for target in ["Home", "Work", "Home", "Work", "Home", "Work", "Home", "Work"] {
            try c.ok("mv", String(id.prefix(8)), target, now: "2026-11-27T10:03:00Z")
        }
        let moved = try #require(try Self.task(id, in: c, Self.work))
        #expect((moved["changed"] as? [String: Any])?["list"] as? String == "2026-11-27T10:03:07Z")
        try a.ok("rm", String(id.prefix(8)), "--yes", now: "2026-11-27T10:03:00Z")
        try Self.deliver(c, to: a, now: "2026-11-27T10:04:00Z")
        try Self.deliver(a, to: c, now: "2026-11-27T10:05:00Z")
        for s in [a, c] {
            #expect(try Self.places(id, in: s) == [Self.work], "the later move keeps it")
        }
        try Self.expectSame([a, c])
    }

    @Test("the same through git: tick sync on both machines, the merge driver keeps the task moved after the deletion")
    func aLaterMoveBeatsAnEarlierTombstoneThroughGit() throws {
        let m = try GitMachines { s in
            try s.ok("lists", "add", "Work", now: "2026-11-27T10:00:00Z")
            try s.ok("lists", "add", "Home", now: "2026-11-27T10:00:00Z")
            try s.add("Call mom", "list:Work", now: "2026-11-27T10:00:00Z")
        }
        let id = try #require(try m.a.tasks(Self.work).first?.string("id"))
        for target in ["Home", "Work", "Home", "Work", "Home", "Work", "Home", "Work"] {
            try m.b.ok("mv", String(id.prefix(8)), target, now: "2026-11-27T10:03:00Z")
        }
        try m.a.ok("rm", String(id.prefix(8)), "--yes", now: "2026-11-27T10:03:00Z")
        for (s, now) in [(m.b, "10:04"), (m.a, "10:05"), (m.b, "10:06")] {
            let r = try s.tick("sync", now: "2026-11-27T\(now):00Z")
            #expect(r.status == 0, "\(r)")
        }
        for s in [m.a, m.b] {
            #expect(try Self.places(id, in: s) == [Self.work], "the later move keeps it")
            #expect(!(try s.text(Self.work)).contains("<<<<<<<"))
        }
        try Self.expectSame([m.a, m.b])
    }
}
