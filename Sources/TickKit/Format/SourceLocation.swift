/// A position in a text file, 1-based, for error messages.
public struct SourceLocation: Sendable, Equatable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    /// The full text of the line, without its newline.
    public var lineText: String

    public init(line: Int, column: Int, lineText: String) {
        self.line = line
        self.column = column
        self.lineText = lineText
    }

    /// Computes the line and column (in characters) of a byte offset.
    public init(offset: Int, in bytes: [UInt8]) {
        let end = min(max(offset, 0), bytes.count)
        var line = 1
        var lineStart = 0
        var i = 0
        while i < end {
            if bytes[i] == 0x0A {
                line += 1
                lineStart = i + 1
            }
            i += 1
        }
        var lineEnd = lineStart
        while lineEnd < bytes.count, bytes[lineEnd] != 0x0A { lineEnd += 1 }
        let prefix = String(decoding: bytes[lineStart..<end], as: UTF8.self)
        var text = String(decoding: bytes[lineStart..<lineEnd], as: UTF8.self)
        if text.hasSuffix("\r") { text.removeLast() }
        self.init(line: line, column: prefix.count + 1, lineText: text)
    }

    public var description: String { "\(line):\(column)" }

    /// The offending line followed by a caret under the column.
    public var caretSnippet: String {
        let visible = lineText.replacingAll("\t", with: " ")
        let pad = String(repeating: " ", count: max(column - 1, 0))
        return "    \(visible)\n    \(pad)^"
    }
}
