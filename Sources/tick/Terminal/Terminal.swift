import FoundationEssentials
import Glibc
import TickKit

/// Where output goes, and whether it may be colored.
///
/// Every text line written here shows control characters visibly (see
/// ``TextRules/visible(_:keepingNewlines:)``), so titles, notes and list names
/// can never send escape sequences to the terminal. tick's own styles are
/// built with a per-process token instead of ESC, and only that token becomes
/// ESC on the way out.
struct Terminal {
    let color: Bool
    let stdoutIsTTY: Bool
    let stdinIsTTY: Bool
    let stderrIsTTY: Bool
    /// Columns of the terminal stdout writes to: `$COLUMNS` when set, else the
    /// terminal's own size; nil when stdout is not a terminal (pipes get whole rows).
    let width: Int?

    init(noColorFlag: Bool, environment: [String: String]) {
        stdoutIsTTY = isatty(STDOUT_FILENO) == 1
        width = stdoutIsTTY ? Self.columns(environment: environment) : nil
        stdinIsTTY = isatty(STDIN_FILENO) == 1
        stderrIsTTY = isatty(STDERR_FILENO) == 1
        let noColorEnv = !(environment["NO_COLOR"] ?? "").isEmpty
        let dumb = environment["TERM"] == "dumb"
        color = !noColorFlag && !noColorEnv && !dumb && stdoutIsTTY
    }

    /// Writes one line to stdout (a newline inside shows as `⏎`).
    func out(_ line: String) {
        StandardStream.writeOut((Self.shown(line) + "\n").utf8)
    }

    /// Writes many lines to stdout with one write.
    func outLines(_ lines: [String]) {
        var text = lines.map { Self.shown($0) }.joined(separator: "\n")
        if !lines.isEmpty { text.append("\n") }
        StandardStream.writeOut(text.utf8)
    }

    /// Writes machine-readable text (JSON, status-bar protocols) to stdout
    /// exactly, without adding a newline; it must already be safe (JSON escapes controls).
    func outRaw(_ text: String) {
        StandardStream.writeOut(text.utf8)
    }

    /// Writes a message to stderr; its own newlines are kept (git output, hints).
    func err(_ message: String) {
        StandardStream.writeErr((Self.shown(message, keepingNewlines: true) + "\n").utf8)
    }

    /// Writes one log line to stderr (a newline inside shows as `⏎`, so no line can be forged).
    func errLine(_ line: String) {
        StandardStream.writeErr((Self.shown(line) + "\n").utf8)
    }

    /// `$COLUMNS` when it is a number from 20, else TIOCGWINSZ on stdout, else nil.
    static func columns(environment: [String: String]) -> Int? {
        if let text = environment["COLUMNS"], let n = Int(text), n >= 20 { return n }
        var size = winsize()
        if withUnsafeMutablePointer(to: &size, { ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), $0) }) == 0, size.ws_col >= 20 { return Int(size.ws_col) }
        return nil
    }

    /// Terminal cells that styled text takes once written: tick's style codes
    /// take none, control characters their visible form (``shown(_:keepingNewlines:)``).
    static func cells(_ styled: String) -> Int {
        CellWidth.of(TextRules.visible(unstyled(styled)))
    }

    /// Styled text without tick's style codes.
    static func unstyled(_ styled: String) -> String {
        guard mayHoldToken(styled) else { return styled }
        var out = ""
        var rest = Substring(styled)
        while let r = rest.literalRange(of: escapeToken) {
            out += rest[..<r.lowerBound]
            rest = rest[r.upperBound...]
            // Skip `[codes m`.
            if let m = rest.firstIndex(of: "m") { rest = rest[rest.index(after: m)...] }
        }
        return out + rest
    }

    // MARK: Making text safe

    /// U+FDD0, a noncharacter (Swift refuses it in literals), EF B7 90 in UTF-8.
    private static let markerBytes: [UInt8] = [0xEF, 0xB7, 0x90]
    private static let marker = String(decoding: markerBytes, as: UTF8.self)
    /// A random word per process: text read from files cannot know it.
    private static let nonce = String(UInt64.random(in: .min ... .max), radix: 36)
    /// Stands for ESC in styled text until it is written (see ``shown(_:keepingNewlines:)``).
    private static let escapeToken = marker + nonce + "e"
    /// tick's own terminal bell: `t.errLine(text + Terminal.bell)`.
    static let bell = marker + nonce + "b"

    /// Text as it goes to the terminal: controls made visible, then tick's own style tokens turned into ESC and BEL.
    static func shown(_ text: String, keepingNewlines: Bool = false) -> String {
        var s = TextRules.visible(text, keepingNewlines: keepingNewlines)
        if mayHoldToken(s) {
            s = s.replacingAll(escapeToken, with: "\u{1B}").replacingAll(bell, with: "\u{07}")
        }
        return s
    }

    /// False when `text` holds no token for sure (no marker's bytes, EF B7 90):
    /// most text, passed by without a search by characters.
    private static func mayHoldToken(_ text: String) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { b in
            guard let base = b.baseAddress else { return false }
            var from = 0
            while from < b.count, let hit = memchr(base + from, 0xB7, b.count - from) {
                let i = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                if i > 0, i + 1 < b.count, b[i - 1] == markerBytes[0], b[i + 1] == markerBytes[2] { return true }
                from = i + 1
            }
            return false
        } ?? text.utf8.contains(0xB7)
    }

    // MARK: Styles (no-ops without color)

    func style(_ text: String, _ codes: String) -> String {
        color ? "\(Self.escapeToken)[\(codes)m\(text)\(Self.escapeToken)[0m" : text
    }

    func bold(_ s: String) -> String { style(s, "1") }
    func dim(_ s: String) -> String { style(s, "2") }
    func red(_ s: String) -> String { style(s, "31") }
    func boldRed(_ s: String) -> String { style(s, "1;31") }
    func yellow(_ s: String) -> String { style(s, "33") }
    func cyan(_ s: String) -> String { style(s, "36") }
    func magenta(_ s: String) -> String { style(s, "35") }
    func strike(_ s: String) -> String { style(s, "2;9") }

    /// Text in a list's `#rrggbb` color (24-bit), bold.
    func colored(_ s: String, hex: String?) -> String {
        guard color, let hex, hex.count == 7, let v = Int(hex.dropFirst(), radix: 16) else { return bold(s) }
        return "\(Self.escapeToken)[1;38;2;\(v >> 16);\((v >> 8) & 0xFF);\(v & 0xFF)m\(s)\(Self.escapeToken)[0m"
    }
}
