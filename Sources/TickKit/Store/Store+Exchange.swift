import FoundationEssentials
import Glibc

extension Store {
    /// Whether the store's filesystem can swap two files atomically
    /// (`renameat2(RENAME_EXCHANGE)`), which race-free saves and imports
    /// that span files need. Probed in `lists/` when it exists (where most
    /// writes go), else in the store's root, else (a store the first change
    /// will create) in the nearest directory above it that exists, whose
    /// filesystem the store will be on; for `tick status`.
    public func exchangeSupport() -> ExchangeSupport {
        let lists = PathString.appending(location.root, "lists")
        var dir = PathStat.isDirectory(lists) == true ? lists : location.root
        while PathStat.isDirectory(dir) != true, dir != "/", !dir.isEmpty {
            dir = PathString.deletingLastComponent(dir)
        }
        return RenameAt2.probe(directory: dir.isEmpty ? "/" : dir)
    }
}
