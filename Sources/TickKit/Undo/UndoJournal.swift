import FoundationEssentials
import Glibc

/// The undo journal: `undo.jsonl` in the store's machine-local state directory,
/// one ``JournalEntry`` per line, oldest first, mode 0600, bounded.
///
/// It never lives in the store, so git and Syncthing never carry it.
public struct UndoJournal: Sendable {
    public let path: String
    /// At most this many lines are kept (oldest dropped first).
    public let maxEntries: Int
    /// At most this many bytes are kept (oldest lines dropped first).
    public let maxBytes: Int

    public init(path: String, maxEntries: Int = 100, maxBytes: Int = 16 << 20) {
        self.path = path
        self.maxEntries = maxEntries
        self.maxBytes = maxBytes
    }

    /// The journal of a store: `<state directory>/undo.jsonl`.
    public init(location: StoreLocation) {
        self.init(path: PathString.appending(location.stateDirectory, "undo.jsonl"))
    }

    /// An entry as one line of JSON, with its newline.
    public static func encode(_ entry: JournalEntry) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        var bytes = [UInt8](try encoder.encode(entry))
        bytes.append(0x0A)
        return bytes
    }

    /// What reading the journal found.
    public struct Contents: Sendable {
        /// The entries, oldest first; an entry written twice appears once, at its last line.
        public var entries: [JournalEntry]
        /// Lines that could not be read (skipped), each at its `path:line`.
        public var warnings: [TickWarning]
    }

    /// Reads the journal. A missing file is an empty journal; an unreadable line
    /// is skipped with a warning (undo's checks against the files keep that safe).
    public func read() throws(UndoError) -> Contents {
        let loaded: (bytes: [UInt8], stamp: FileStamp)?
        do {
            loaded = try AtomicFile.read(path: path)
        } catch {
            throw .journalFailed(path: path, reason: ErrorText.describe(error))
        }
        guard let bytes = loaded?.bytes else { return Contents(entries: [], warnings: []) }
        return Self.parse(bytes, path: path)
    }

    /// Parses journal bytes (see ``read()``).
    public static func parse(_ bytes: [UInt8], path: String) -> Contents {
        var entries: [JournalEntry] = []
        var warnings: [TickWarning] = []
        let decoder = JSONDecoder()
        var lineNumber = 0
        for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
            lineNumber += 1
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) { continue }
            do {
                let entry = try decoder.decode(JournalEntry.self, from: Data(line))
                guard entry.v <= JournalEntry.formatVersion else {
                    warnings.append(TickWarning("written by a newer tick (format \(entry.v)); skipped", at: FileLocation(path: path, line: lineNumber)))
                    continue
                }
                entries.removeAll { $0.id == entry.id }
                entries.append(entry)
            } catch {
                warnings.append(TickWarning("not a readable undo entry (skipped); undo checks every task against the files, so skipping it is safe",
                                            at: FileLocation(path: path, line: lineNumber)))
            }
        }
        return Contents(entries: entries, warnings: warnings)
    }

    /// Appends one encoded line, then drops the oldest lines beyond the bounds.
    public func append(_ line: [UInt8]) throws(UndoError) {
        do {
            try PrivateFiles.createDirectory(PathString.deletingLastComponent(path))
        } catch {
            throw .journalFailed(path: path, reason: ErrorText.describe(error))
        }
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .journalFailed(path: path, reason: String(cString: strerror(errno))) }
        // A journal made by an older tick or by hand may be readable by others.
        fchmod(fd, 0o600)
        if let error = AtomicFile.writeAll(line, to: fd) {
            close(fd)
            throw .journalFailed(path: path, reason: String(cString: strerror(error)))
        }
        close(fd)
        try trim()
    }

    /// Keeps the newest `maxEntries` lines within `maxBytes`.
    func trim() throws(UndoError) {
        let bytes: [UInt8]
        do {
            guard let read = try AtomicFile.read(path: path) else { return }
            bytes = read.bytes
        } catch {
            throw .journalFailed(path: path, reason: ErrorText.describe(error))
        }
        var lineCount = 0
        for b in bytes where b == 0x0A { lineCount += 1 }
        if bytes.last != 0x0A && !bytes.isEmpty { lineCount += 1 }
        guard lineCount > maxEntries || bytes.count > maxBytes else { return }
        // Walk back from the end, keeping whole lines.
        var kept = 0
        var start = bytes.count
        var i = bytes.count - 1
        if i >= 0 && bytes[i] == 0x0A { i -= 1 }
        while i >= -1 {
            if i == -1 || bytes[i] == 0x0A {
                let lineStart = i + 1
                if kept + 1 > maxEntries || bytes.count - lineStart > maxBytes { break }
                kept += 1
                start = lineStart
            }
            i -= 1
        }
        do {
            try AtomicFile.write(Array(bytes[start...]), to: path, mode: 0o600)
        } catch {
            throw .journalFailed(path: path, reason: ErrorText.describe(error))
        }
    }

    /// The entries that `tick undo` would revert, newest first: not undo
    /// entries themselves, and not reverted by one.
    public static func undoable(_ entries: [JournalEntry]) -> [JournalEntry] {
        let undone = Set(entries.flatMap { $0.undoes ?? [] })
        return entries.filter { !$0.isUndo && !undone.contains($0.id) }.reversed()
    }
}
