import FoundationEssentials
import Glibc

/// The bytes of an import, read in chunks from a file descriptor (a file or a
/// pipe) or taken from memory, so that a large import never holds its whole
/// input text: line-based formats (CSV, todo.txt) decode record by record.
/// Whole-document formats (JSON, iCalendar) read everything, up to a limit.
public final class ImportReader {
    /// The size of one read.
    static let chunkSize = 256 << 10
    /// The longest line (or CSV record) a streaming reader accepts: a bigger
    /// one is not a task.
    public static let maxRecordBytes = 4 << 20

    /// Shown in errors.
    public let path: String
    private var fd: Int32?
    private let ownsDescriptor: Bool
    /// Bytes read but not consumed yet (a peek, or a chunk in memory).
    private var pending: [UInt8]
    private var atEnd = false

    /// Reads from memory.
    public init(bytes: [UInt8], path: String) {
        self.path = path
        self.fd = nil
        self.ownsDescriptor = false
        self.pending = bytes
        self.atEnd = true
    }

    /// Reads from an open descriptor (standard input); it is not closed.
    public init(descriptor: Int32, path: String) {
        self.path = path
        self.fd = descriptor
        self.ownsDescriptor = false
        self.pending = []
    }

    /// Opens a file (a regular file, or a pipe such as `<(cmd)`). Nil when it does not exist.
    public static func open(path: String) throws(ImportError) -> ImportReader? {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw ImportError(path: path, line: nil, message: "cannot read it: \(String(cString: strerror(errno)))")
        }
        var st = stat()
        if fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFDIR {
            close(fd)
            throw ImportError(path: path, line: nil, message: "it is a directory")
        }
        return ImportReader(owning: fd, path: path)
    }

    private init(owning fd: Int32, path: String) {
        self.path = path
        self.fd = fd
        self.ownsDescriptor = true
        self.pending = []
    }

    deinit {
        if ownsDescriptor, let fd { close(fd) }
    }

    /// Reads one more chunk into `pending`; false at the end.
    private func fill() throws(ImportError) -> Bool {
        guard !atEnd, let fd else { return false }
        var chunk = [UInt8](repeating: 0, count: Self.chunkSize)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw ImportError(path: path, line: nil, message: "cannot read it: \(String(cString: strerror(errno)))")
            }
            if n == 0 {
                atEnd = true
                return false
            }
            pending.append(contentsOf: chunk[..<n])
            return true
        }
    }

    /// Up to `count` first bytes, without consuming them (to tell formats apart).
    public func peek(_ count: Int) throws(ImportError) -> ArraySlice<UInt8> {
        while pending.count < count, try fill() {}
        return pending.prefix(count)
    }

    /// Everything left, up to `limit` bytes (else an error naming the limit).
    public func readAll(limit: Int = AtomicFile.maxFileSize) throws(ImportError) -> [UInt8] {
        while try fill() {
            if pending.count > limit { break }
        }
        if pending.count > limit {
            throw ImportError(path: path, line: nil, message: "it is larger than \(limit >> 20) MiB, the most tick reads of this format")
        }
        defer { pending = [] }
        return pending
    }

    /// Calls `body` with successive chunks of everything left.
    public func forEachChunk(_ body: (ArraySlice<UInt8>) throws(ImportError) -> Void) throws(ImportError) {
        if !pending.isEmpty {
            let first = pending
            pending = []
            try body(first[...])
        }
        while try fill() {
            let chunk = pending
            pending = []
            try body(chunk[...])
        }
    }

    /// Calls `body` with each line (without its `\n` and a `\r` before it)
    /// and its 1-based number. A UTF-8 byte order mark at the start is skipped.
    public func forEachLine(_ body: (ArraySlice<UInt8>, Int) throws(ImportError) -> Void) throws(ImportError) {
        var line: [UInt8] = []
        var number = 0
        var first = true
        func emit() throws(ImportError) {
            number += 1
            var slice = line[...]
            if first {
                first = false
                if slice.starts(with: [0xEF, 0xBB, 0xBF]) { slice = slice.dropFirst(3) }
            }
            if slice.last == 0x0D { slice = slice.dropLast() }
            try body(slice, number)
            line.removeAll(keepingCapacity: true)
        }
        try forEachChunk { (chunk: ArraySlice<UInt8>) throws(ImportError) in
            var start = chunk.startIndex
            while let nl = chunk[start...].firstIndex(of: 0x0A) {
                line.append(contentsOf: chunk[start..<nl])
                try checkLength(line.count, line: number + 1)
                try emit()
                start = nl + 1
            }
            line.append(contentsOf: chunk[start...])
            try checkLength(line.count, line: number + 1)
        }
        if !line.isEmpty { try emit() }
    }

    func checkLength(_ count: Int, line: Int) throws(ImportError) {
        if count > Self.maxRecordBytes {
            throw ImportError(path: path, line: line, message: "the record is longer than \(Self.maxRecordBytes >> 20) MiB; no task is that long")
        }
    }
}
