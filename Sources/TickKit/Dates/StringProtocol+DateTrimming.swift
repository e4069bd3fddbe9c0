import FoundationEssentials

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs (Unicode category Zs, U+0009
    /// and U+200B: exactly what Foundation's `.whitespaces` trims), without Foundation's
    /// ICU-backed `trimmingCharacters(in:)`.
    func trimmingDateSpaces() -> String {
        trimmingScalars { $0 == "\t" || $0 == "\u{200B}" || $0.properties.generalCategory == .spaceSeparator }
    }

    /// The text without leading and trailing white space and line breaks (Unicode's
    /// White_Space property and U+200B: exactly what Foundation's `.whitespacesAndNewlines` trims).
    func trimmingDateWhitespace() -> String {
        trimmingScalars { $0 == "\u{200B}" || $0.properties.isWhitespace }
    }

    private func trimmingScalars(_ isTrimmed: (Unicode.Scalar) -> Bool) -> String {
        let string = String(self)
        let scalars = string.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isTrimmed($0) }),
              let last = scalars.lastIndex(where: { !isTrimmed($0) })
        else { return "" }
        return String(Substring(scalars[first...last]))
    }
}
