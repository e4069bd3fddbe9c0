import Foundation
import Testing
@testable import TickKit

/// `tick import`'s write, in process (issue 28).
@Suite struct ImportRunTests {
    let setup = TaskAddingTests()

    func files(_ titles: [String], list: String) -> [TaskFile] {
        var file = TaskFile.empty(.list(slug: list.lowercased()), name: list, now: setup.now)
        file.tasks = titles.map { TaskItem(id: UUID(), title: $0, createdAt: setup.now, modifiedAt: setup.now) }
        return [file]
    }

    @Test func aDryRunPlansAndWritesNothingThenTheImportWritesANewList() throws {
        let f = try setup.fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let run = ImportRun(store: f.store, now: setup.now, timeZone: setup.utc)
        var dry = files(["one", "two"], list: "Garden")
        let planned = try run.run(&dry, from: .json, apply: false)
        #expect(planned.addedCount == 2)
        #expect(try f.store.read(.list(slug: "garden")) == nil, "a dry run writes nothing")
        var real = files(["one", "two"], list: "Garden")
        var asked: ImportPlan?
        let plan = try run.run(&real, from: .json, apply: true) { plan in
            asked = plan
            return nil
        }
        #expect(plan.addedCount == 2 && asked?.addedCount == 2)
        #expect(try setup.titles(f.store, .list(slug: "garden")) == ["one", "two"])
    }

    @Test func aWriteFailureSaysWhetherAnythingWasImported() {
        #expect(ImportWriteError(path: "lists/a.json", reason: "disk full", undone: true).errorDescription
            == "cannot write lists/a.json: disk full; nothing was imported (no store file was changed)")
        #expect(ImportWriteError(path: "lists/a.json", reason: "x", undone: false).kind == .failure)
    }
}
