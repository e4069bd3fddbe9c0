import Glibc

/// Writes to tick's standard output or error, in place of Foundation's
/// `FileHandle.standardOutput.write` (not in FoundationEssentials): all the
/// bytes, retried after a signal; a stream that cannot take them (a closed
/// pipe) loses them, as before.
public enum StandardStream {
    public static func writeOut(_ bytes: some Collection<UInt8>) { write(bytes, to: 1) }
    public static func writeErr(_ bytes: some Collection<UInt8>) { write(bytes, to: 2) }
    public static func writeOut(_ text: String) { write(Array(text.utf8), to: 1) }
    public static func writeErr(_ text: String) { write(Array(text.utf8), to: 2) }

    /// Writes every byte of `bytes` to `fd`.
    public static func write(_ bytes: some Collection<UInt8>, to fd: Int32) {
        let array = Array(bytes)
        var offset = 0
        while offset < array.count {
            let n = array[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return }
            offset += n
        }
    }
}
