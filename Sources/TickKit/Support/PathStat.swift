import Glibc

/// What is at a path, by `stat(2)` (symbolic links followed), as Foundation's
/// `FileManager.fileExists(atPath:isDirectory:)` answered it.
public enum PathStat {
    /// nil when nothing exists at `path` (or a link dangles); otherwise
    /// whether it is a directory.
    public static func isDirectory(_ path: String) -> Bool? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & S_IFMT == S_IFDIR
    }
}
