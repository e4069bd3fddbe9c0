import FoundationEssentials

/// What text tick accepts as new input (command line, imports), and how it
/// shows any text on a terminal. Files a human edited are never refused over
/// this: their text is shown with ``visible(_:keepingNewlines:)``.
///
/// Limits count Unicode code points. Titles and list names hold no control
/// characters at all (C0, DEL, C1: U+0000–U+001F, U+007F–U+009F); notes may
/// hold any but NUL (newlines and tabs are ordinary there).
public enum TextRules {
    /// Longest task title, in code points.
    public static let maxTitleLength = 1_000
    /// Longest list name, in code points.
    public static let maxListNameLength = 200
    /// Longest notes text, in code points.
    public static let maxNotesLength = 100_000

    /// True for C0 controls, DEL and C1 controls.
    public static func isControl(_ s: Unicode.Scalar) -> Bool {
        s.value < 0x20 || (0x7F...0x9F).contains(s.value)
    }

    /// Why `title` cannot be a task title, or nil when it can.
    public static func titleProblem(_ title: String) -> String? {
        lineProblem(title, what: "a title", limit: maxTitleLength)
    }

    /// Why `text` cannot be the value of a declared text field (``UserField``), or nil when it can.
    public static func fieldTextProblem(_ text: String) -> String? {
        lineProblem(text, what: "a field's text", limit: maxTitleLength)
    }

    /// Why `name` cannot be a list name, or nil when it can.
    public static func listNameProblem(_ name: String) -> String? {
        lineProblem(name, what: "a list name", limit: maxListNameLength)
    }

    /// Why `notes` cannot be a task's notes, or nil when they can.
    public static func notesProblem(_ notes: String) -> String? {
        if notes.unicodeScalars.contains("\u{0}") { return "notes cannot contain NUL (U+0000)" }
        let count = notes.unicodeScalars.count
        if count > maxNotesLength { return "notes are \(count) characters long; at most \(maxNotesLength) are allowed" }
        return nil
    }

    /// The first problem of an imported task's title, notes or list name.
    public static func importProblem(title: String, notes: String?, list: String?) -> String? {
        titleProblem(title) ?? notes.flatMap(notesProblem) ?? list.flatMap(listNameProblem)
    }

    /// The first problem of a task's title or notes as a CalDAV item brings
    /// them (Docs/DAV.md): what a hand-edited store file may hold is taken, so
    /// C0 controls other than NUL and line breaks, DEL and C1 controls come in
    /// as they are and are shown visibly (``visible(_:keepingNewlines:)``) like
    /// bidi format characters; NUL, a line break in a title and over-long
    /// text are refused.
    public static func bridgedProblem(title: String, notes: String?) -> String? {
        if let c = title.unicodeScalars.first(where: { $0 == "\u{0}" || $0 == "\n" || $0 == "\r" }) {
            return "a title cannot contain \(name(of: c))"
        }
        let count = title.unicodeScalars.count
        if count > maxTitleLength { return "a title is \(count) characters long; at most \(maxTitleLength) are allowed" }
        return notes.flatMap(notesProblem)
    }

    private static func lineProblem(_ text: String, what: String, limit: Int) -> String? {
        if let c = text.unicodeScalars.first(where: isControl) {
            return "\(what) cannot contain control characters (found \(name(of: c)))"
        }
        let count = text.unicodeScalars.count
        if count > limit { return "\(what) is \(count) characters long; at most \(limit) are allowed" }
        return nil
    }

    /// "a newline (U+000A)", "ESC (U+001B)", "U+009B".
    private static func name(of s: Unicode.Scalar) -> String {
        let code = "U+" + String(repeating: "0", count: max(0, 4 - String(s.value, radix: 16).count)) + String(s.value, radix: 16, uppercase: true)
        switch s.value {
        case 0x0A: return "a newline (\(code))"
        case 0x09: return "a tab (\(code))"
        case 0x0D: return "a carriage return (\(code))"
        case 0x00: return "NUL (\(code))"
        case 0x1B: return "ESC (\(code))"
        default: return code
        }
    }

    /// True for the invisible format characters that reorder or hide text on
    /// a terminal: the bidi embeddings and overrides (U+202A–U+202E), the
    /// isolates (U+2066–U+2069), the directional marks (U+200E, U+200F) and
    /// the Arabic letter mark (U+061C). A title holding U+202E shows its
    /// characters reversed ("Trojan Source"); these are shown visibly.
    public static func isBidiFormat(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// `text` with every control character shown as visible text, so that it
    /// cannot move the cursor, clear the screen, set the window title or
    /// write the clipboard: ESC is `^[`, other C0 controls `^@`…`^_`, DEL
    /// `^?`, C1 controls `\u{9B}`. The bidi format characters
    /// (``isBidiFormat(_:)``) are shown the same way (`\u{202E}`), so they
    /// cannot reorder what follows them. A newline is `⏎` unless
    /// `keepingNewlines`; a tab is kept (it only advances the cursor).
    public static func visible(_ text: String, keepingNewlines: Bool = false) -> String {
        guard needsWork(text, keepingNewlines: keepingNewlines) else { return text }
        var out = String.UnicodeScalarView()
        for s in text.unicodeScalars {
            switch s.value {
            case 0x09: out.append(s)
            case 0x0A where keepingNewlines: out.append(s)
            case 0x0A: out.append("\u{23CE}")
            case 0x00..<0x20:
                out.append("^")
                out.append(Unicode.Scalar(UInt8(s.value + 0x40)))
            case 0x7F: out.append(contentsOf: "^?".unicodeScalars)
            case 0x80...0x9F: out.append(contentsOf: "\\u{\(String(s.value, radix: 16, uppercase: true))}".unicodeScalars)
            case _ where isBidiFormat(s): out.append(contentsOf: "\\u{\(String(s.value, radix: 16, uppercase: true))}".unicodeScalars)
            default: out.append(s)
            }
        }
        return String(out)
    }

    /// A quick byte scan: most text has nothing to show differently.
    private static func needsWork(_ text: String, keepingNewlines: Bool) -> Bool {
        if let found = text.utf8.withContiguousStorageIfAvailable({ needsWork($0, keepingNewlines: keepingNewlines) }) {
            return found
        }
        return needsWork(Array(text.utf8), keepingNewlines: keepingNewlines)
    }

    private static func needsWork<C: Collection<UInt8>>(_ bytes: C, keepingNewlines: Bool) -> Bool {
        var previous: UInt8 = 0
        var beforePrevious: UInt8 = 0
        for b in bytes {
            // Printable ASCII is never a control nor part of a bidi control's bytes.
            if b >= 0x20 && b < 0x7F { beforePrevious = previous; previous = b; continue }
            if b < 0x20 {
                if b == 0x09 || (b == 0x0A && keepingNewlines) { beforePrevious = previous; previous = b; continue }
                return true
            }
            // DEL, or a C1 control (UTF-8 C2 80 … C2 9F).
            if b == 0x7F || (previous == 0xC2 && (0x80...0x9F).contains(b)) { return true }
            // U+061C (D8 9C); U+200E/F, U+202A–E (E2 80 8E/8F, AA–AE); U+2066–9 (E2 81 A6–A9).
            if previous == 0xD8 && b == 0x9C { return true }
            if beforePrevious == 0xE2 {
                if previous == 0x80 && (b == 0x8E || b == 0x8F || (0xAA...0xAE).contains(b)) { return true }
                if previous == 0x81 && (0xA6...0xA9).contains(b) { return true }
            }
            beforePrevious = previous
            previous = b
        }
        return false
    }
}
