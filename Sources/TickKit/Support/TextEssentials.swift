import Glibc

/// The string operations tick used from full Foundation (which needs ICU),
/// written on the standard library: trimming Foundation's whitespace sets,
/// literal replacement and search, padding, and printf-style numbers. Named
/// apart from Foundation's so that code importing both is never ambiguous.
extension StringProtocol {
    /// Trimmed of Foundation's `CharacterSet.whitespaces` (tab and the
    /// space separators, Unicode `Zs`) at both ends.
    public func trimmingWhitespace() -> String {
        trimmingScalars(where: TextClass.isWhitespace)
    }

    /// Trimmed of Foundation's `CharacterSet.whitespacesAndNewlines` (also
    /// U+000A–U+000D, U+0085, U+2028, U+2029) at both ends.
    public func trimmingWhitespaceAndNewlines() -> String {
        trimmingScalars(where: TextClass.isWhitespaceOrNewline)
    }

    /// Trimmed of the scalars matching `test` at both ends.
    public func trimmingScalars(where test: (Unicode.Scalar) -> Bool) -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !test($0) }) else { return "" }
        guard let last = scalars.lastIndex(where: { !test($0) }) else { return "" }
        var kept = String.UnicodeScalarView()
        kept.append(contentsOf: scalars[first...last])
        return String(kept)
    }

    /// Every occurrence of `target` replaced by `replacement`, matched on
    /// UTF-8 bytes (a literal search: `\n` is found inside `\r\n`).
    public func replacingAll(_ target: String, with replacement: String) -> String {
        let haystack = Array(utf8)
        let needle = Array(target.utf8)
        guard !needle.isEmpty, haystack.count >= needle.count else { return String(self) }
        var out: [UInt8] = []
        out.reserveCapacity(haystack.count)
        var i = 0
        var changed = false
        while i < haystack.count {
            if haystack[i] == needle[0], i + needle.count <= haystack.count, haystack[i..<(i + needle.count)].elementsEqual(needle) {
                out.append(contentsOf: replacement.utf8)
                i += needle.count
                changed = true
            } else {
                out.append(haystack[i])
                i += 1
            }
        }
        return changed ? String(decoding: out, as: UTF8.self) : String(self)
    }

    /// The first occurrence of `target`, matched on unicode scalars (literal).
    public func literalRange(of target: String) -> Range<Index>? {
        literalRanges(of: target, last: false)
    }

    /// The last occurrence of `target`, matched on unicode scalars (literal),
    /// as Foundation's `range(of:options: .backwards)`.
    public func lastLiteralRange(of target: String) -> Range<Index>? {
        literalRanges(of: target, last: true)
    }

    private func literalRanges(of target: String, last: Bool) -> Range<Index>? {
        let needle = Array(target.unicodeScalars)
        guard let first = needle.first else { return nil }
        let scalars = unicodeScalars
        var found: Range<Index>?
        var i = scalars.startIndex
        while i != scalars.endIndex {
            if scalars[i] == first {
                var j = i, k = 0
                while k < needle.count, j != scalars.endIndex, scalars[j] == needle[k] {
                    j = scalars.index(after: j)
                    k += 1
                }
                if k == needle.count {
                    found = i..<j
                    if !last { return found }
                }
            }
            i = scalars.index(after: i)
        }
        return found
    }

    /// Padded with spaces or cut to `length` UTF-16 units, as Foundation's
    /// `padding(toLength:withPad:" "startingAt:0)`.
    public func paddedOrCut(toLength length: Int) -> String {
        let count = utf16.count
        if count < length { return String(self) + String(repeating: " ", count: length - count) }
        var out = String.UnicodeScalarView()
        var used = 0
        for scalar in unicodeScalars {
            let width = scalar.value > 0xFFFF ? 2 : 1
            if used + width > length { break }
            out.append(scalar)
            used += width
        }
        return String(out)
    }
}

/// Foundation's character classes that tick tests scalars against.
public enum TextClass {
    /// `CharacterSet.whitespaces`: tab, Unicode `Zs`, and U+200B (zero
    /// width space, a `Zs` in Unicode 4.0, where Foundation's set kept it).
    public static func isWhitespace(_ s: Unicode.Scalar) -> Bool {
        s == "\t" || s.value == 0x200B || s.properties.generalCategory == .spaceSeparator
    }

    /// `CharacterSet.whitespacesAndNewlines`.
    public static func isWhitespaceOrNewline(_ s: Unicode.Scalar) -> Bool {
        isWhitespace(s) || (0x0A...0x0D).contains(s.value) || s.value == 0x85 || s.value == 0x2028 || s.value == 0x2029
    }

    /// `CharacterSet.letters`: Unicode categories L* and M* (of the
    /// standard library's Unicode version, which knows scalars of Unicode 16
    /// and 17 that Foundation's tables did not: DECISIONS.md).
    public static func isLetter(_ s: Unicode.Scalar) -> Bool {
        switch s.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return false
        }
    }

    /// `CharacterSet.alphanumerics`: Unicode categories L*, M* and N*.
    public static func isAlphanumeric(_ s: Unicode.Scalar) -> Bool {
        if isLetter(s) { return true }
        switch s.properties.generalCategory {
        case .decimalNumber, .letterNumber, .otherNumber: return true
        default: return false
        }
    }
}

/// printf-style formatting through the C library (`vsnprintf`), for the few
/// numbers tick formats so (`%.1f`, `%04x`): the same digits as Foundation's
/// `String(format:)`, which called the same code.
public enum CFormat {
    /// `format` applied to `arguments` (C conversions only, no `%@`).
    public static func string(_ format: String, _ arguments: any CVarArg...) -> String {
        withVaList(arguments) { list in
            var buffer = [CChar](repeating: 0, count: 256)
            let n = buffer.withUnsafeMutableBufferPointer { vsnprintf($0.baseAddress, 256, format, list) }
            guard n >= 0 else { return "" }
            if Int(n) < 256 { return String(decoding: buffer[0..<Int(n)].map { UInt8(bitPattern: $0) }, as: UTF8.self) }
            return withVaList(arguments) { again in
                var big = [CChar](repeating: 0, count: Int(n) + 1)
                _ = big.withUnsafeMutableBufferPointer { vsnprintf($0.baseAddress, Int(n) + 1, format, again) }
                return String(decoding: big[0..<Int(n)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
        }
    }
}
