import FoundationEssentials
import Glibc

/// Which hints (``Hint``) this machine has shown for a store: machine-local
/// state (`$XDG_STATE_HOME/tick/<store>/hints`, one name per line), never in
/// the store, so each hint is shown once per store.
public struct HintRecord: Sendable {
    public let path: String

    public init(location: StoreLocation) {
        path = PathString.appending(location.stateDirectory, "hints")
    }

    /// The hints already shown.
    public func shown() -> Set<Hint> {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        return Set(String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).compactMap { Hint(rawValue: String($0)) })
    }

    /// Of `hints`, those not shown yet, recorded as shown now. When the
    /// record cannot be written the hints are still returned (a hint shown
    /// twice is better than a command that fails over one).
    public func take(_ hints: [Hint]) -> [Hint] {
        let before = shown()
        let new = hints.filter { !before.contains($0) }
        guard !new.isEmpty else { return [] }
        let all = Hint.allCases.filter { before.contains($0) || new.contains($0) }
        try? PrivateFiles.createDirectory(PathString.deletingLastComponent(path))
        try? AtomicFile.write(Array(all.map { $0.rawValue + "\n" }.joined().utf8), to: path, mode: PrivateFiles.fileMode)
        return new
    }

    /// Whether hints are on: `TICK_HINTS` (0/off/false/no, 1/on/true/yes)
    /// when set, else `hints` in config.toml (on by default).
    public static func enabled(config: TickConfig, environment: [String: String]) -> Bool {
        switch environment["TICK_HINTS"]?.trimmingWhitespace().lowercased() {
        case "0", "off", "false", "no": return false
        case "1", "on", "true", "yes": return true
        default: return config.hints
        }
    }
}
