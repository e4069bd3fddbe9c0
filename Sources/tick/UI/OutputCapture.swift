import Foundation

/// While `tick ui` runs, stdout and stderr go to an unlinked temporary file
/// instead of the terminal that curses draws on: the CLI code paths the UI
/// runs print their confirmations and warnings there, and the UI shows them
/// on its status line. The terminal stays reachable through ``tty``.
final class OutputCapture {
    /// A descriptor of the terminal (stdout as it was).
    let tty: Int32
    private let savedErr: Int32
    private let file: Int32
    private var active = false

    init(temporaryDirectory: String) throws {
        var template = Array((temporaryDirectory + "/tick-ui-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.map { mkstemp($0) } ?? -1 }
        guard fd >= 0 else { throw CLIError("cannot create a temporary file in \(temporaryDirectory): \(String(cString: strerror(errno)))") }
        // Unlinked at once: nothing is left behind, however the UI ends.
        unlink(String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self))
        file = fd
        tty = dup(STDOUT_FILENO)
        savedErr = dup(STDERR_FILENO)
    }

    /// Sends stdout and stderr to the file.
    func begin() {
        fflush(nil)
        dup2(file, STDOUT_FILENO)
        dup2(file, STDERR_FILENO)
        active = true
    }

    /// Gives stdout and stderr back to the terminal (for `$EDITOR`, and at the end).
    func end() {
        guard active else { return }
        fflush(nil)
        dup2(tty, STDOUT_FILENO)
        dup2(savedErr, STDERR_FILENO)
        active = false
    }

    /// What was written since the last call, and empties the file.
    func take() -> String {
        fflush(nil)
        let size = lseek(file, 0, SEEK_END)
        guard size > 0 else { return "" }
        var bytes = [UInt8](repeating: 0, count: Int(size))
        let n = bytes.withUnsafeMutableBytes { pread(file, $0.baseAddress, Int(size), 0) }
        ftruncate(file, 0)
        lseek(file, 0, SEEK_SET)
        return String(decoding: bytes.prefix(max(n, 0)), as: UTF8.self)
    }
}
