import Foundation

/// `renameat2(2)`: replacing a file without a window in which another
/// program's save can be overwritten unseen.
///
/// Glibc declares it only with `_GNU_SOURCE`, which Swift's Glibc module does
/// not see, so it is looked up at run time. Where it is missing (an old libc)
/// every call answers `ENOSYS`, as an old kernel would.
enum RenameAt2 {
    /// `RENAME_NOREPLACE`: fail with `EEXIST` when the target exists.
    static let noReplace: UInt32 = 1
    /// `RENAME_EXCHANGE`: swap the two names atomically; both must exist.
    static let exchange: UInt32 = 2

    private typealias Function = @convention(c) (Int32, UnsafePointer<CChar>?, Int32, UnsafePointer<CChar>?, UInt32) -> Int32

    private static let function: Function? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2")
        .map { unsafeBitCast($0, to: Function.self) }

    /// Renames `from` to `to` with `flags`. Returns 0, or the errno of the failure.
    static func rename(_ from: String, _ to: String, flags: UInt32) -> Int32 {
        guard let function else { return ENOSYS }
        while true {
            if function(AT_FDCWD, from, AT_FDCWD, to, flags) == 0 { return 0 }
            if errno != EINTR { return errno }
        }
    }

    /// True for the errors that mean "this filesystem or kernel cannot do it":
    /// the caller falls back to a plain rename.
    static func unsupported(_ error: Int32) -> Bool {
        error == EINVAL || error == ENOSYS || error == EOPNOTSUPP
    }
}
