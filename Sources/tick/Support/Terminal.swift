import Foundation

/// Where output goes, and whether it may be colored.
struct Terminal {
    let color: Bool
    let stdoutIsTTY: Bool
    let stdinIsTTY: Bool
    let stderrIsTTY: Bool

    init(noColorFlag: Bool, environment: [String: String]) {
        stdoutIsTTY = isatty(STDOUT_FILENO) == 1
        stdinIsTTY = isatty(STDIN_FILENO) == 1
        stderrIsTTY = isatty(STDERR_FILENO) == 1
        let noColorEnv = !(environment["NO_COLOR"] ?? "").isEmpty
        let dumb = environment["TERM"] == "dumb"
        color = !noColorFlag && !noColorEnv && !dumb && stdoutIsTTY
    }

    /// Writes a line to stdout.
    func out(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// Writes many lines to stdout with one write.
    func outLines(_ lines: [String]) {
        var text = lines.joined(separator: "\n")
        if !lines.isEmpty { text.append("\n") }
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// Writes text to stdout without adding a newline.
    func outRaw(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// Writes a line to stderr.
    func err(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    // MARK: Styles (no-ops without color)

    func style(_ text: String, _ codes: String) -> String {
        color ? "\u{1B}[\(codes)m\(text)\u{1B}[0m" : text
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
        return "\u{1B}[1;38;2;\(v >> 16);\((v >> 8) & 0xFF);\(v & 0xFF)m\(s)\u{1B}[0m"
    }
}
