import FoundationEssentials
import Glibc

/// One file's part of a ``MultiFileWrite``: which file, how to create it when
/// it does not exist, and the change to apply.
public struct FileEdit {
    public var kind: FileKind
    /// Makes the file when it does not exist (nil: a missing file is an error).
    public var create: (() -> TaskFile)?
    public var change: (inout TaskFile) throws -> Void

    public init(kind: FileKind, create: (() -> TaskFile)? = nil, change: @escaping (inout TaskFile) throws -> Void) {
        self.kind = kind
        self.create = create
        self.change = change
    }
}

/// Writes several store files all or nothing (an import that touches the inbox
/// and lists). Runs under the store lock (it is made from a ``StoreWriter``).
///
/// 1. Each file is read, changed and encoded, and its new version written to
///    a temp file next to it and fsynced, one file at a time (only one encoded
///    file is in memory at once). A file that would be larger than tick reads
///    (``AtomicFile/maxFileSize``) is refused. If any temp file cannot be
///    written (a full disk), every temp file is removed and no store file has
///    changed.
/// 2. Every file is checked to still hold what was read. If one was saved
///    meanwhile (an editor, Syncthing), the temp files are removed and the
///    whole round starts over from the read, so the save is kept.
/// 3. Each temp file is swapped with its file (`renameat2(RENAME_EXCHANGE)`;
///    a new file is renamed in with `RENAME_NOREPLACE`). The swapped-out
///    version stays under the temp name until every file is in place. If a
///    swap fails, or takes out something other than what was read (a save in
///    the instant between check and swap), the swaps already made are undone
///    in reverse (each is one more exchange, which needs no space), and the
///    write fails (or, after a save, starts over).
/// 4. Only then are the old versions removed, the directories fsynced, and
///    the undo journal given one step per file, exactly as written.
///
/// A crash (power loss, kill -9) during step 3 can leave some files new and
/// some old; each file is whole, and the old versions survive as hidden
/// `.<name>.tick-*.tmp` files next to them (Docs/FORMAT.md section 10).
public struct MultiFileWrite {
    public let store: Store

    public init(writer: StoreWriter) {
        self.store = writer.store
    }

    /// The reason of a `writeFailed` whose files could not all be put back:
    /// unlike every other failure, some files do hold the new version.
    public static let notUndone = "a write failed and tick could not put the old version back (an I/O error); it holds the new version, and the old one is kept as a hidden .tmp file next to it"

    /// How many times the round starts over when a file keeps being saved meanwhile.
    static let maxRounds = 5

    /// One prepared file: what was read and where its new version waits.
    private struct Prepared {
        var kind: FileKind
        var path: String
        var loaded: Store.Loaded?
        var file: TaskFile
        /// The new version's digest (the bytes themselves are not kept: a
        /// large import holds one encoded file at a time).
        var digest: Int
        var tmp: String
        /// Tasks added, changed and removed (for the journal).
        var counts: StepCounts
    }

    /// A swap made in step 3, to undo if a later one fails.
    private struct Swapped {
        var prepared: Prepared
        /// True for a file that was created (nothing was swapped out).
        var created: Bool
    }

    /// Applies every edit, or none. `progress` is called after each file is prepared.
    public func apply(_ edits: [FileEdit], progress: ((Int, Int) -> Void)? = nil) throws {
        for _ in 0..<Self.maxRounds {
            let prepared = try prepare(edits, progress: progress)
            if prepared.isEmpty { return }
            if prepared.contains(where: { !stillAsRead($0) }) {
                discard(prepared)
                continue
            }
            guard try swapAll(prepared) else { continue }
            finish(prepared)
            return
        }
        throw StoreError.keptChanging(path: store.displayPath(edits.first?.kind ?? .inbox))
    }

    // MARK: Step 1

    private func prepare(_ edits: [FileEdit], progress: ((Int, Int) -> Void)?) throws -> [Prepared] {
        var out: [Prepared] = []
        do {
            for (i, edit) in edits.enumerated() {
                if let p = try prepare(edit) { out.append(p) }
                progress?(i + 1, edits.count)
            }
        } catch {
            discard(out)
            throw error
        }
        return out
    }

    private func prepare(_ edit: FileEdit) throws -> Prepared? {
        var loaded = try store.read(edit.kind)
        var file: TaskFile
        if var read = loaded {
            store.written.stampHandEdits(in: &read.file, bytes: read.bytes, at: read.stamp.modificationDate)
            loaded = read
            file = read.file
        } else if let create = edit.create {
            file = create()
        } else {
            throw StoreError.fileMissing(path: store.displayPath(edit.kind))
        }
        try edit.change(&file)
        if let loaded { StoreWriter.stampChanges(in: &file, since: loaded.file, at: store.clock()) }
        let bytes = TaskFileEncoder.encode(file)
        if let loaded, bytes == loaded.bytes { return nil }
        if bytes.count > AtomicFile.maxFileSize {
            throw StoreError.writeFailed(path: store.displayPath(edit.kind),
                                         reason: "it would be \(bytes.count >> 20) MiB, more than the \(AtomicFile.maxFileSize >> 20) MiB tick reads; import into several lists instead")
        }
        let path = try target(of: edit.kind)
        let tmp: String
        do {
            tmp = try AtomicFile.writeTemp(bytes, for: path, mode: loaded?.stamp.mode)
        } catch {
            throw StoreError.writeFailed(path: store.displayPath(edit.kind), reason: error.reasonText)
        }
        return Prepared(kind: edit.kind, path: path, loaded: loaded, file: file, digest: Self.digest(bytes), tmp: tmp,
                        counts: Self.counts(from: loaded?.file, to: file))
    }

    /// Tasks added, changed and removed between two versions of a file.
    private static func counts(from before: TaskFile?, to after: TaskFile) -> StepCounts {
        var old: [UUID: TaskItem] = [:]
        for task in before?.tasks ?? [] { old[task.id] = task }
        var counts = StepCounts()
        for task in after.tasks {
            if let previous = old.removeValue(forKey: task.id) {
                if previous != task { counts.changed += 1 }
            } else {
                counts.added += 1
            }
        }
        counts.removed = old.count
        return counts
    }

    /// A digest of file contents, to tell tick's own version from another (within one process).
    private static func digest(_ bytes: [UInt8]) -> Int {
        var hasher = Hasher()
        hasher.combine(bytes.count)
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        return hasher.finalize()
    }

    /// True when the file at `path` holds exactly `p`'s new version.
    private func holdsOurs(_ path: String, _ p: Prepared) -> Bool {
        guard let read = try? AtomicFile.read(path: path) else { return false }
        return Self.digest(read.bytes) == p.digest
    }

    /// The file to replace: the store file, or the target of the symbolic link
    /// it is (written through, as ``SwappingWrite`` does; the link stays).
    private func target(of kind: FileKind) throws -> String {
        let path = store.location.path(of: kind)
        var st = stat()
        guard lstat(path, &st) == 0, st.st_mode & S_IFMT == S_IFLNK else { return path }
        guard let resolved = realpath(path, nil) else {
            let dest = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
            throw StoreError.writeFailed(path: store.displayPath(kind), reason: "it is a symbolic link to \(dest), which does not exist")
        }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    // MARK: Step 2

    /// True when the file still holds what was read (or still does not exist).
    private func stillAsRead(_ p: Prepared) -> Bool {
        do {
            return try AtomicFile.read(path: p.path)?.bytes == p.loaded?.bytes
        } catch {
            return false
        }
    }

    private func discard(_ prepared: [Prepared]) {
        for p in prepared { unlink(p.tmp) }
    }

    // MARK: Step 3

    /// Swaps every file in. Returns false when a save landed meanwhile (all
    /// swaps undone: the caller starts over); throws when a swap failed (all
    /// swaps undone).
    private func swapAll(_ prepared: [Prepared]) throws -> Bool {
        var done: [Swapped] = []
        for (i, p) in prepared.enumerated() {
            let created = p.loaded == nil
            let error = RenameAt2.rename(p.tmp, p.path, flags: created ? RenameAt2.noReplace : RenameAt2.exchange)
            if error != 0 {
                try undo(done)
                discard(Array(prepared[i...]))
                if error == EEXIST || error == ENOENT { return false }   // created or removed meanwhile
                if RenameAt2.unsupported(error) {
                    throw StoreError.writeFailed(path: store.displayPath(p.kind), reason: "this filesystem cannot exchange two files atomically (renameat2); an import needs it to be all or nothing")
                }
                throw StoreError.writeFailed(path: store.displayPath(p.kind), reason: String(cString: strerror(error)))
            }
            done.append(Swapped(prepared: p, created: created))
            if !created {
                // `tmp` now holds what was taken out: it must be what was read.
                let out = try? AtomicFile.read(path: p.tmp)
                if out?.bytes != p.loaded?.bytes {
                    try undo(done)
                    discard(Array(prepared[(i + 1)...]))
                    return false
                }
            }
        }
        return true
    }

    /// Undoes swaps in reverse order. Each replaced file is exchanged back
    /// with its old version; a created file is removed. What comes out is
    /// checked to be tick's own version; anything else (a save made on top
    /// of it in that instant) is kept next to the file and named in the error.
    private func undo(_ swaps: [Swapped]) throws {
        var kept: [String] = []
        var failed: [String] = []
        for swap in swaps.reversed() {
            let p = swap.prepared
            if swap.created {
                if holdsOurs(p.path, p) {
                    unlink(p.path)
                } else if let name = keep(p.path) {
                    kept.append(name)
                }
                continue
            }
            guard RenameAt2.rename(p.tmp, p.path, flags: RenameAt2.exchange) == 0 else {
                failed.append(store.displayPath(p.kind))
                continue
            }
            if holdsOurs(p.tmp, p) {
                unlink(p.tmp)
            } else if let name = keep(p.tmp, as: p.path) {
                kept.append(name)
            }
        }
        for dir in Set(swaps.map { PathString.deletingLastComponent($0.prepared.path) }) {
            AtomicFile.syncDirectory(dir)
        }
        if !failed.isEmpty {
            throw StoreError.writeFailed(path: failed.joined(separator: ", "), reason: Self.notUndone)
        }
        if !kept.isEmpty, let first = swaps.first {
            throw StoreError.unmergedSave(path: store.displayPath(first.prepared.kind), kept: kept, written: false)
        }
    }

    /// Renames `path` to `<name>.tick-kept-<random>` next to `target`; returns the new path.
    private func keep(_ path: String, as target: String? = nil) -> String? {
        let base = target ?? path
        let kept = "\(base).tick-kept-\(String(UInt64.random(in: 0...UInt64.max), radix: 36))"
        return Glibc.rename(path, kept) == 0 ? kept : nil
    }

    // MARK: Step 4

    private func finish(_ prepared: [Prepared]) {
        for p in prepared where p.loaded != nil { unlink(p.tmp) }
        for dir in Set(prepared.map { PathString.deletingLastComponent($0.path) }) {
            AtomicFile.syncDirectory(dir)
        }
        // A journal image is over 100 bytes a task: past this many tasks the
        // entry cannot be kept whole (it would be cut to counts on flush), so
        // the images are not even built.
        let countsOnly = store.journal.map { journal in
            prepared.reduce(0) { $0 + $1.counts.total } > journal.maxEntryBytes / 100
        } ?? false
        for p in prepared {
            // The copy of what was written: read back (cheaper than encoding again) when it is still ours.
            if let placed = try? AtomicFile.read(path: p.path), Self.digest(placed.bytes) == p.digest {
                store.written.save(placed.bytes, for: p.kind)
            } else {
                store.written.save(TaskFileEncoder.encode(p.file), for: p.kind)
            }
            if countsOnly {
                store.journal?.recordCounts(kind: p.kind, name: p.file.displayName, fileID: p.file.id, created: p.loaded == nil, counts: p.counts)
            } else {
                store.journal?.record(kind: p.kind, before: p.loaded?.file, after: p.file)
            }
        }
    }
}

extension StoreWriter {
    /// Applies `edits` to several files, all or nothing (``MultiFileWrite``).
    public func updateAll(_ edits: [FileEdit], progress: ((Int, Int) -> Void)? = nil) throws {
        try MultiFileWrite(writer: self).apply(edits, progress: progress)
    }
}

extension StoreError {
    /// The reason of a failed read or write, without the path.
    var reasonText: String {
        switch self {
        case let .writeFailed(_, reason), let .readFailed(_, reason): return reason
        default: return errorDescription ?? "\(self)"
        }
    }
}
