import Foundation
import Testing

/// List files that are not regular files (git carries symlinks): tick reads
/// only regular files, never blocks on a FIFO or reads /dev/zero forever, and
/// writes through a link to a regular file (Docs/FORMAT.md sections 7 and 10).
@Suite("special files in the store")
struct SpecialFileTests {
    /// Runs tick under `timeout` (a safety net only: a hang fails the test instead of blocking the run).
    func tick(_ s: Sandbox, _ args: String...) throws -> RunResult {
        try s.run("/usr/bin/env", ["timeout", "120", TickBinary.path] + args)
    }

    @Test("a list that is a link to /dev/zero or a FIFO is reported as unreadable; the other lists still work")
    func deviceAndFIFO() throws {
        let s = try Sandbox()
        try s.ok("lists", "add", "Work")
        try s.ok("add", "w1", "list:Work")
        try s.ok("add", "in-inbox")
        try FileManager.default.createSymbolicLink(atPath: s.path("lists/zero.json"), withDestinationPath: "/dev/zero")
        #expect(mkfifo(s.path("lists/pipe.json"), 0o644) == 0)

        let list = try tick(s, "list")
        #expect(list.status == 0, "\(list)")
        #expect(list.stdout.contains("w1") && list.stdout.contains("in-inbox"))
        #expect(list.stderr.contains("lists/zero.json: cannot read it: it is a character device, not a regular file"), "\(list.stderr)")
        #expect(list.stderr.contains("lists/pipe.json: cannot read it: it is a FIFO (named pipe), not a regular file"), "\(list.stderr)")

        let status = try tick(s, "status")
        #expect(status.stdout.contains("2 unreadable"), "\(status)")

        // Writing to another list works; writing to the broken one fails with a message naming it.
        let add = try tick(s, "add", "w2", "list:Work")
        #expect(add.status == 0, "\(add)")
        #expect(try s.tasks("lists/work.json").titles == ["w1", "w2"])
        let addToZero = try tick(s, "add", "z", "list:zero")
        #expect(addToZero.status != 0 && addToZero.status != 124, "\(addToZero)")
        #expect(addToZero.stderr.contains("zero.json"), "\(addToZero)")

        // The watcher starts, reports the files, and keeps working.
        let watcher = try s.startWatcher(timeout: 60)
        #expect(watcher.waitForMessage(timeout: 60, where: { $0.contains("pipe.json") && $0.contains("not a regular file") }) != nil)
        try s.ok("add", "w3", "list:Work")
        let stopped = watcher.stop()
        #expect(stopped.status == 0, "\(stopped)")
    }

    @Test("a list file that is a link to a regular file is read, and written through to its target (the link stays)")
    func linkToRegularFile() throws {
        let s = try Sandbox()
        try s.ok("lists", "add", "Shared")
        let target = s.root + "/elsewhere/shared.json"
        try FileManager.default.createDirectory(atPath: s.root + "/elsewhere", withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: s.path("lists/shared.json"), toPath: target)
        try FileManager.default.createSymbolicLink(atPath: s.path("lists/shared.json"), withDestinationPath: "../../elsewhere/shared.json")

        try s.ok("add", "through", "list:Shared")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: s.path("lists/shared.json")) == "../../elsewhere/shared.json")
        let written = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: target))) as? [String: Any]
        #expect((written?["tasks"] as? [[String: Any]])?.titles == ["through"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: s.root + "/elsewhere") == ["shared.json"], "no temp file left")
        #expect(try s.json("list").compactMap { $0.string("title") } == ["through"])
    }

    @Test("a list over 64 MiB is refused with a message, not read")
    func tooLarge() throws {
        let s = try Sandbox()
        try s.ok("lists", "add", "Work")
        try s.ok("add", "w1", "list:Work")
        let big = s.path("lists/big.json")
        #expect(FileManager.default.createFile(atPath: big, contents: nil))
        #expect(truncate(big, 65 << 20) == 0)
        let list = try tick(s, "list")
        #expect(list.status == 0, "\(list)")
        #expect(list.stdout.contains("w1"))
        #expect(list.stderr.contains("lists/big.json: cannot read it: it is larger than 64 MiB"), "\(list.stderr)")
    }
}
