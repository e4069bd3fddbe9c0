import Foundation
import Testing
@testable import TickKit

/// `tick archive`'s write, in process (issue 28).
@Suite struct ArchiveRunTests {
    let setup = TaskAddingTests()

    @Test func archivesWhatWasAskedAboutAndStopsWhenTheStoreChangedMeanwhile() throws {
        let f = try setup.fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let added = try setup.adding(f).add([(nil, ["old"]), (nil, ["other", "list:Work"]), (nil, ["open"])]).added
        let mutation = TaskMutation(store: f.store, session: f.session, now: setup.now)
        _ = try mutation.complete([.id(added[0].task.id)], timeZone: setup.utc)
        let run = ArchiveRun(store: f.store, before: setup.now.addingTimeInterval(86_400), timeZone: setup.utc,
                             now: setup.now.addingTimeInterval(86_400 * 2))
        let asked = try run.plan()
        #expect(asked.moves.map(\.task.title) == ["old"])
        // Another task is done while the user is asked: nothing is archived.
        _ = try mutation.complete([.id(added[1].task.id)], timeZone: setup.utc)
        #expect(throws: ArchiveError.changedWhileAsking) { _ = try run.run(asked: asked) }
        #expect(try setup.titles(f.store, .inbox) == ["old", "open"])
        let done = try run.run(asked: try run.plan())
        #expect(Set(done.moves.map(\.task.title)) == ["old", "other"])
        #expect(try setup.titles(f.store, .inbox) == ["open"])
        #expect(try setup.titles(f.store, .list(slug: "work")) == [])
        #expect(try f.store.read(.archive(year: 2026))?.file.tasks.count == 2)
        #expect(try run.run().isEmpty, "nothing left to archive")
    }
}
