import Foundation
import Testing

/// Declared fields in `tick edit ID`'s `$EDITOR` buffer (issue 45): named in
/// the header, typed in friendly forms, checked on save.
@Suite("user-defined fields in $EDITOR")
struct UserFieldsEditorTests {
    func sandbox() throws -> Sandbox {
        let s = try Sandbox()
        try FileManager.default.createDirectory(atPath: s.home + "/.config/tick", withIntermediateDirectories: true)
        try UserFieldsE2ETests.config.write(toFile: s.home + "/.config/tick/config.toml", atomically: true, encoding: .utf8)
        return s
    }

    @Test func theBufferShowsAndTakesDeclaredFields() throws {
        let s = try sandbox()
        try s.add("Audit", "client:Acme", "spent:45m")
        let before = try #require(try s.tasks("inbox.json").task("Audit"))
        #expect(before.int("spent") == 45 && before.string("size") == "M")
        let editor = try s.script("fields.sh", """
            grep '^// Your fields' "$1" > "\(s.root)/header"
            sed -i -e 's/"spent": 45/"spent": "1h30m"/' -e 's/"size": "M"/"size": "l"/' \\
                -e 's/"client": "Acme"/"client": "Globex", "review": "2030-12-01T10:00"/' "$1"
            """)
        let r = try s.tick("edit", "1", env: ["EDITOR": editor])
        #expect(r.status == 0, "\(r)")
        let header = try String(contentsOfFile: s.root + "/header", encoding: .utf8)
        #expect(header.contains("\"spent\": minutes or \"1h30m\"") && header.contains("\"size\": \"S\", \"M\", \"L\""), Comment(rawValue: header))
        let task = try #require(try s.tasks("inbox.json").task("Audit"))
        #expect(task.string("client") == "Globex")
        #expect(task.int("spent") == 90)
        #expect(task.string("size") == "L")
        #expect(task.string("review") == "2030-12-01T09:00:00Z", "a zone-less time is local (Berlin)")
        let changed = try #require(task["changed"] as? [String: Any])
        #expect(changed["spent"] is String && changed["client"] is String)

        // A value of the wrong type: one error line, nothing written.
        let kept = try s.bytes("inbox.json")
        let bad = try s.script("bad.sh", "sed -i 's/\"size\": \"L\"/\"size\": \"XL\"/' \"$1\"")
        let refused = try s.tick("edit", "1", env: ["EDITOR": bad])
        #expect(refused.status != 0, "\(refused)")
        #expect(refused.stderr.contains("size: XL is not one of S, M, L"), "\(refused)")
        #expect(try s.bytes("inbox.json") == kept)
    }
}
