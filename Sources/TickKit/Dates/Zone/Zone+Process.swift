import FoundationEssentials

extension Zone {
    /// The `/etc/localtime` of Linux systems.
    public static let systemLocaltime = "/etc/localtime"

    /// The process's zone, resolved from `environment["TZ"]` as glibc (2.36, `tzset`) does:
    /// - unset: the file `localtime` (named after its symlink target inside a zoneinfo directory);
    /// - empty, or `:` alone: UTC;
    /// - otherwise, after one leading `:` is dropped: the TZif file at that path, absolute or
    ///   relative to `zoneinfo` (`Europe/Berlin`, `../zoneinfo/Europe/Berlin`: glibc refuses
    ///   `..` only in setuid programs);
    /// - no such file: the value as glibc reads a POSIX TZ string (``GlibcTimeZoneRule``),
    ///   a daylight name without rules taking its changes from `zoneinfo/posixrules`;
    /// - anything glibc reads as UTC is UTC.
    public static func process(environment: [String: String], zoneinfo: String = Zone.systemDirectory,
                               localtime: String = Zone.systemLocaltime) -> Zone {
        guard let raw = environment["TZ"] else {
            return (try? load(path: localtime, identifier: localtimeName(localtime))) ?? .utc
        }
        let value = raw.hasPrefix(":") ? String(raw.dropFirst()) : raw
        // glibc reads "" as the zone "Universal" (UTC whether or not the file exists).
        if value.isEmpty { return .utc }
        let path = value.hasPrefix("/") ? value : zoneinfo + "/" + value
        if let zone = try? load(path: path, identifier: fileName(value, path: path, zoneinfo: zoneinfo)) { return zone }
        switch GlibcTimeZoneRule.reading(value) {
        case .utc:
            // glibc found no standard name and offset: UTC (its abbreviation is the letters it read).
            return .utc
        case .rule(let rule):
            return Zone(identifier: value, source: .glibcRule(rule))
        case .posixRules(let standard, let daylight, let otherwise):
            if let data = FileManager.default.contents(atPath: zoneinfo + "/posixrules"),
               let file = try? TZifFile(bytes: [UInt8](data), path: zoneinfo + "/posixrules"),
               let moved = TZifFile(posixRules: file, standard: standard, daylight: daylight) {
                return Zone(identifier: value, source: .file(moved))
            }
            return Zone(identifier: value, source: .glibcRule(otherwise))
        }
    }

    /// The name of a zone read from a file: "Europe/Berlin" for `Europe/Berlin`,
    /// `../zoneinfo/Europe/Berlin` or `/usr/share/zoneinfo/Europe/Berlin`; else the value.
    static func fileName(_ value: String, path: String, zoneinfo: String) -> String {
        let normal = lexicallyNormal(path)
        let directory = lexicallyNormal(zoneinfo)
        if normal.hasPrefix(directory + "/") { return String(normal.dropFirst(directory.count + 1)) }
        return zoneName(inPath: normal) ?? value
    }

    /// `path` with `.`, empty components and `dir/..` pairs removed (no symlinks followed).
    static func lexicallyNormal(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) where part != "." {
            if part == "..", let last = parts.last, last != ".." {
                parts.removeLast()
            } else if part == "..", path.hasPrefix("/") {
                continue   // "/.." is "/"
            } else {
                parts.append(part)
            }
        }
        return (path.hasPrefix("/") ? "/" : "") + parts.joined(separator: "/")
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
