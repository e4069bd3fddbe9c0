import FoundationEssentials
import Glibc
import TickKit

/// A one-line progress bar on stderr, for terminals.
enum ProgressBar {
    static func draw(done: Int, total: Int, unit: String) {
        guard total > 0 else { return }
        let width = 30
        let filled = width * min(done, total) / total
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        StandardStream.writeErr("\r[\(bar)] \(done)/\(total) \(unit)".utf8)
        if done >= total { StandardStream.writeErr("\n") }
    }
}
