import FoundationEssentials
import Glibc

/// The hook scripts of a hooks directory, by event, in name order.
///
/// As in Taskwarrior, a script belongs to the event its file name starts
/// with (`on-modify.timewarrior`, `on-add-tagger`), and only executable
/// files run: `chmod -x` is how a hook is turned off. Editor backups
/// (`~`, `.swp`, `.bak`, `.orig`, `.dpkg-*`) never run.
public struct HookScripts: Sendable, Equatable {
    /// The directory they were read from.
    public let directory: String
    /// Absolute paths by event.
    public let scripts: [HookEvent: [String]]

    public init(directory: String, scripts: [HookEvent: [String]]) {
        self.directory = directory
        self.scripts = scripts
    }

    /// The scripts for `event`, in the order they run.
    public func scripts(for event: HookEvent) -> [String] { scripts[event] ?? [] }

    /// True when no event has a script.
    public var isEmpty: Bool { scripts.values.allSatisfy(\.isEmpty) }

    /// `$XDG_CONFIG_HOME/tick/hooks` (`~/.config/tick/hooks` without it),
    /// beside config.toml.
    public static func directory(environment: [String: String]) -> String {
        PathString.deletingLastComponent(TickConfig.path(environment: environment)) + "/hooks"
    }

    /// Reads `directory`; a missing directory has no scripts.
    public static func load(directory: String) -> HookScripts {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        var scripts: [HookEvent: [String]] = [:]
        for name in names.sorted() where !isBackup(name) {
            guard let event = HookEvent.allCases.first(where: { name.hasPrefix($0.rawValue) }) else { continue }
            let path = directory + "/" + name
            guard PathStat.isDirectory(path) == false,
                  access(path, X_OK) == 0 else { continue }
            scripts[event, default: []].append(path)
        }
        return HookScripts(directory: directory, scripts: scripts)
    }

    static func isBackup(_ name: String) -> Bool {
        name.hasSuffix("~") || name.hasPrefix(".") || [".swp", ".bak", ".orig", ".tmp"].contains { name.hasSuffix($0) }
            || name.contains(".dpkg-")
    }
}
