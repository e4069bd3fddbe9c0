import CTickSys
import FoundationEssentials
import Glibc

/// `renameat2(2)`: replacing a file without a window in which another
/// program's save can be overwritten unseen.
///
/// Glibc declares it only with `_GNU_SOURCE`, which Swift's Glibc module does
/// not see, so it is called through the small C target `CTickSys` as a raw
/// system call. That is linked into every build, the fully static release
/// executable included (a `dlsym` lookup, used before, finds nothing there,
/// so every write of the installed binary fell back to check-then-rename).
enum RenameAt2 {
    /// `RENAME_NOREPLACE`: fail with `EEXIST` when the target exists.
    static let noReplace: UInt32 = 1
    /// `RENAME_EXCHANGE`: swap the two names atomically; both must exist.
    static let exchange: UInt32 = 2

    /// Renames `from` to `to` with `flags`. Returns 0, or the errno of the failure.
    static func rename(_ from: String, _ to: String, flags: UInt32) -> Int32 {
        while true {
            if tick_renameat2(AT_FDCWD, from, AT_FDCWD, to, flags) == 0 { return 0 }
            if errno != EINTR { return errno }
        }
    }

    /// True for the errors that mean "this filesystem cannot do it" (`EINVAL`,
    /// `EOPNOTSUPP`: vfat, some FUSE and network filesystems): the caller
    /// falls back to a plain rename. `ENOSYS` (a kernel older than 3.15) is
    /// not among them: it is reported, never papered over.
    static func unsupported(_ error: Int32) -> Bool {
        error == EINVAL || error == EOPNOTSUPP
    }

    /// Whether the filesystem of `directory` can exchange two files
    /// atomically, found by exchanging two hidden temp files there (named as
    /// every temp of tick's, so a killed probe is swept like one).
    static func probe(directory: String) -> ExchangeSupport {
        let base = PathString.appending(directory, "exchange-probe")
        let a = AtomicFile.siblingPath(of: base, tag: "tick-\(getpid())", suffix: ".tmp")
        let b = AtomicFile.siblingPath(of: base, tag: "tick-\(getpid())", suffix: ".tmp")
        defer {
            unlink(a)
            unlink(b)
        }
        for path in [a, b] {
            let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard fd >= 0 else { return .unknown(reason: String(cString: strerror(errno))) }
            close(fd)
        }
        let error = rename(a, b, flags: exchange)
        if error == 0 { return .available }
        if unsupported(error) { return .unsupported(reason: String(cString: strerror(error))) }
        return .unknown(reason: String(cString: strerror(error)))
    }
}

/// What ``RenameAt2/probe(directory:)`` found for a directory's filesystem.
public enum ExchangeSupport: Equatable, Sendable {
    /// `renameat2(RENAME_EXCHANGE)` works: saves race-free (FORMAT.md §10).
    case available
    /// The filesystem refuses it; single-file writes check, then rename,
    /// and an import or archive that spans files is refused.
    case unsupported(reason: String)
    /// The probe itself failed (a read-only or full disk, permissions).
    case unknown(reason: String)
}
