import FoundationEssentials

/// A time zone: tick's one source of UTC offsets for every date computation
/// (local days, wall-clock times, `due:fri@9am`, view day bounds, DST).
///
/// Read from TZif files (RFC 8536) in the zoneinfo directory, from a POSIX TZ
/// string, or a fixed offset, without ICU. ``process(environment:zoneinfo:localtime:)``
/// resolves the process's zone the way the C library does.
public struct Zone: Hashable, Sendable, CustomStringConvertible {
    /// The zoneinfo directory of Linux distributions.
    public static let systemDirectory = "/usr/share/zoneinfo"

    /// Where the offsets come from.
    enum Source: Hashable, Sendable {
        case fixed(LocalTimeType)
        case file(TZifFile)
        case rule(PosixTimeZoneRule)
        /// A `TZ` value read as glibc reads it (``process(environment:zoneinfo:localtime:)``).
        case glibcRule(GlibcTimeZoneRule)
    }

    /// The zone's name: "Europe/Berlin", a POSIX TZ string as given, "UTC", or "GMT+0100" for a fixed offset.
    public let identifier: String
    let source: Source

    init(identifier: String, source: Source) {
        self.identifier = identifier
        self.source = source
    }

    /// UTC (offset 0, never daylight-saving time).
    public static let utc = Zone(identifier: "UTC", source: .fixed(LocalTimeType(utcOffset: 0, isDaylightSavingTime: false, abbreviation: "UTC")))

    /// A zone at a fixed offset from UTC, named like "GMT+0530" (or "GMT" for 0).
    public init(secondsFromGMT seconds: Int) {
        let magnitude = abs(seconds)
        let name = seconds == 0 ? "GMT"
            : "GMT" + (seconds < 0 ? "-" : "+") + LocalDate.pad(magnitude / 3_600, 2) + LocalDate.pad(magnitude % 3_600 / 60, 2)
        self.init(identifier: name, source: .fixed(LocalTimeType(utcOffset: seconds, isDaylightSavingTime: false, abbreviation: name)))
    }

    /// The zone in the TZif file `directory/name` ("Europe/Berlin"), or nil when the name is
    /// not a relative path inside the directory or the file is missing or malformed.
    public init?(named name: String, directory: String = Zone.systemDirectory) {
        guard let zone = try? Zone.load(named: name, directory: directory) else { return nil }
        self = zone
    }

    /// Reads the TZif file `directory/name`; throws ``ZoneError`` saying what is wrong.
    public static func load(named name: String, directory: String = Zone.systemDirectory) throws(ZoneError) -> Zone {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        guard !name.isEmpty, !name.hasPrefix("/"), !parts.contains(where: { $0 == ".." || $0.isEmpty }),
              !name.utf8.contains(0)
        else { throw .invalidName(name) }
        return try load(path: directory + "/" + name, identifier: name)
    }

    /// Reads the TZif file at `path`, calling the zone `identifier`.
    public static func load(path: String, identifier: String) throws(ZoneError) -> Zone {
        guard let data = FileManager.default.contents(atPath: path)
        else { throw .unreadable(path: path) }
        return Zone(identifier: identifier, source: .file(try TZifFile(bytes: [UInt8](data), path: path)))
    }

    /// The zone a POSIX TZ string describes (`EST5EDT,M3.2.0,M11.1.0`, `<+0330>-3:30`, `UTC0`);
    /// its identifier is the string.
    public init(posix text: String) throws(ZoneError) {
        self.init(identifier: text, source: .rule(try PosixTimeZoneRule(parsing: text)))
    }

    /// The same as `identifier`.
    public var description: String { identifier }

    /// The local time type at a whole second since 1970.
    func type(at second: Int64) -> LocalTimeType {
        switch source {
        case .fixed(let type): return type
        case .file(let file): return file.type(at: second)
        case .rule(let rule): return rule.type(at: second)
        case .glibcRule(let rule): return rule.type(at: second)
        }
    }

    /// `date` as whole seconds since 1970 (rounded down, clamped far outside any calendar use).
    static func second(of date: Date) -> Int64 {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        guard seconds.isFinite else { return seconds < 0 ? -(1 << 50) : 1 << 50 }
        return Int64(max(-Double(1 << 50), min(Double(1 << 50), seconds)))
    }

    /// Seconds east of UTC at `date`.
    public func secondsFromGMT(for date: Date) -> Int {
        type(at: Zone.second(of: date)).utcOffset
    }

    /// The abbreviation in effect at `date` ("CET", "CEST", "+0530").
    public func abbreviation(for date: Date) -> String {
        type(at: Zone.second(of: date)).abbreviation
    }

    /// Whether `date` falls in daylight-saving time (as the zone data marks it).
    public func isDaylightSavingTime(for date: Date) -> Bool {
        type(at: Zone.second(of: date)).isDaylightSavingTime
    }

    /// The wall clock at `date` as seconds since 1970-01-01T00:00 local (rounded down).
    public func localSeconds(for date: Date) -> Int {
        let second = Zone.second(of: date)
        return Int(second) + type(at: second).utcOffset
    }

    /// The instant at which the wall clock shows `local` (seconds since 1970-01-01T00:00 local),
    /// resolved as Foundation's Gregorian `Calendar` does: a time inside a spring-forward gap
    /// moves forward by the gap (02:30 on a day that jumps 02:00 -> 03:00 is 03:30), and a time
    /// that occurs twice (an autumn overlap) is its first occurrence.
    public func date(localSeconds local: Int) -> Date {
        Date(timeIntervalSince1970: TimeInterval(instant(localSeconds: local)))
    }

    /// ``date(localSeconds:)`` in whole seconds.
    func instant(localSeconds local: Int) -> Int {
        let before = offset(at: local - 86_400)
        let after = offset(at: local + 86_400)
        var valid: [Int] = []
        for candidate in [before, after, offset(at: local - before), offset(at: local - after)] {
            let instant = local - candidate
            if offset(at: instant) == candidate { valid.append(instant) }
        }
        if let first = valid.min() { return first }
        // In a gap: read the wall time with the offset in force before the gap.
        return local - offset(at: local - after)
    }

    private func offset(at second: Int) -> Int {
        type(at: Int64(second)).utcOffset
    }
}
