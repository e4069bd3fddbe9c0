import CInotifyTools

/// A thin, checked bridge to libinotifytools. The watcher (`tick watch`)
/// builds on it; for now it proves that the library links.
public enum InotifySupport {
    /// The name libinotifytools gives an event mask, e.g. "MODIFY" for `IN_MODIFY`.
    public static func eventName(_ mask: Int32) -> String {
        guard let cString = inotifytools_event_to_str(mask) else { return "" }
        return String(cString: cString)
    }

    /// The `IN_MODIFY` mask, as the C headers define it.
    public static var modifyMask: Int32 { Int32(IN_MODIFY) }
}
