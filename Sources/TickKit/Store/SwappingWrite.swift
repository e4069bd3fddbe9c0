import FoundationEssentials
import Glibc

/// Replaces a store file without overwriting, unseen, a save made meanwhile
/// by another program (an editor, Syncthing, git).
///
/// Each round writes the new version to a temp file and fsyncs it, checks
/// that the file still holds what tick read (else merges what it holds and
/// starts the round over: nothing was replaced yet), then swaps the temp file
/// with the file in one step (`renameat2` with `RENAME_EXCHANGE`) and
/// compares what was swapped out with what the check saw. They differ only
/// when a save landed in the instant between the check and the swap: that
/// version is merged in (three-way: base = what tick expected, ours = what
/// tick wrote, theirs = the version swapped out) and the merge is put in
/// place the same way. A swapped-out version is deleted only once a swap
/// has put a merge holding it in place; when something fails it is kept
/// next to the file (`<name>.tick-kept-<random>`) and the error names it.
///
/// Where the filesystem cannot exchange (`EINVAL`, `EOPNOTSUPP`), the temp file
/// is renamed over the file right after the check (a save in that instant
/// is lost).
///
/// A list file that is a symbolic link is written through: the swap happens
/// at the link's target, and the link stays (Docs/FORMAT.md section 10).
struct SwappingWrite {
    let store: Store
    let kind: FileKind
    /// The file written: the store file, or the target of the link it is.
    private let path: String
    /// Set when the store file is a link whose target does not exist.
    private let danglingLink: String?

    init(store: Store, kind: FileKind) {
        self.store = store
        self.kind = kind
        let storePath = store.location.path(of: kind)
        var st = stat()
        if lstat(storePath, &st) == 0, st.st_mode & S_IFMT == S_IFLNK {
            if let resolved = realpath(storePath, nil) {
                path = String(cString: resolved)
                free(resolved)
                danglingLink = nil
            } else {
                path = storePath
                danglingLink = (try? FileManager.default.destinationOfSymbolicLink(atPath: storePath)) ?? "?"
            }
        } else {
            path = storePath
            danglingLink = nil
        }
    }

    /// How many rounds before giving up (each is a merge and an fsync).
    static let maxRounds = 40

    /// What ended up in the file.
    struct Placed {
        var bytes: [UInt8]
        var file: TaskFile
        /// True when versions saved meanwhile were merged in.
        var merged: Bool
    }

    private var directory: String { PathString.deletingLastComponent(path) }

    /// Writes `bytes` (`file`, encoded) in place of the file `loaded` was read
    /// from, or as a new file when `loaded` is nil.
    ///
    /// - Returns: what is in the file now, or nil when the file was created or
    ///   removed meanwhile: the caller reads it again and re-applies its change.
    func put(_ bytes: [UInt8], file: TaskFile, over loaded: Store.Loaded?) throws -> Placed? {
        if let danglingLink {
            throw StoreError.writeFailed(path: store.displayPath(kind), reason: "it is a symbolic link to \(danglingLink), which does not exist")
        }
        let ours = Placed(bytes: bytes, file: file, merged: false)
        guard let loaded else { return try create(ours) }
        // A file without write permission (`chmod 444`) is left alone, though the swap could replace it.
        try AtomicFile.requireWritable(path: path, shown: store.displayPath(kind))
        return try settle(ours, expected: loaded.bytes, base: loaded.file, mode: loaded.stamp.mode)
    }

    /// A new file: renamed into place only if nothing is there (`RENAME_NOREPLACE`).
    private func create(_ ours: Placed) throws -> Placed? {
        let tmp = try AtomicFile.writeTemp(ours.bytes, for: path, mode: nil)
        let error = RenameAt2.rename(tmp, path, flags: RenameAt2.noReplace)
        if error == 0 {
            AtomicFile.syncDirectory(directory)
            return ours
        }
        if RenameAt2.unsupported(error), FileStamp.of(path: path) == nil {
            try AtomicFile.rename(tmp, over: path)
            return ours
        }
        unlink(tmp)
        if error == EEXIST || RenameAt2.unsupported(error) { return nil }
        throw StoreError.writeFailed(path: path, reason: String(cString: strerror(error)))
    }

    /// Puts `ours` in the file, which should hold `expected` (`base`, decoded).
    /// `pending` holds swapped-out versions merged into `ours` but not yet in place.
    private func settle(_ ours: Placed, expected: [UInt8], base: TaskFile, mode: UInt32) throws -> Placed? {
        var ours = ours
        var expected = expected
        var base = base
        var pending: [String] = []
        // The copy of what tick last wrote, for stamping hand edits: it does not change meanwhile.
        let copy = store.written.copy(of: kind)
        // Saves put back in the file after landing between a check and a swap.
        var backOffs = 0
        for _ in 0..<Self.maxRounds {
            let tmp = try AtomicFile.writeTemp(ours.bytes, for: path, mode: mode)
            let current: (bytes: [UInt8], stamp: FileStamp)?
            do {
                current = try AtomicFile.read(path: path)
            } catch {
                unlink(tmp)
                if pending.isEmpty { throw error }
                throw keep(pending, written: false)
            }
            guard let current else {
                unlink(tmp)
                // Removed meanwhile: the caller reads again (and re-creates or fails).
                if pending.isEmpty { return nil }
                throw keep(pending, written: false)
            }
            if current.bytes != expected {
                // Saved since tick read it (or last swapped): merge that version first.
                unlink(tmp)
                let theirs: TaskFile
                do {
                    theirs = try decode(current, copy: copy)
                } catch {
                    if pending.isEmpty { throw error }
                    throw keep(pending, written: false)
                }
                ours = merge(base: base, ours: ours, theirs: theirs)
                expected = current.bytes
                base = theirs
                continue
            }
            store.beforeSwap?(path)
            let error = RenameAt2.rename(tmp, path, flags: RenameAt2.exchange)
            if error != 0 {
                if RenameAt2.unsupported(error) {
                    // No exchange on this filesystem: rename right after the check.
                    try AtomicFile.rename(tmp, over: path)
                    pending.forEach { unlink($0) }
                    return ours
                }
                unlink(tmp)
                if error == ENOENT { continue }   // removed after the check: the next round sees it
                if pending.isEmpty { throw StoreError.writeFailed(path: path, reason: String(cString: strerror(error))) }
                throw keep(pending, written: false)
            }
            // `tmp` now holds what the swap took out of the file.
            guard let out = try? AtomicFile.read(path: tmp) else { throw keep(pending + [tmp], written: true) }
            if out.bytes == expected {
                unlink(tmp)
                pending.forEach { unlink($0) }
                AtomicFile.syncDirectory(directory)
                return ours
            }
            // A save landed between the check and the swap: put it back at once,
            // before anything else, so that a program that reads the file now
            // (an editor about to save again) sees its save, not tick's version
            // without it. The file showed tick's version for two system calls
            // and a read; the merge is then made as after a failed check.
            store.beforeSwap?(path)
            if RenameAt2.rename(tmp, path, flags: RenameAt2.exchange) == 0 {
                // `tmp` now holds what the swap back took out: tick's version,
                // or, rarely, a save made in the instant between the swaps.
                let back = try? AtomicFile.read(path: tmp)
                var second: TaskFile?
                if back?.bytes != ours.bytes {
                    guard let back, let decoded = try? decode(back, copy: copy) else { throw keep(pending + [tmp], written: false) }
                    pending.append(hold(tmp))
                    second = decoded
                } else {
                    unlink(tmp)
                }
                let theirs: TaskFile
                do {
                    theirs = try decode(out, copy: copy)
                } catch {
                    // Their save is in the file again and tick wrote nothing.
                    if pending.isEmpty { throw error }
                    throw keep(pending, written: false)
                }
                backOffs += 1
                usleep(UInt32.random(in: 0...(500 << min(backOffs, 5))))
                ours = merge(base: base, ours: ours, theirs: theirs)
                // The save between the swaps replaced tick's version, which it may
                // never have seen: merged on the version tick expected, so that
                // only what it changed from that counts (tick's additions stay).
                if let second { ours = merge(base: base, ours: ours, theirs: second) }
                expected = out.bytes
                base = theirs
                continue
            }
            // The swap back failed: `tmp` holds their save, merged three-way.
            let theirs: TaskFile
            do {
                theirs = try decode(out, copy: copy)
            } catch {
                throw withdraw(tmp, ours: ours, pending: pending, parseError: error)
            }
            pending.append(hold(tmp))
            // A writer that also swaps and checks (a tool like this one) reacts to
            // this swap as this one reacts to its: a random pause lets one finish first.
            usleep(UInt32.random(in: 0...(500 << min(pending.count, 5))))
            let merged = merge(base: base, ours: ours, theirs: theirs)
            expected = ours.bytes
            base = ours.file
            ours = merged
        }
        if pending.isEmpty { throw StoreError.keptChanging(path: store.displayPath(kind)) }
        throw keep(pending, written: true)
    }

    /// Renames a swapped-out version (at `tmp`) to `.<file>.tick-swapped-<random>`,
    /// a name a later write's sweep of dead temps never matches (StaleTemps): it
    /// may be the only copy of that save until the merge is in place. Returns
    /// where it is now (`tmp` when the rename failed).
    private func hold(_ tmp: String) -> String {
        let held = AtomicFile.siblingPath(of: path, tag: "tick-swapped", suffix: "")
        return Glibc.rename(tmp, held) == 0 ? held : tmp
    }

    /// Decodes a version another program saved and stamps its hand edits
    /// (against the copy of what tick last wrote) with its modification time.
    private func decode(_ version: (bytes: [UInt8], stamp: FileStamp), copy: WrittenCopies.Copy?) throws -> TaskFile {
        var file: TaskFile
        do {
            file = try TaskFileDecoder(bytes: version.bytes, path: store.displayPath(kind), kind: kind,
                                       fallbackDate: version.stamp.modificationDate).decode()
        } catch {
            throw StoreError.invalidFile(error)
        }
        store.written.stampHandEdits(in: &file, bytes: version.bytes, at: version.stamp.modificationDate, copy: copy)
        return file
    }

    private func merge(base: TaskFile, ours: Placed, theirs: TaskFile) -> Placed {
        let file = MergeEngine.merge(base: base, ours: ours.file, theirs: theirs).file
        return Placed(bytes: TaskFileEncoder.encode(file), file: file, merged: true)
    }

    /// The version swapped out (now at `out`) does not parse: it is swapped
    /// back in and tick's write withdrawn. Whatever comes out of that swap is
    /// kept unless it is exactly tick's write, as is every pending version.
    private func withdraw(_ out: String, ours: Placed, pending: [String], parseError: Error) -> Error {
        guard RenameAt2.rename(out, path, flags: RenameAt2.exchange) == 0 else { return keep(pending + [out], written: true) }
        AtomicFile.syncDirectory(directory)
        guard let back = try? AtomicFile.read(path: out), back.bytes == ours.bytes else {
            return keep(pending + [out], written: false)
        }
        unlink(out)
        return pending.isEmpty ? parseError : keep(pending, written: false)
    }

    /// Renames swapped-out versions to `<name>.tick-kept-<random>` next to the
    /// file (tick does not read them as lists) and returns the error naming them.
    private func keep(_ versions: [String], written: Bool) -> StoreError {
        let shownDirectory = PathString.deletingLastComponent(store.displayPath(kind))
        let shown = versions.map { version in
            let kept = AtomicFile.keepBeside(version, of: path)
            return kept == version ? version : PathString.appending(shownDirectory, PathString.lastComponent(kept))
        }
        return .unmergedSave(path: store.displayPath(kind), kept: shown, written: written)
    }
}
