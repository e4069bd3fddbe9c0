import Foundation
import Testing
@testable import TickKit

/// `tick merge-driver`, in process (issue 28): git's three versions merged
/// into OURS.
@Suite struct MergeDriverRunTests {
    let now = Timestamp.parse("2026-11-23T09:00:00Z")!

    func run(_ dir: String, path: String) -> MergeDriverRun {
        MergeDriverRun(base: "base.json", ours: "ours.json", theirs: "theirs.json", path: path, currentDirectory: dir,
                       temporaryDirectory: dir, environment: [:], fallbackDate: now, processID: 1)
    }

    func write(_ file: TaskFile, _ path: String) throws {
        try Data(TaskFileEncoder.encode(file)).write(to: URL(fileURLWithPath: path))
    }

    @Test func mergesTaskByTaskIntoOursAndNotesTheCounts() throws {
        let dir = NSTemporaryDirectory() + "tick-merge-driver-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let kind = FileKind.list(slug: "work")
        var base = TaskFile.empty(kind, name: "Work", now: now)
        base.tasks = [TaskItem(id: UUID(), title: "shared", createdAt: now, modifiedAt: now)]
        var ours = base, theirs = base
        ours.tasks.append(TaskItem(id: UUID(), title: "ours", createdAt: now, modifiedAt: now))
        theirs.tasks.append(TaskItem(id: UUID(), title: "theirs", createdAt: now, modifiedAt: now))
        try write(base, dir + "/base.json")
        try write(ours, dir + "/ours.json")
        try write(theirs, dir + "/theirs.json")
        var notes: [String] = []
        let status = try run(dir, path: "store/lists/work.json").run { notes.append($0) }
        #expect(status == 0)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dir + "/ours.json")))
        let merged = try TaskFileDecoder(bytes: bytes, path: "ours.json", kind: kind, fallbackDate: now).decode()
        #expect(Set(merged.tasks.map(\.title)) == ["shared", "ours", "theirs"])
        #expect(notes == ["tick merge-driver: merged store/lists/work.json: 1 added, 0 updated, 0 deleted, 0 conflicts resolved"])
    }

    @Test func anUnreadableOursIsAnError() throws {
        let dir = NSTemporaryDirectory() + "tick-merge-driver-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(throws: MergeDriverError.cannotRead("merge-driver: cannot read the ours version ours.json")) {
            _ = try run(dir, path: "inbox.json").run { _ in }
        }
    }

    @Test func repositoryPathsNameTheirStoreFile() {
        #expect(MergeDriverRun.kind(of: "inbox.json") == .inbox)
        #expect(MergeDriverRun.kind(of: "s/lists/home.json") == .list(slug: "home"))
        #expect(MergeDriverRun.kind(of: "s/archive/2025.json") == .archive(year: 2025))
        #expect(MergeDriverRun.kind(of: "notes.json") == nil)
        #expect(MergeDriverRun.isCommitmentFile("s/blocks.json"))
        #expect(!MergeDriverRun.isCommitmentFile("s/lists/blocks.json"))
    }
}
