import Foundation
import Testing

/// `tick undo` is a change (issue 33, Docs/MERGE.md "Undo under sync"): an
/// undone change that already reached another machine stays undone after
/// Syncthing keeps the other machine's newer file and `tick resolve` merges
/// this machine's conflict copy back in.
@Suite("undo under sync")
struct UndoSyncTests {
    static func at(_ hm: String) -> String { "2026-11-21T\(hm):00Z" }
    static let copy = "lists/work.sync-conflict-20261121-100400-ABCDEF7.json"

    /// Machines A and B with the same store: list Work with X, Y, Z, made on
    /// A at 10:00 and copied to B.
    static func machines() throws -> (Sandbox, Sandbox) {
        let a = try Sandbox()
        try a.ok("lists", "add", "Work", now: at("10:00"))
        for t in ["X", "Y", "Z"] { try a.add(t, "list:Work", now: at("10:00")) }
        let b = try Sandbox()
        try b.write("lists/work.json", try a.text("lists/work.json"))
        return (a, b)
    }

    /// Syncthing after both changed lists/work.json: B's file (the newer)
    /// wins on both machines and A's becomes the conflict copy next to it;
    /// `tick resolve` at 10:04 on each machine merges it in.
    static func syncthing(_ a: Sandbox, _ b: Sandbox) throws {
        let mine = try a.text("lists/work.json"), theirs = try b.text("lists/work.json")
        #expect(mine != theirs)
        for s in [a, b] {
            try s.write("lists/work.json", theirs)
            try s.write(copy, mine)
            let r = try s.tick("resolve", now: at("10:04"))
            #expect(r.status == 0, "\(r)")
            #expect(!s.exists(copy), "the copy was merged and removed")
        }
        #expect(try a.text("lists/work.json") == b.text("lists/work.json"), "both machines end with the same file")
    }

    @Test("an edit copied to another machine, then undone, stays undone after Syncthing and tick resolve")
    func undoneEdit() throws {
        let (a, b) = try Self.machines()
        try a.ok("edit", try a.uuidPrefix("X"), "--title", "Renamed", now: Self.at("10:01"))
        try b.write("lists/work.json", try a.text("lists/work.json"))
        let undo = try a.tick("undo", now: Self.at("10:02"))
        #expect(undo.status == 0 && undo.stdout.hasPrefix("Undid edit"), "\(undo)")
        try b.ok("edit", try b.uuidPrefix("Y"), "+home", now: Self.at("10:03"))

        try Self.syncthing(a, b)
        let tasks = try a.tasks("lists/work.json")
        #expect(tasks.titles == ["X", "Y", "Z"], "the undone title is not back")
        #expect(tasks.task("Y")?.tagList == ["home"], "B's change is kept")
        let x = try #require(tasks.task("X"))
        #expect((x["changed"] as? [String: Any])?["title"] as? String == Self.at("10:02"), "the undo stamped the title")
    }

    @Test("a deletion copied to another machine, then undone, stays undone: the task is back and its tombstone gone")
    func undoneDelete() throws {
        let (a, b) = try Self.machines()
        try a.ok("rm", try a.uuidPrefix("X"), now: Self.at("10:01"))
        try b.write("lists/work.json", try a.text("lists/work.json"))
        let undo = try a.tick("undo", now: Self.at("10:02"))
        #expect(undo.status == 0 && undo.stdout.hasPrefix("Undid rm"), "\(undo)")
        #expect(try a.file("lists/work.json")["deleted"] == nil, "undo removed the tombstone it recorded")
        try b.ok("edit", try b.uuidPrefix("Y"), "+home", now: Self.at("10:03"))

        try Self.syncthing(a, b)
        let file = try a.file("lists/work.json")
        let tasks = try a.tasks("lists/work.json")
        #expect(tasks.titles == ["X", "Y", "Z"], "the task whose deletion was undone is back")
        #expect(file["deleted"] == nil, "and its tombstone is gone: \(file)")
        #expect(tasks.task("Y")?.tagList == ["home"])
    }
}

/// A store file's values as `tick undo` puts them back: the file without its
/// `modifiedAt` and tombstones, its tasks (in order) without `changed` and
/// `modifiedAt`, which an undo stamps with its own time (Docs/MERGE.md "Undo
/// under sync"), as canonical JSON.
func undoValues(_ text: String) throws -> String {
    guard var file = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
        throw HarnessError("not a JSON object: \(text)")
    }
    file["modifiedAt"] = nil
    file["deleted"] = nil
    file["tasks"] = (file["tasks"] as? [[String: Any]] ?? []).map { task -> [String: Any] in
        var t = task
        t["changed"] = nil
        t["modifiedAt"] = nil
        return t
    }
    return try canonicalJSON(file)
}
