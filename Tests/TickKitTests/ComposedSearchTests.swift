import Foundation
import Testing
@testable import TickKit

/// ``ComposedSearch`` finds what Foundation's `String.range(of:)` finds (the
/// search's Unicode path no longer imports Foundation).
@Suite struct ComposedSearchTests {
    static let cases: [(text: String, needle: String)] = [
        ("cafe\u{301}", "cafe"), ("caf\u{e9}", "cafe"), ("caf\u{e9}", "cafe\u{301}"), ("cafe\u{301}", "caf\u{e9}"),
        ("a\u{200d}b", "ab"), ("x\u{600}ab", "ab"), ("e\u{301}x", "e"), ("\u{fb01}x", "fi"), ("stra\u{df}e", "ss"),
        ("\u{1c6}", "d"), ("na\u{ef}ve na\u{ef}ve", "i\u{308}ve"), ("", "a"), ("abc", "abcd"), ("x\u{20dd}y", "x"),
    ]

    @Test func agreesWithFoundationsRangeOf() {
        for (text, needle) in Self.cases {
            let ours = ComposedSearch.range(of: needle, in: text)
            let foundation = text.range(of: needle)
            #expect(ours == foundation, "\(Array(text.unicodeScalars)) / \(Array(needle.unicodeScalars))")
            #expect(ComposedSearch.contains(needle, in: text) == text.contains(needle))
        }
        // From an index on: the second occurrence.
        let text = "na\u{ef}ve na\u{ef}ve"
        let first = ComposedSearch.range(of: "ve", in: text)
        let second = first.flatMap { ComposedSearch.range(of: "ve", in: text, from: $0.upperBound) }
        #expect(second == first.flatMap { text.range(of: "ve", range: $0.upperBound..<text.endIndex) })
        #expect(second != nil && second != first)
    }

    @Test func phrasesAreTrimmedOfFoundationsWhitespace() {
        for raw in [" \t milk \u{a0}", "\u{200b}milk", "milk", "  ", "\u{3000}tea\u{2003}"] {
            #expect(Substring(raw).trimmingWhitespace() == raw.trimmingCharacters(in: .whitespaces), "\(Array(raw.unicodeScalars))")
        }
    }
}
