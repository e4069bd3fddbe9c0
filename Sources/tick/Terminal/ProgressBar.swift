import Foundation

/// A one-line progress bar on stderr, for terminals.
enum ProgressBar {
    static func draw(done: Int, total: Int, unit: String) {
        guard total > 0 else { return }
        let width = 30
        let filled = width * min(done, total) / total
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        FileHandle.standardError.write(Data("\r[\(bar)] \(done)/\(total) \(unit)".utf8))
        if done >= total { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
