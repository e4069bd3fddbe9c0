import Foundation
import Testing
@testable import TickKit

/// tick's own text helpers (issue 36: no ICU) against Foundation's, which
/// they replace, on the kinds of text tick handles.
@Suite struct TextEssentialsTests {
    static let samples = ["", " ", "  a b  ", "\tx\t", "\n a \r\n", "\u{00A0}nbsp\u{3000}", "\u{2028}line\u{85}", "no-trim",
                          "  Crème brûlée \n", "\r\n", "a\r\nb\nc", "日本 ", " \u{200B}zero-width\u{200B} ", "x\u{0301} ", "🙂 x 🙂"]

    @Test func trimmingMatchesFoundationsSets() {
        for s in Self.samples {
            #expect(s.trimmingWhitespace() == s.trimmingCharacters(in: .whitespaces), "\(s.debugDescription)")
            #expect(s.trimmingWhitespaceAndNewlines() == s.trimmingCharacters(in: .whitespacesAndNewlines), "\(s.debugDescription)")
            #expect(s.trimmingScalars(where: { $0 == "\"" }) == s.trimmingCharacters(in: CharacterSet(charactersIn: "\"")))
        }
        #expect("\"quoted\"".trimmingScalars(where: { $0 == "\"" }) == "quoted")
    }

    /// (Scalars new in Unicode 16 and 17 are letters to the standard
    /// library and not to Foundation's older tables.)
    @Test func characterClassesMatchFoundationsOnTheBasicPlane() {
        for value in UInt32(0)...0xFFFF {
            guard let s = Unicode.Scalar(value), (s.properties.age?.major ?? 0) < 16 else { continue }
            #expect(TextClass.isWhitespace(s) == CharacterSet.whitespaces.contains(s), "U+\(String(value, radix: 16))")
            #expect(TextClass.isWhitespaceOrNewline(s) == CharacterSet.whitespacesAndNewlines.contains(s), "U+\(String(value, radix: 16))")
            #expect(TextClass.isLetter(s) == CharacterSet.letters.contains(s), "U+\(String(value, radix: 16))")
            #expect(TextClass.isAlphanumeric(s) == CharacterSet.alphanumerics.contains(s), "U+\(String(value, radix: 16))")
        }
    }

    @Test func replacingAllMatchesReplacingOccurrences() {
        let pairs: [(String, String)] = [("\n", " "), ("\r\n", "\n"), ("\r\n", " "), ("-", ""), (":", "\\:"), ("'", "'\\''"),
                                         ("\\", "\\\\"), ("refs/heads/", ""), ("é", "e"), ("aa", "b")]
        for s in Self.samples + ["a\r\nb", "refs/heads/main", "it's", "c:\\dir", "aaa", "café"] {
            for (target, replacement) in pairs {
                #expect(s.replacingAll(target, with: replacement) == s.replacingOccurrences(of: target, with: replacement),
                        "\(s.debugDescription): \(target.debugDescription)")
            }
        }
    }

    @Test func literalRangesMatchRangeOf() {
        let cases: [(String, String)] = [("a.tick-b.tick-c.tmp", ".tick-"), ("x: y: z", ": "), ("no match", "zz"), ("tick/tick/", "tick/"),
                                         ("Did you mean. Did you mean ", ". Did you mean "), ("", "a"), ("aaa", "aa")]
        for (s, target) in cases {
            let mine = s.literalRange(of: target).map { s[$0] }
            let theirs = s.range(of: target).map { s[$0] }
            #expect(mine == theirs)
            #expect(s.literalRange(of: target)?.lowerBound == s.range(of: target)?.lowerBound)
            #expect(s.lastLiteralRange(of: target)?.lowerBound == s.range(of: target, options: .backwards)?.lowerBound, "\(s) \(target)")
        }
    }

    @Test func paddingMatchesFoundation() {
        for s in ["", "a", "label", "a longer label", "Crème", "🙂🙂"] {
            for width in [0, 2, 4, 5, 12] {
                #expect(s.paddedOrCut(toLength: width) == s.padding(toLength: width, withPad: " ", startingAt: 0), "\(s) \(width)")
            }
        }
        // Cut inside a surrogate pair, Foundation left half of it (U+FFFD once
        // decoded); tick cuts before the whole character.
        #expect("🙂🙂".paddedOrCut(toLength: 3) == "🙂")
    }

    @Test func cFormatMatchesStringFormat() {
        for ms in [0.0, 0.04, 0.05, 0.15, 1.25, 12.345, 999.95, 1e6] {
            #expect(CFormat.string("%.1f", ms) == String(format: "%.1f", ms))
        }
        for value: UInt32 in [0, 0x1b, 0x7f, 0x200e, 0xffff] {
            #expect(CFormat.string("\\u%04x", value) == String(format: "\\u%04x", value))
            #expect(CFormat.string("\\u%04X", value) == String(format: "\\u%04X", value))
        }
        #expect(CFormat.string("%.1f", 12.25) == "12.2")
    }

    /// The list order's key: the same as ICU's folding for these names (the
    /// halfwidth katakana Foundation folded are the edge DECISIONS.md names).
    @Test func foldingMatchesFoundationsFolding() {
        for s in ["Éçà ｆｕｌｌ", "Ǆ", "ß", "ﬁ", "İstanbul", "ΣΑΣ", "Ångström", "Crème Brûlée", "Ø", "ł", "Straße", "ǅ", "Ｈｅｌｌｏ　Ｗ",
                  "e\u{301}", "한국", "Work", "Ω", "K", "ﬀ", "Home", "home", "Éducation", "zoo", "Zoë", "List 10", "list 9", "日本語"] {
            let theirs = s.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            #expect(TextFolding.fold(s) == theirs, "\(s)")
        }
        // Every ASCII character (the quick path), alone and after a mark it must not lose.
        for value in 0..<128 {
            let s = String(Character(Unicode.Scalar(UInt8(value))))
            #expect(TextFolding.fold(s) == s.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil), "\(value)")
            #expect(TextFolding.fold("É" + s) == ("É" + s).folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil))
        }
    }

    @Test func nfcMatchesPrecomposed() {
        for s in ["e\u{301}", "Crème", "A\u{30A}ngstro\u{308}m", "한국", "\u{1100}\u{1161}", "plain", "Ǆ"] {
            #expect(TextFolding.nfc(s).unicodeScalars.elementsEqual(s.precomposedStringWithCanonicalMapping.unicodeScalars), "\(s)")
        }
    }

    enum Sample: Error { case first, second }
    struct Described: Error, LocalizedError { var errorDescription: String? { "described" } }

    @Test func errorTextMatchesLocalizedDescription() {
        var errors: [any Error] = [Sample.second, Described(), POSIXError(.EACCES), POSIXError(.ENOENT)]
        for code in [4, 256, 257, 260, 512, 513, 516, 640, 642, 3840, 4865] {
            errors.append(CocoaError(CocoaError.Code(rawValue: code)))
        }
        for error in errors {
            #expect(ErrorText.describe(error) == error.localizedDescription)
        }
        do {
            try FileManager.default.createDirectory(atPath: "/proc/tick-none/x", withIntermediateDirectories: true)
            Issue.record("no error")
        } catch {
            #expect(ErrorText.describe(error) == error.localizedDescription)
        }
    }
}
