import Foundation

extension Store {
    /// Whether the store's filesystem can swap two files atomically
    /// (`renameat2(RENAME_EXCHANGE)`), which race-free saves and imports
    /// that span files need. Probed in `lists/` when it exists (where most
    /// writes go), else in the store's root; for `tick status`.
    public func exchangeSupport() -> ExchangeSupport {
        let lists = (location.root as NSString).appendingPathComponent("lists")
        var isDir: ObjCBool = false
        let dir = FileManager.default.fileExists(atPath: lists, isDirectory: &isDir) && isDir.boolValue ? lists : location.root
        return RenameAt2.probe(directory: dir)
    }
}
