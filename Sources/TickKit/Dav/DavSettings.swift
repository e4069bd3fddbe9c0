import FoundationEssentials
import Glibc

/// `[dav]` in config.toml: the CalDAV bridge (Docs/DAV.md).
///
/// ```toml
/// [dav]
/// path = "~/.local/share/tick-dav"   # the vdir, its base copy, vdirsyncer's status
/// lists = ["Work", "Home"]           # bridged lists (absent: all)
/// inbox = true                       # bridge the inbox
/// inbox-name = "Inbox"               # the inbox collection's display name
/// vdirsyncer = "vdirsyncer"          # the program
/// watch = true                       # `tick watch` syncs
/// interval = "45s"                   # ... this often (the phone's changes come in), and
/// debounce = "2s"                    # ... this long after a store change (tick's go out)
/// discover = "5m"                    # calendars made elsewhere are looked for this often
/// ```
public struct DavSettings: Sendable, Equatable {
    /// The bridge's machine-local directory; nil: ``defaultPath(environment:)``.
    public var path: String?
    /// The lists bridged, by name (case-insensitive); nil: every list.
    public var lists: [String]?
    public var inbox = true
    public var inboxName = "Inbox"
    public var vdirsyncer = "vdirsyncer"
    public var watch = true
    /// How often `tick watch` syncs: a change made on the phone (and synced
    /// to the server) reaches the store within this plus one sync.
    public var interval: TimeInterval = 45
    /// Quiet time after a store change before `tick watch` syncs: a change
    /// made in tick reaches the server within this plus one sync (issue 26:
    /// 10 s).
    public var debounce: TimeInterval = 2
    /// How often a sync asks the server for its calendars (`vdirsyncer
    /// discover`, then `metasync`): a calendar made on the phone or by
    /// another machine becomes a list within this plus one sync. A sync in
    /// between starts vdirsyncer only to sync (issue 34: a no-op sync within
    /// 2x of vdirsyncer alone); one whose lists changed discovers at once.
    public var discover: TimeInterval = 300

    public init() {}

    /// `$XDG_DATA_HOME/tick-dav` (`~/.local/share/tick-dav`): next to the
    /// default store, never inside it.
    public static func defaultPath(environment: [String: String]) -> String {
        let base: String
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            base = xdg
        } else {
            base = (environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "/") + "/.local/share"
        }
        return base + "/tick-dav"
    }

    /// The directory, `~` expanded.
    public func resolvedPath(environment: [String: String]) -> String {
        guard let path else { return Self.defaultPath(environment: environment) }
        if path == "~" || path.hasPrefix("~/") { return (environment["HOME"] ?? "") + path.dropFirst() }
        return path
    }

    /// True when the list named `name` is bridged.
    public func bridges(listNamed name: String) -> Bool {
        guard let lists else { return true }
        return lists.contains { $0.lowercased() == name.lowercased() }
    }
}
