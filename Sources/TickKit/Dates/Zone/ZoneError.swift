import FoundationEssentials

/// Why a zone could not be read: a bad name, a missing or malformed TZif file,
/// or a POSIX TZ string that does not parse.
public enum ZoneError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The name is empty, absolute, or climbs out of the zoneinfo directory with "..".
    case invalidName(String)
    /// No readable file at the path.
    case unreadable(path: String)
    /// The file is not valid TZif data; the reason says where it breaks.
    case malformed(path: String, reason: String)
    /// The text is not a POSIX TZ string (`std offset [dst [offset] [,start[/time],end[/time]]]`).
    case invalidRule(String)

    public var description: String {
        switch self {
        case .invalidName(let name): return "\"\(name)\" is not a time zone name (like Europe/Berlin)"
        case .unreadable(let path): return "cannot read the time zone file \(path)"
        case .malformed(let path, let reason): return "\(path) is not a TZif time zone file: \(reason)"
        case .invalidRule(let text): return "\"\(text)\" is not a POSIX TZ string like EST5EDT,M3.2.0,M11.1.0"
        }
    }
}
