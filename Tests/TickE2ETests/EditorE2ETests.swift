import Foundation
import Testing

/// `tick edit ID` in `$EDITOR`, again and again (issue 32): repeated edits of
/// one task, after other commands changed it, a real change made meanwhile,
/// the kept text under tick's state directory, and a real vim in tmux.
@Suite("editing in $EDITOR")
struct EditorE2ETests {
    /// `$XDG_STATE_HOME/tick/<store-key>/edits`, where the scratch files live.
    static func editsDirectory(_ s: Sandbox) throws -> String {
        let tick = s.stateHome + "/tick"
        let keys = try FileManager.default.contentsOfDirectory(atPath: tick)
        #expect(keys.count == 1, "one store's state directory: \(keys)")
        return tick + "/" + (keys.first ?? "?") + "/edits"
    }

    /// An editor script that replaces `old` with `new` in the buffer (sed, a plain string).
    func sed(_ s: Sandbox, _ old: String, _ new: String) throws -> String {
        try s.script("sed-\(old)-\(new).sh", "sed -i 's/\(old)/\(new)/' \"$1\"")
    }

    /// `tick edit ID` with `editor`; requires `Edited …` naming `field`.
    func edit(_ s: Sandbox, _ id: String, with editor: String, field: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let r = try s.tick("edit", id, env: ["EDITOR": editor])
        #expect(r.status == 0, "\(r)", sourceLocation: sourceLocation)
        #expect(r.stderr == "", sourceLocation: sourceLocation)
        #expect(r.stdout.hasPrefix("Edited ") && r.stdout.hasSuffix("(\(field))\n"), "\(r.stdout)", sourceLocation: sourceLocation)
    }

    @Test("three $EDITOR edits in a row of one task are all saved, with and without an unknown key", arguments: [false, true])
    func threeEditsInARow(unknownKey: Bool) throws {
        let s = try Sandbox()
        if unknownKey {
            try s.write("inbox.json", """
            {"version": 1, "tasks": [
              {"id": "0b0b0b0b-1111-4222-8333-444455556666", "title": "Alpha", "state": "open",
               "createdAt": "2026-11-01T10:00:00Z", "modifiedAt": "2026-11-02T10:00:00Z", "x-owner": "sam"}
            ]}
            """)
        } else {
            try s.add("Alpha")
        }
        try edit(s, "1", with: try sed(s, "Alpha", "Beta"), field: "title")
        try edit(s, "1", with: try sed(s, "Beta", "Gamma"), field: "title")
        try edit(s, "1", with: try sed(s, "Gamma", "Delta"), field: "title")
        let t = try #require(try s.tasks("inbox.json").first)
        #expect(t.string("title") == "Delta")
        #expect(t.string("x-owner") == (unknownKey ? "sam" : nil))
        let changed = try #require(t["changed"] as? [String: Any], "the edits stamp changed.title")
        #expect(changed["title"] is String)
        #expect(try FileManager.default.contentsOfDirectory(atPath: try Self.editsDirectory(s)) == [], "no scratch file is left")
    }

    @Test("$EDITOR edits work after start, a tag edit, done and reopen")
    func editsAfterOtherCommands() throws {
        let s = try Sandbox()
        try s.add("Alpha")
        let id = try s.uuidPrefix("Alpha")
        try s.ok("start", id)
        try edit(s, id, with: try sed(s, "Alpha", "Beta"), field: "title")
        try s.ok("edit", id, "+home")
        try edit(s, id, with: try sed(s, "Beta", "Gamma"), field: "title")
        try s.ok("done", id)
        try edit(s, id, with: try sed(s, "Gamma", "Delta"), field: "title")
        try s.ok("reopen", id)
        try edit(s, id, with: try sed(s, "Delta", "Epsilon"), field: "title")
        let t = try #require(try s.tasks("inbox.json").first)
        #expect(t.string("title") == "Epsilon")
        #expect(t.string("state") == "open")
        #expect(t["tags"] as? [String] == ["home"])
        let changed = try #require(t["changed"] as? [String: Any])
        #expect(Set(changed.keys) == ["title", "state", "+home"], "every change, the editor's included, is stamped")
    }

    @Test("done in $EDITOR completes as tick done does: the next occurrence, or a warning for a rule tick cannot read")
    func editorCompletesThroughDone() throws {
        let s = try Sandbox()
        try s.add("Water plants", "repeat:daily", "due:2026-11-23")
        let done = try s.script("done.sh", #"sed -i 's/"state": "open"/"state": "done"/' "$1""#)
        let r = try s.tick("edit", "1", env: ["EDITOR": done])
        #expect(r.status == 0)
        #expect(r.stdout.contains("(state)\nNext: "), "\(r.stdout)")
        #expect(try s.tasks("inbox.json").map { $0.string("state") } == ["done", "open"])

        try s.add("Odd one")
        try s.sed("-i", #"s/"title": "Odd one",/"title": "Odd one", "repeat": "every blue moon",/"#, s.path("inbox.json"))
        let odd = try s.uuidPrefix("Odd one")
        let w = try s.tick("edit", odd, env: ["EDITOR": done])
        #expect(w.status == 0)
        #expect(w.stderr.contains("warning: no next occurrence for \(odd)"), "\(w.stderr)")
        #expect(w.stderr.contains("every blue moon"))
        #expect(try s.tasks("inbox.json").task("Odd one")?.string("state") == "done")
    }

    @Test("another tick command changing the task while it is in $EDITOR: refused, text kept under the state directory and named")
    func concurrentChangeIsCaught() throws {
        let s = try Sandbox()
        try s.add("Alpha")
        try edit(s, "1", with: try sed(s, "Alpha", "Beta"), field: "title")
        let editor = try s.script("meanwhile.sh", """
        "$TICK" start 1 >/dev/null || exit 9
        sed -i 's/"Beta"/"Mine"/' "$1"
        """)
        let r = try s.tick("edit", "1", env: ["EDITOR": editor])
        #expect(r.status == 1, "\(r)")
        let t = try #require(try s.tasks("inbox.json").first)
        #expect(t.string("title") == "Beta")
        #expect(t.string("state") == "active")
        let dir = try Self.editsDirectory(s)
        let kept = try FileManager.default.contentsOfDirectory(atPath: dir)
        #expect(kept.count == 1)
        let path = dir + "/" + (kept.first ?? "?")
        #expect(r.stderr.contains("the task changed on disk while you were editing; nothing was saved. Your text is kept in \(path);"), "\(r.stderr)")
        #expect(String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self).contains("\"Mine\""))
        let dirMode = try FileManager.default.attributesOfItem(atPath: dir)[.posixPermissions] as? Int
        let fileMode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(dirMode == 0o700 && fileMode == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: s.tmp) == [], "nothing goes to $TMPDIR")
    }

    @Test("a real vim in a terminal edits the task, twice")
    func vimInTmux() throws {
        let vim = try Sandbox().sh("command -v vim")
        try #require(vim.status == 0, "vim is missing: scripts/ensure-deps.sh --test installs it")
        let s = try Sandbox()
        try s.add("Alpha")
        for (round, (old, new)) in [("Alpha", "Beta"), ("Beta", "Gamma")].enumerated() {
            let term = try UITerminal(s, ["1"], command: ["edit"], env: ["EDITOR": "vim", "VISUAL": nil], name: "vim\(round)")
            defer { term.close() }
            try term.waitFor("\"title\": \"\(old)\"")
            try term.press("Escape")
            try term.type(":%s/\(old)/\(new)/")
            try term.press("Enter")
            try term.type(":wq")
            try term.press("Enter")
            let screen = try term.waitFor("EXIT:")
            #expect(screen.contains("Edited 1 ("), "\(screen)")
            #expect(screen.contains(": \(new) (title)"), "\(screen)")
            #expect(screen.contains("EXIT:0"))
            #expect(try s.tasks("inbox.json").first?.string("title") == new)
        }
    }
}
