import FoundationEssentials
import Glibc

/// The machine-local record of the notices the bridge gave about single items
/// (an item it cannot read, a rule it keeps without reading), so each is said
/// once, not at every sync: `notices` under the bridge's directory, one
/// notice per line. A notice no longer found is forgotten, so the same
/// problem coming back later is said again.
public struct DavNotices: Sendable {
    /// The record's file.
    public let path: String

    public init(root: String) {
        path = root + "/notices"
    }

    /// The notices of `current` not given before, after which the record
    /// holds exactly `current`. A record that cannot be read counts as empty;
    /// one that cannot be written leaves the notices to be said again.
    public func fresh(_ current: [String]) -> [String] {
        let before: Set<String>
        if let data = FileManager.default.contents(atPath: path) {
            before = Set(String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init))
        } else {
            before = []
        }
        // One line per notice: a line break inside one (never expected) is shown as ⏎.
        let lines = current.map { TextRules.visible($0) }
        let now = Set(lines)
        if now != before {
            let text = now.sorted().map { $0 + "\n" }.joined()
            try? AtomicFile.write(Array(text.utf8), to: path, mode: nil, durable: false)
        }
        var seen = Set<String>()
        return zip(current, lines).compactMap { notice, line in
            before.contains(line) || !seen.insert(line).inserted ? nil : notice
        }
    }
}
