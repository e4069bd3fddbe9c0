import FoundationEssentials

extension Zone {
    /// The `/etc/localtime` of Linux systems.
    public static let systemLocaltime = "/etc/localtime"

    /// The process's zone, resolved from `environment["TZ"]` as the C library does:
    /// - unset: the file `localtime` (named after its symlink target inside a zoneinfo directory);
    /// - empty: UTC;
    /// - `:Name` or `Name`: the TZif file `zoneinfo/Name`; an absolute path: that file;
    /// - otherwise (no such file) a POSIX TZ string such as `EST5EDT,M3.2.0,M11.1.0`;
    /// - anything unreadable or unparsable: UTC, as glibc does.
    public static func process(environment: [String: String], zoneinfo: String = Zone.systemDirectory,
                               localtime: String = Zone.systemLocaltime) -> Zone {
        guard let value = environment["TZ"] else {
            return (try? load(path: localtime, identifier: localtimeName(localtime))) ?? .utc
        }
        if value.isEmpty { return .utc }
        let name = value.hasPrefix(":") ? String(value.dropFirst()) : value
        if name.hasPrefix("/") {
            return (try? load(path: name, identifier: zoneName(inPath: name) ?? name)) ?? .utc
        }
        if let zone = try? load(named: name, directory: zoneinfo) { return zone }
        if !value.hasPrefix(":"), let zone = try? Zone(posix: value) { return zone }
        return .utc
    }

    /// "Europe/Berlin" for a path `.../zoneinfo/Europe/Berlin`, else nil.
    static func zoneName(inPath path: String) -> String? {
        let parts = path.split(separator: "/")
        guard let index = parts.lastIndex(of: "zoneinfo"), index + 1 < parts.count else { return nil }
        return parts[(index + 1)...].joined(separator: "/")
    }

    /// The name of the zone `/etc/localtime` links to ("Europe/Berlin"), else "localtime".
    static func localtimeName(_ path: String) -> String {
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path) else { return "localtime" }
        return zoneName(inPath: target) ?? "localtime"
    }
}
