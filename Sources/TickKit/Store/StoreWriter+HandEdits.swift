import FoundationEssentials
import Glibc

extension StoreWriter {
    /// Stamps the hand edits in `kind` the moment tick sees the file changed
    /// (Docs/MERGE.md §17): the fields that differ from the written copy with
    /// the copy's change time get the file's mtime, and the file is written
    /// back stamped, before it can travel. `tick watch` calls it on every
    /// change, `tick sync` before it commits, `tick resolve` before it merges.
    ///
    /// - A file that is missing or equal to its copy is left alone.
    /// - A file without a copy (tick never wrote or saw it here: a list or an
    ///   archive year Syncthing brought) has nothing to compare with: it is
    ///   not stamped, but recorded as seen as it is, so that a hand edit made
    ///   here later is compared with it and stamped (Docs/MERGE.md §17).
    /// - A file that cannot be parsed is never rewritten (``StoreError/invalidFile(_:)``).
    /// - With nothing to stamp (a version a sync tool delivered, a change of
    ///   layout) the file is not rewritten; its copy becomes what is there, so
    ///   the next edit is compared with it. Another machine's version (it
    ///   carries stamps the copy does not) is never stamped here
    ///   (``WrittenCopies/isOwnVersion(_:copy:)``, Docs/MERGE.md §17).
    /// - The stamped file replaces the one read only if it is still there
    ///   unchanged (never merged, never over a save made meanwhile: that save
    ///   is a change of its own, seen next).
    /// - No undo step is recorded: the stamps say when values changed, they
    ///   change no value.
    ///
    /// - Returns: how many tasks were stamped (0 when the file was not written).
    @discardableResult
    public func stampHandEdits(_ kind: FileKind) throws -> Int {
        guard let copy = store.written.copy(of: kind) else {
            // Recorded only when it parses (a broken file is never taken as seen).
            // A file that cannot be read here is left to the callers that report it.
            if let loaded = (try? store.read(kind)) ?? nil { store.written.save(loaded.bytes, for: kind) }
            return 0
        }
        let storePath = store.location.path(of: kind)
        guard let current = try AtomicFile.read(path: storePath), current.bytes != copy.bytes else { return 0 }
        guard let loaded = try store.read(kind) else { return 0 }
        var file = loaded.file
        let stamped = store.written.stampHandEdits(in: &file, bytes: loaded.bytes, at: loaded.stamp.modificationDate, copy: copy)
        guard stamped > 0 else {
            store.written.save(loaded.bytes, for: kind)
            return 0
        }
        let bytes = TaskFileEncoder.encode(file)
        // A list file that is a link is written through, at its target.
        let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: storePath)) == nil
            ? storePath : (PathString.resolvingSymlinks(storePath))
        guard try AtomicFile.replace(target, with: bytes, expecting: loaded.bytes, mode: loaded.stamp.mode) else { return 0 }
        store.written.save(bytes, for: kind)
        return stamped
    }

    /// ``stampHandEdits(_:)`` for every store file (lists, the inbox, the
    /// archive); files that cannot be parsed are skipped. Returns the files
    /// stamped, with how many tasks each.
    public func stampAllHandEdits() -> [(kind: FileKind, tasks: Int)] {
        return store.allKinds.compactMap { kind in
            guard let n = try? stampHandEdits(kind), n > 0 else { return nil }
            return (kind, n)
        }
    }

    /// Records every store file that parses as seen, as it is now (after a
    /// `git pull`: what git checked out came from the other machines, and a
    /// later look must not take their differences for hand edits made here).
    public func markAllSeen() {
        for kind in store.allKinds {
            guard let loaded = try? store.read(kind) else { continue }
            store.written.save(loaded.bytes, for: kind)
        }
    }
}
