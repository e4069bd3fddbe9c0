import FoundationEssentials
import Glibc

/// What `stat` says about a file: enough to notice that it changed.
public struct FileStamp: Sendable, Equatable, Hashable {
    public var size: Int64
    public var mtimeNanoseconds: Int64
    public var inode: UInt64
    public var device: UInt64
    public var mode: UInt32

    /// Stamps the file at `path`; nil when it does not exist.
    public static func of(path: String) -> FileStamp? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return FileStamp(st)
    }

    init(_ st: stat) {
        size = Int64(st.st_size)
        mtimeNanoseconds = Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)
        inode = UInt64(st.st_ino)
        device = UInt64(st.st_dev)
        mode = UInt32(st.st_mode)
    }

    /// The modification time as a date.
    public var modificationDate: Date {
        Date(timeIntervalSince1970: Double(mtimeNanoseconds) / 1_000_000_000)
    }
}
