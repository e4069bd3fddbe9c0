import FoundationEssentials
import Glibc

extension Store {
    /// Whether the store's filesystem can swap two files atomically
    /// (`renameat2(RENAME_EXCHANGE)`), which race-free saves and imports
    /// that span files need. Probed in `lists/` when it exists (where most
    /// writes go), else in the store's root; for `tick status`.
    public func exchangeSupport() -> ExchangeSupport {
        let lists = PathString.appending(location.root, "lists")
        let dir = PathStat.isDirectory(lists) == true ? lists : location.root
        return RenameAt2.probe(directory: dir)
    }
}
