import FoundationEssentials
import Glibc

/// Machine-local files (index, locks, journals, copies) hold task titles and
/// notes: they are created 0600 in 0700 directories, whatever the umask.
public enum PrivateFiles {
    /// Mode of every machine-local file.
    public static let fileMode: mode_t = 0o600
    /// Mode of every directory tick creates for them.
    public static let directoryMode: mode_t = 0o700

    /// `mkdir -p` with every created directory 0700. An existing `dir` that
    /// group or others can read is tightened to 0700 when it is ours (it
    /// is tick's own `<store-key>` directory or below); its parents are left
    /// as they are.
    public static func createDirectory(_ dir: String) throws(StoreError) {
        var st = stat()
        if stat(dir, &st) == 0, st.st_mode & S_IFMT == S_IFDIR {
            if st.st_mode & 0o077 != 0, st.st_uid == geteuid() { chmod(dir, directoryMode) }
            return
        }
        try createMissing(dir)
    }

    /// Creates `dir` and its missing parents, each 0700.
    private static func createMissing(_ dir: String) throws(StoreError) {
        var st = stat()
        if stat(dir, &st) == 0 {
            guard st.st_mode & S_IFMT == S_IFDIR else {
                throw .writeFailed(path: dir, reason: "it exists and is not a directory")
            }
            return
        }
        let parent = PathString.deletingLastComponent(dir)
        if !parent.isEmpty, parent != dir { try createMissing(parent) }
        if mkdir(dir, directoryMode) == 0 {
            // The umask may have taken bits away (e.g. 0277 leaves 0500).
            chmod(dir, directoryMode)
        } else if errno != EEXIST {
            throw .writeFailed(path: dir, reason: "cannot create the directory (\(String(cString: strerror(errno))))")
        }
    }

    /// Makes an open file 0600 when group or others have any access.
    static func tighten(fd: Int32) {
        var st = stat()
        if fstat(fd, &st) == 0, st.st_mode & 0o077 != 0 { fchmod(fd, fileMode) }
    }

    /// Makes a file 0600 when it exists and group or others have any access.
    public static func tighten(path: String) {
        var st = stat()
        if lstat(path, &st) == 0, st.st_mode & S_IFMT == S_IFREG, st.st_mode & 0o077 != 0 { chmod(path, fileMode) }
    }
}
