import Foundation
import Testing
@testable import TickKit

/// Bidi and other invisible format characters are shown visibly, as control characters are (issue 34).
@Suite struct TextRulesVisibleTests {
    @Test func everyBidiFormatCharacterIsShownAsItsCodePoint() {
        let codes: [UInt32] = [0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069]
        for code in codes {
            let scalar = Unicode.Scalar(code)!
            let text = "a" + String(Character(scalar)) + "b"
            let hex = String(code, radix: 16, uppercase: true)
            #expect(TextRules.visible(text) == "a\\u{\(hex)}b", "U+\(hex)")
            #expect(TextRules.visible(text, keepingNewlines: true) == "a\\u{\(hex)}b")
            #expect(TextRules.isBidiFormat(scalar))
        }
    }

    /// The quick byte scan never misses a character whatever surrounds it:
    /// random mixes of ASCII, controls, C1, bidi controls and other UTF-8
    /// of 2 and 3 bytes read as each character shown on its own.
    @Test func theQuickScanAgreesWithCharacterByCharacter() {
        let pool: [UInt32] = [0x41, 0x20, 0x7E, 0x09, 0x0A, 0x1B, 0x7F, 0x80, 0x9B, 0x9F, 0xA0, 0xC2, 0xE9, 0x061B, 0x061C, 0x061D,
                              0x200D, 0x200E, 0x200F, 0x2029, 0x202A, 0x202E, 0x202F, 0x2065, 0x2066, 0x2069, 0x206A, 0x3042, 0x1F600]
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let scalars = (0..<Int.random(in: 0...12, using: &rng)).map { _ in Unicode.Scalar(pool.randomElement(using: &rng)!)! }
            var text = ""
            text.unicodeScalars.append(contentsOf: scalars)
            for keep in [false, true] {
                let one = scalars.map { TextRules.visible(String(Character($0)), keepingNewlines: keep) }.joined()
                #expect(TextRules.visible(text, keepingNewlines: keep) == one, "\(scalars.map { String($0.value, radix: 16) })")
            }
        }
    }

    @Test func textAroundThemAndOtherScriptsStayAsTheyAre() {
        // Neighbours of the ranges, an Arabic word, emoji with a joiner, accents: untouched.
        for text in ["\u{2029}x", "\u{202F}x", "\u{2065}", "\u{206A}", "\u{200D}", "\u{200B}", "مرحبا", "👩‍👩‍👧", "café", "日本語", "\u{061B}\u{061D}"] {
            #expect(TextRules.visible(text) == text, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    @Test func aTrojanSourceTitleReadsInOrderAndControlsStayVisibleToo() {
        let title = "Pay \u{202E}0001\u{202C} EUR\u{1B}[2J\u{9B}"
        #expect(TextRules.visible(title) == "Pay \\u{202E}0001\\u{202C} EUR^[[2J\\u{9B}")
        #expect(!TextRules.visible(title).unicodeScalars.contains { TextRules.isBidiFormat($0) || TextRules.isControl($0) })
    }

    @Test func markdownExportShowsThemVisibly() {
        let now = Date(timeIntervalSince1970: 0)
        var file = TaskFile.empty(.inbox, name: nil, now: now)
        file.tasks = [TaskItem(id: UUID(name: "m"), title: "abc\u{202E}def", notes: "x\u{2066}y\nz\u{9B}", createdAt: now, modifiedAt: now)]
        let md = MarkdownExport.render([file], timeZone: Zone(named: "UTC")!)
        #expect(md.contains("abc\\\\u{202E}def"), "\(md)")
        #expect(md.contains("  x\\u{2066}y\n  z\\u{9B}\n"), "\(md)")
        #expect(!md.unicodeScalars.contains { TextRules.isBidiFormat($0) || ($0.value >= 0x80 && $0.value <= 0x9F) })
    }

    @Test func theBridgeTakesControlCharactersAShandEditsDoButNotNULOrALineBreakInATitle() {
        #expect(TextRules.bridgedProblem(title: "a\u{9B}b\u{1B}c\u{202E}", notes: "n\u{85}") == nil)
        #expect(TextRules.bridgedProblem(title: "a\nb", notes: nil)?.contains("newline") == true)
        #expect(TextRules.bridgedProblem(title: "a\u{0}b", notes: nil)?.contains("NUL") == true)
        #expect(TextRules.bridgedProblem(title: "a", notes: "\u{0}")?.contains("NUL") == true)
        #expect(TextRules.bridgedProblem(title: String(repeating: "x", count: 1_001), notes: nil) != nil)
    }
}
