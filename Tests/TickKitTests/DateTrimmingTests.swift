import Foundation
import Testing
@testable import TickKit

/// The date parsers' trimming (written without Foundation's ICU-backed
/// `trimmingCharacters(in:)`) trims exactly what Foundation's did.
@Suite("date text trimming matches Foundation's")
struct DateTrimmingTests {
    static let samples = [
        "", " ", "\t", "fri", "  fri@9am  ", "\tfri\t", "\u{00A0}fri\u{3000}", "\nfri\r\n", "\u{2028}9am\u{2029}",
        "\u{0085}tomorrow\u{000B}\u{000C}", " 2026-11-24 17:00 ", "\u{200B}fri\u{200B}", "e\u{0301} ", " \u{1680}\u{2000}\u{200A}x\u{202F}\u{205F}",
    ]

    @Test("every scalar Foundation trims, and no other, is trimmed")
    func everyScalar() {
        var differing: [UInt32] = []
        for value in UInt32(0)..<0x3100 {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = String(Character(scalar)) + "x"
            if text.trimmingWhitespace() != text.trimmingCharacters(in: .whitespaces)
                || text.trimmingWhitespaceAndNewlines() != text.trimmingCharacters(in: .whitespacesAndNewlines) {
                differing.append(value)
            }
        }
        #expect(differing.isEmpty, "\(differing.map { String($0, radix: 16) })")
    }

    @Test("spaces and white space", arguments: samples)
    func matches(_ text: String) {
        #expect(text.trimmingWhitespace() == text.trimmingCharacters(in: .whitespaces))
        #expect(text.trimmingWhitespaceAndNewlines() == text.trimmingCharacters(in: .whitespacesAndNewlines))
        let sub = Substring(text)
        #expect(sub.trimmingWhitespace() == sub.trimmingCharacters(in: .whitespaces))
    }
}
