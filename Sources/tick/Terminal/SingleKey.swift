import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// One key read from a terminal without waiting for Enter (`tick review`'s
/// answers): the terminal leaves canonical mode, echo and signal keys for the
/// read only and is restored before it returns, so no signal can leave it
/// that way. Ctrl-C and Esc read as `q`, Ctrl-D as the end of input.
enum SingleKey {
    /// The key pressed; nil at end of input (Ctrl-D, a closed terminal) or
    /// when stdin is no terminal.
    static func read() -> Character? {
        var saved = termios()
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return nil }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(STDIN_FILENO, TCSANOW, &raw) == 0 else { return nil }
        defer { _ = tcsetattr(STDIN_FILENO, TCSANOW, &saved) }
        guard let first = byte() else { return nil }
        switch first {
        case 0x04: return nil
        case 0x03, 0x1B: return "q"
        default: break
        }
        // The rest of a UTF-8 character.
        var bytes = [first]
        let more = first >= 0xF0 ? 3 : first >= 0xE0 ? 2 : first >= 0xC0 ? 1 : 0
        for _ in 0..<more {
            guard let b = byte() else { break }
            bytes.append(b)
        }
        return String(decoding: bytes, as: UTF8.self).first
    }

    private static func byte() -> UInt8? {
        var b: UInt8 = 0
        while true {
            let n = Glibc.read(STDIN_FILENO, &b, 1)
            if n == 1 { return b }
            if n < 0 && errno == EINTR { continue }
            return nil
        }
    }
}
