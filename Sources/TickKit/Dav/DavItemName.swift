extension DavBridge {
    /// True for the file name of a vdir item: every name ending in `.ics`,
    /// hidden ones included. vdirsyncer names an item after its UID when the
    /// UID is safe as a file name, so a phone item with the UID `..` is
    /// `...ics`; temp files (vdirsyncer's `tmp…`, tick's `.….tmp`) never end
    /// in `.ics`.
    static func isItemName(_ name: String) -> Bool {
        name.hasSuffix(".ics")
    }
}
