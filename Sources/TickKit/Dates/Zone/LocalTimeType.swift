import FoundationEssentials

/// One of a zone's local time types (RFC 8536 `ttinfo`): an offset from UTC,
/// whether it is daylight-saving time, and its abbreviation ("CET", "+0530").
struct LocalTimeType: Hashable, Sendable {
    /// Seconds east of UTC.
    let utcOffset: Int
    /// The file's `isdst` flag (Europe/Dublin's winter GMT is marked DST: negative DST).
    let isDaylightSavingTime: Bool
    /// The designation, e.g. "CEST".
    let abbreviation: String
}
