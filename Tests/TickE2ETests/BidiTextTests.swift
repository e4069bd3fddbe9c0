import Foundation
import Testing

/// Issue 34: bidi and other invisible format characters (U+202A–U+202E,
/// U+2066–U+2069, U+200E/F, U+061C) in titles and notes, from any source,
/// are shown visibly wherever tick prints them, as control characters are.
@Suite("bidi text is shown visibly")
struct BidiTextTests {
    static let bidi: [UInt32] = [0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069]
    /// "Pay 1000 EUR" that a terminal would show as "Pay 0001 EUR" reversed.
    static let title = "Invoice \u{202E}0001\u{202C} EUR \u{2067}x\u{2069}\u{200F}\u{061C}"
    static let notes = "line one \u{2066}isolated\u{2069}\nline \u{200E}two \u{202D}forced\u{202C}"

    /// Records an issue for every raw bidi format character in the output.
    static func expectNoBidi(_ r: RunResult, _ label: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for (stream, text) in [("stdout", r.stdout), ("stderr", r.stderr)] {
            let raw = text.unicodeScalars.filter { bidi.contains($0.value) }
            #expect(raw.isEmpty, "\(label): raw bidi characters \(raw.map { String($0.value, radix: 16) }) in \(stream):\n\(r)",
                    sourceLocation: sourceLocation)
        }
    }

    static func store() throws -> Sandbox {
        let s = try Sandbox()
        try s.write("inbox.json", """
            {"tasks": [{"title": \(try HostileTextTests.json(title)), "notes": \(try HostileTextTests.json(notes)), "due": "2026-11-21"}]}
            """)
        return s
    }

    @Test("list, show, search, today, status-line and the Markdown export show them as \\u{...}; --json stays exact")
    func everyPrintPath() throws {
        let s = try Self.store()
        let id = try #require(try s.json("list", "--all").first?.string("id")).prefix(8)
        #expect(try s.json("list", "--all").first?.string("title") == Self.title)
        let runs: [[String]] = [["list", "--all"], ["show", String(id)], ["search", "EUR"], ["today"], ["status-line"],
                                ["export", "--format", "markdown"]]
        for args in runs {
            let r = try s.tick(args)
            #expect(r.status == 0, "\(args): \(r)")
            Self.expectNoBidi(r, args.joined(separator: " "))
            HostileTextTests.expectVisible(r, args.joined(separator: " "))
            #expect(r.stdout.contains("u{202E}0001"), "\(args): \(r)")
        }
        let show = try s.tick("show", String(id))
        #expect(show.stdout.contains("\\u{2066}isolated\\u{2069}"), "\(show)")
    }

    @Test("tick ui on a real terminal shows them visibly")
    func ui() throws {
        guard UITests.hasTmux else { Issue.record("tmux is not installed (scripts/ensure-deps.sh --test installs it)"); return }
        let s = try Self.store()
        let ui = try UITerminal(s)
        defer { ui.close() }
        let screen = try ui.waitFor("\\u{202E}0001\\u{202C} EUR")
        #expect(!screen.unicodeScalars.contains { Self.bidi.contains($0.value) }, "\(screen)")
    }
}
