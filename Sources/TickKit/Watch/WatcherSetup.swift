import FoundationEssentials
import Glibc

/// How this machine starts the watcher (`tick watch`): the systemd user unit
/// `tick-watch.service` when `make install` or the .deb put it where systemd
/// looks, else `tick watch` by hand.
public enum WatcherSetup {
    /// The unit's file name.
    public static let unitName = "tick-watch.service"

    /// The directories systemd reads user units from, as `environment` places
    /// them (`$XDG_CONFIG_HOME`, `$XDG_DATA_HOME`, `/etc`, `/usr/local`, `/usr`).
    public static func unitDirectories(environment: [String: String]) -> [String] {
        let home = environment["HOME"] ?? "/"
        func xdg(_ key: String, _ fallback: String) -> String {
            let value = environment[key] ?? ""
            return value.hasPrefix("/") ? value : PathString.appending(home, fallback)
        }
        return [
            PathString.appending(xdg("XDG_CONFIG_HOME", ".config"), "systemd/user"),
            PathString.appending(xdg("XDG_DATA_HOME", ".local/share"), "systemd/user"),
            "/etc/systemd/user", "/usr/local/lib/systemd/user", "/usr/local/share/systemd/user",
            "/usr/lib/systemd/user", "/usr/share/systemd/user",
        ]
    }

    /// True when `tick-watch.service` is in one of `directories`.
    public static func unitInstalled(in directories: [String]) -> Bool {
        directories.contains { FileManager.default.fileExists(atPath: PathString.appending($0, unitName)) }
    }

    /// The command that starts the watcher now and at every login.
    public static func enableCommand(unitInstalled: Bool) -> String {
        unitInstalled
            ? "systemctl --user enable --now tick-watch"
            : "tick watch (keep it running: start it from your session's autostart, Docs/DESKTOP.md)"
    }
}
