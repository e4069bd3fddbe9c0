import FoundationEssentials
import Glibc

/// Reading whole files and replacing them atomically.
public enum AtomicFile {
    /// The largest file tick reads (64 MiB): a store file is a few hundred KiB
    /// at most, and a bigger one is almost certainly not a task file.
    public static let maxFileSize = 64 << 20

    /// Reads a file and stamps it from the same descriptor. Nil when it does not exist.
    ///
    /// Only regular files are read (a symbolic link is followed): a FIFO, a
    /// device such as `/dev/zero`, a socket or a directory is refused with an
    /// error naming it, without blocking (the open is non-blocking), as is a
    /// file over ``maxFileSize``. With `allowSpecial` (an import from a pipe)
    /// any readable file is read, still up to the limit.
    public static func read(path: String, allowSpecial: Bool = false) throws(StoreError) -> (bytes: [UInt8], stamp: FileStamp)? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | (allowSpecial ? 0 : O_NONBLOCK))
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw .readFailed(path: path, reason: String(cString: strerror(errno)))
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw .readFailed(path: path, reason: String(cString: strerror(errno))) }
        let type = st.st_mode & S_IFMT
        if type == S_IFDIR { throw .readFailed(path: path, reason: "it is a directory") }
        if type != S_IFREG && !allowSpecial {
            throw .readFailed(path: path, reason: "it is \(describe(type)), not a regular file; tick reads only regular files")
        }
        let limit = maxFileSize
        if Int(st.st_size) > limit { throw tooLarge(path) }
        var bytes = [UInt8](repeating: 0, count: min(max(Int(st.st_size), 0), limit) + 1)
        var total = 0
        while true {
            if total == bytes.count {
                // Grew since the fstat (or a pipe): never past the limit.
                guard total <= limit else { throw tooLarge(path) }
                bytes.append(contentsOf: [UInt8](repeating: 0, count: min(max(total, 4096), limit + 1 - total)))
            }
            let n = bytes.withUnsafeMutableBytes { buf in
                Glibc.read(fd, buf.baseAddress.map { $0 + total }, buf.count - total)
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw .readFailed(path: path, reason: String(cString: strerror(errno)))
            }
            if n == 0 { break }
            total += n
        }
        if total > limit { throw tooLarge(path) }
        bytes.removeSubrange(total...)
        return (bytes, FileStamp(st))
    }

    private static func tooLarge(_ path: String) -> StoreError {
        .readFailed(path: path, reason: "it is larger than \(maxFileSize >> 20) MiB, the most tick reads")
    }

    /// "a FIFO", "a character device", … for a file type from `st_mode`.
    static func describe(_ type: mode_t) -> String {
        switch type {
        case S_IFIFO: return "a FIFO (named pipe)"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        case S_IFDIR: return "a directory"
        default: return "a special file"
        }
    }

    /// Throws ``StoreError/readOnly(path:)``, naming it `shown`, when the file
    /// at `path` exists and this user may not write it, so that the atomic
    /// rename (which needs only the directory's permission) never bypasses a
    /// `chmod 444`. An ordinary user gets the kernel's answer (`access(2)`
    /// with the effective ids, ACLs included); root, whom the kernel lets
    /// write anything, is refused a file with no write bit at all, which is
    /// the owner's intent. A missing file is writable (it is created).
    public static func requireWritable(path: String, shown: String) throws(StoreError) {
        var st = stat()
        guard stat(path, &st) == 0 else { return }
        if geteuid() == 0 {
            if st.st_mode & 0o222 == 0 { throw .readOnly(path: shown) }
            return
        }
        if faccessat(AT_FDCWD, path, W_OK, AT_EACCESS) != 0, errno == EACCES || errno == EPERM {
            throw .readOnly(path: shown)
        }
    }

    /// Replaces `path` with `bytes`: a temp file in the same directory, fsync,
    /// rename, fsync of the directory. The mode of an existing file is kept.
    /// On failure the original file is untouched and the temp file removed.
    ///
    /// With `durable` false (caches outside the store) nothing is fsynced.
    /// Store files are written by ``StoreWriter``, which swaps instead of
    /// renaming so that a save made meanwhile is never overwritten unseen.
    public static func write(_ bytes: [UInt8], to path: String, mode: UInt32?, durable: Bool = true) throws(StoreError) {
        let tmp = try writeTemp(bytes, for: path, mode: mode, durable: durable)
        try rename(tmp, over: path, durable: durable)
    }

    /// Replaces `path` with `bytes` only if it still holds `expected`, without
    /// a window in which another program's save could be overwritten unseen:
    /// the new version is swapped in (`RENAME_EXCHANGE`) and what came out is
    /// compared with `expected`; a save that landed in between is swapped back.
    /// Returns false, changing nothing, when the file no longer holds
    /// `expected` (the caller reads it again). For files tick cannot merge
    /// itself (`blocks.json`, a file with conflict markers); store files go
    /// through ``SwappingWrite``, which merges instead.
    static func replace(_ path: String, with bytes: [UInt8], expecting expected: [UInt8], mode: UInt32?) throws(StoreError) -> Bool {
        try requireWritable(path: path, shown: path)
        let tmp = try writeTemp(bytes, for: path, mode: mode)
        guard let current = try? read(path: path), current.bytes == expected else {
            unlink(tmp)
            return false
        }
        let error = RenameAt2.rename(tmp, path, flags: RenameAt2.exchange)
        if RenameAt2.unsupported(error) {
            try rename(tmp, over: path)
            return true
        }
        guard error == 0 else {
            unlink(tmp)
            if error == ENOENT { return false }
            throw .writeFailed(path: path, reason: String(cString: strerror(error)))
        }
        if let out = try? read(path: tmp), out.bytes == expected {
            unlink(tmp)
            syncDirectory(PathString.deletingLastComponent(path))
            return true
        }
        // A save landed between the check and the swap: put it back.
        guard RenameAt2.rename(tmp, path, flags: RenameAt2.exchange) == 0 else {
            throw .unmergedSave(path: path, kept: [keepBeside(tmp, of: path)], written: true)
        }
        if let out = try? read(path: tmp), out.bytes == bytes {
            unlink(tmp)
            return false
        }
        // Yet another save in between: it is kept beside the file, never lost.
        throw .unmergedSave(path: path, kept: [keepBeside(tmp, of: path)], written: false)
    }

    /// Renames a version tick could not put in place to `<name>.tick-kept-<random>`
    /// next to `path` (not hidden, not a list, never swept) and returns where it is.
    static func keepBeside(_ version: String, of path: String) -> String {
        let name = PathString.lastComponent(path)
        let kept = PathString.appending(PathString.deletingLastComponent(path),
            "\(name).tick-kept-\(String(UInt64.random(in: 0...UInt64.max), radix: 36))")
        guard Glibc.rename(version, kept) == 0 else { return version }
        syncDirectory(PathString.deletingLastComponent(path))
        return kept
    }

    /// Writes `bytes` to a new temp file next to `path` (`.<name>.tick-<pid>-<random>.tmp`;
    /// the pid lets ``StaleTemps`` remove what a killed tick left behind),
    /// fsynced unless `durable` is false, and returns its path. On failure
    /// nothing is left behind.
    static func writeTemp(_ bytes: [UInt8], for path: String, mode: UInt32?, durable: Bool = true) throws(StoreError) -> String {
        let dir = PathString.deletingLastComponent(path)
        try createDirectory(dir)
        let tmp = siblingPath(of: path, tag: "tick-\(getpid())", suffix: ".tmp")
        let fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard fd >= 0 else { throw .writeFailed(path: path, reason: String(cString: strerror(errno))) }
        func fail(_ reason: String) -> StoreError {
            close(fd)
            unlink(tmp)
            return .writeFailed(path: path, reason: reason)
        }
        if let mode, fchmod(fd, mode_t(mode & 0o7777)) != 0 {
            throw fail(String(cString: strerror(errno)))
        }
        if let error = writeAll(bytes, to: fd) { throw fail(String(cString: strerror(error))) }
        guard !durable || fsync(fd) == 0 else { throw fail(String(cString: strerror(errno))) }
        guard close(fd) == 0 else {
            unlink(tmp)
            throw .writeFailed(path: path, reason: String(cString: strerror(errno)))
        }
        return tmp
    }

    /// A new hidden name next to `path`: `.<name>.<tag>-<random><suffix>`.
    static func siblingPath(of path: String, tag: String, suffix: String) -> String {
        let dir = PathString.deletingLastComponent(path)
        let name = PathString.lastComponent(path)
        let random = String(UInt64.random(in: 0...UInt64.max), radix: 36)
        return PathString.appending(dir, ".\(name).\(tag)-\(random)\(suffix)")
    }

    /// Renames the temp file `tmp` over `path` (removing it on failure) and syncs the directory.
    static func rename(_ tmp: String, over path: String, durable: Bool = true) throws(StoreError) {
        guard Glibc.rename(tmp, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(tmp)
            throw .writeFailed(path: path, reason: reason)
        }
        if durable { syncDirectory(PathString.deletingLastComponent(path)) }
    }

    /// Writes all of `bytes` to `fd`, retrying short writes and EINTR.
    /// Returns nil, or the errno of the failure.
    static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Int32? {
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { buf in
                Glibc.write(fd, buf.baseAddress.map { $0 + written }, buf.count - written)
            }
            if n < 0 {
                if errno == EINTR { continue }
                return errno
            }
            written += n
        }
        return nil
    }

    /// Removes a file and syncs its directory.
    public static func remove(path: String) throws(StoreError) {
        guard unlink(path) == 0 || errno == ENOENT else {
            throw .writeFailed(path: path, reason: String(cString: strerror(errno)))
        }
        syncDirectory(PathString.deletingLastComponent(path))
    }

    /// `mkdir -p`.
    public static func createDirectory(_ dir: String) throws(StoreError) {
        if let isDir = PathStat.isDirectory(dir) {
            if isDir { return }
            throw .writeFailed(path: dir, reason: "it exists and is not a directory")
        }
        do {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        } catch {
            throw .writeFailed(path: dir, reason: "cannot create the directory (\(ErrorText.describe(error)))")
        }
    }

    static func syncDirectory(_ dir: String) {
        let dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dfd >= 0 {
            fsync(dfd)
            close(dfd)
        }
    }
}
