import Foundation
import Testing

/// Declared fields to the phone and back through a real Radicale and
/// vdirsyncer (issue 45): `X-TICK-FIELD;NAME=…` on the server, a phone edit
/// of one merged into tick, tick's edit patched in place, and a second
/// machine that converges without duplicates.
@Suite("user-defined fields: CalDAV with a real Radicale", .serialized,
       .enabled(if: DavTools.available, DavTools.skipComment))
struct UserFieldsDavE2ETests {
    static func declare(_ s: Sandbox) throws {
        let path = s.home + "/.config/tick/config.toml"
        try FileManager.default.createDirectory(atPath: s.home + "/.config/tick", withIntermediateDirectories: true)
        let existing = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        try (existing + "\n" + UserFieldsE2ETests.config + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }

    @Test func declaredFieldsGoToThePhoneAndBack() throws {
        let (s, server) = try DavTests.setUp()
        try Self.declare(s)
        let id = try s.add("Audit", "client:Acme", "spent:1h30m", "size:L", "review:2030-12-01")
        _ = try DavTests.sync(s)
        let item = try #require(server.item("inbox", containing: "SUMMARY:Audit"))
        let lines = icsLines(item.text)
        for line in ["X-TICK-FIELD;NAME=client:Acme", "X-TICK-FIELD;NAME=spent:90", "X-TICK-FIELD;NAME=size:L", "X-TICK-FIELD;NAME=review:2030-12-01"] {
            #expect(lines.contains(line), "\(line) in \(lines)")
        }
        // Nothing changed: nothing goes up.
        _ = try DavTests.sync(s, now: "2026-11-21T09:05:00Z")
        #expect(server.item("inbox", containing: "SUMMARY:Audit")?.text == item.text)

        // The phone (another tick machine) changes size; tick changes client meanwhile.
        try s.ok("edit", id, "client:Initech", now: "2026-11-21T09:10:00Z")
        let lastModified = lines.first { $0.hasPrefix("LAST-MODIFIED:") } ?? ""
        try server.put("inbox", item.name, item.text.replacingOccurrences(of: "X-TICK-FIELD;NAME=size:L", with: "X-TICK-FIELD;NAME=size:S")
            .replacingOccurrences(of: lastModified, with: "LAST-MODIFIED:20261121T091200Z"))
        let out = try DavTests.sync(s, now: "2026-11-21T09:15:00Z")
        #expect(out.contains("0 overridden"), "\(out)")
        let task = try s.showJSON(id)
        #expect(task.string("size") == "S" && task.string("client") == "Initech" && task.int("spent") == 90)
        let after = try #require(server.item("inbox", containing: "SUMMARY:Audit"))
        #expect(icsLines(after.text).contains("X-TICK-FIELD;NAME=client:Initech"))
        #expect(icsLines(after.text).contains("X-TICK-FIELD;NAME=size:S"))

        // A second machine with the same store and declarations converges, no duplicate.
        let b = try Sandbox()
        try DavTests.carry(s, to: b)
        try Self.declare(b)
        try b.ok("dav", "setup", server.url, "--user", "me", "--password-command", "echo x")
        _ = try DavTests.sync(b, now: "2026-11-21T09:20:00Z")
        #expect(server.items("inbox").count == 1)
        let onB = try #require(try b.json("list", "--all").first { $0.string("title") == "Audit" })
        #expect(onB.string("size") == "S" && onB.string("client") == "Initech")
    }
}
