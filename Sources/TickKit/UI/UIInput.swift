/// The text of the input line and its cursor (in characters).
public struct UIInput: Sendable, Equatable {
    public private(set) var text: String
    /// Characters before the cursor.
    public private(set) var cursor: Int

    /// The line holding `text`, the cursor at its end.
    public init(_ text: String = "") {
        self.text = text
        cursor = text.count
    }

    /// True when there is nothing but spaces.
    public var isBlank: Bool { text.allSatisfy(\.isWhitespace) }

    /// The text before the cursor.
    public var beforeCursor: String { String(text.prefix(cursor)) }

    /// Types a character at the cursor.
    public mutating func insert(_ c: Character) {
        var chars = Array(text)
        chars.insert(c, at: cursor)
        text = String(chars)
        cursor += 1
    }

    /// Deletes the character before the cursor.
    public mutating func backspace() {
        guard cursor > 0 else { return }
        var chars = Array(text)
        chars.remove(at: cursor - 1)
        text = String(chars)
        cursor -= 1
    }

    /// Deletes the character under the cursor.
    public mutating func deleteForward() {
        var chars = Array(text)
        guard cursor < chars.count else { return }
        chars.remove(at: cursor)
        text = String(chars)
    }

    /// Cursor movements, kept inside the text.
    public mutating func left() { cursor = max(cursor - 1, 0) }
    public mutating func right() { cursor = min(cursor + 1, text.count) }
    public mutating func home() { cursor = 0 }
    public mutating func end() { cursor = text.count }

    /// Ctrl-U: deletes everything before the cursor.
    public mutating func killToStart() {
        text = String(text.dropFirst(cursor))
        cursor = 0
    }

    /// Ctrl-K: deletes everything after the cursor.
    public mutating func killToEnd() {
        text = String(text.prefix(cursor))
    }

    /// Ctrl-W: deletes the word before the cursor (and the spaces after it).
    public mutating func deleteWord() {
        var chars = Array(text)
        var start = cursor
        while start > 0, chars[start - 1].isWhitespace { start -= 1 }
        while start > 0, !chars[start - 1].isWhitespace { start -= 1 }
        chars.removeSubrange(start..<cursor)
        text = String(chars)
        cursor = start
    }
}
