import FoundationEssentials
import Glibc

/// What a finished program printed, and its exit status.
public struct ProcessResult: Sendable {
    public var status: Int32
    public var stdout: [UInt8]
    public var stderr: String

    public var succeeded: Bool { status == 0 }

    /// Stdout as text, without the final newline.
    public var output: String {
        var s = String(decoding: stdout, as: UTF8.self)
        while s.hasSuffix("\n") { s.removeLast() }
        return s
    }

    /// What the program said (stderr, then stdout), trimmed: for reporting a failure.
    public var message: String {
        let parts = [stderr, String(decoding: stdout, as: UTF8.self)]
            .map { $0.trimmingWhitespaceAndNewlines() }
            .filter { !$0.isEmpty }
        return parts.joined(separator: "\n")
    }
}
