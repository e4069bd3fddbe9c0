import Foundation
import Testing

/// Docs/CLI.md §21 (filters, contexts, reports) is read by users as a
/// tutorial: every `$ tick …` example there runs, in order, on a copy of
/// SampleData/ with the page's pinned clock, and prints what the page shows
/// (`...` in a block means "lines left out": the lines shown must appear).
@Suite("CLI.md filter examples")
struct FilterDocExamplesTests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The `$ ` commands of a section and the output under each.
    static func examples(in section: String) -> [(command: String, output: String)] {
        var out: [(String, String)] = []
        let blocks = section.components(separatedBy: "```")
        for (i, block) in blocks.enumerated() where i % 2 == 1 && !block.hasPrefix("toml") {
            var current: (String, [String])?
            for line in block.split(separator: "\n", omittingEmptySubsequences: false).dropFirst() {
                if line.hasPrefix("$ ") {
                    if let c = current { out.append((c.0, c.1.joined(separator: "\n"))) }
                    current = (String(line.dropFirst(2)), [])
                } else {
                    current?.1.append(String(line))
                }
            }
            if let c = current { out.append((c.0, c.1.joined(separator: "\n"))) }
        }
        return out
    }

    /// Splits a command line as the shell would (single quotes only, which is all the page uses).
    static func words(_ line: String) -> [String] {
        var words: [String] = []
        var word = ""
        var quoted = false
        var inWord = false
        for c in line {
            if c == "'" { quoted.toggle(); inWord = true; continue }
            if c == " " && !quoted {
                if inWord { words.append(word) }
                word = ""
                inWord = false
                continue
            }
            word.append(c)
            inWord = true
        }
        if inWord { words.append(word) }
        return words
    }

    @Test("every example of Docs/CLI.md §21 prints what the page shows")
    func examplesWorkAsPrinted() throws {
        let doc = try String(contentsOf: Self.repo.appendingPathComponent("Docs/CLI.md"), encoding: .utf8)
        let start = try #require(doc.range(of: "## 21. Filters, contexts and reports"))
        let section = String(doc[start.lowerBound...])
        let examples = Self.examples(in: section)
        #expect(examples.count >= 15)
        let s = try Sandbox()
        try s.sh("cp -R \(Self.repo.appendingPathComponent("SampleData").path)/. \"$TICK_STORE\"/")
        // The page's report, as its toml block shows it.
        let toml = try #require(section.components(separatedBy: "```toml\n").last?.components(separatedBy: "```").first)
        try FileManager.default.createDirectory(atPath: s.home + "/.config/tick", withIntermediateDirectories: true)
        try toml.write(toFile: s.home + "/.config/tick/config.toml", atomically: true, encoding: .utf8)
        for (command, output) in examples {
            let words = Self.words(command)
            #expect(words.first == "tick")
            let r = try s.tick(Array(words.dropFirst()), env: ["TZ": "UTC", "TICK_NOW": "2026-11-21T09:00:00Z"])
            let got = (r.stdout + r.stderr).trimmingCharacters(in: .newlines)
            if output.contains("...") {
                for line in output.split(separator: "\n") where line != "..." {
                    #expect(got.contains(line), "\(command): missing \(line)\n\(got)")
                }
            } else {
                #expect(got == output.trimmingCharacters(in: .newlines), "\(command)")
            }
        }
    }
}
