import Foundation

extension StoreWriter {
    /// Stamps the hand edits in `kind` the moment tick sees the file changed
    /// (Docs/MERGE.md §17): the fields that differ from the written copy with
    /// the copy's change time get the file's mtime, and the file is written
    /// back stamped (swapped in, so a save made meanwhile is merged, never
    /// lost), before it can travel. `tick watch` calls it on every change,
    /// `tick sync` before it commits, `tick resolve` before it merges.
    ///
    /// - A file that is missing or equal to its copy is left alone.
    /// - A file that cannot be parsed is never rewritten (``StoreError/invalidFile(_:)``).
    /// - With nothing to stamp (a version a sync tool delivered, a change of
    ///   layout) the file is not rewritten; its copy becomes what is there, so
    ///   it is looked at once.
    /// - No undo step is recorded: the stamps say when the values changed,
    ///   they change no value.
    ///
    /// - Returns: how many tasks were stamped (0 when the file was not written).
    @discardableResult
    public func stampHandEdits(_ kind: FileKind) throws -> Int {
        for _ in 0..<Self.maxAttempts {
            let copy = store.written.copy(of: kind)
            guard let current = try AtomicFile.read(path: store.location.path(of: kind)) else { return 0 }
            if let copy, copy.bytes == current.bytes { return 0 }
            guard let loaded = try store.read(kind) else { return 0 }
            var file = loaded.file
            let stamped = store.written.stampHandEdits(in: &file, bytes: loaded.bytes, at: loaded.stamp.modificationDate, copy: copy)
            guard stamped > 0 else {
                store.written.save(loaded.bytes, for: kind)
                return 0
            }
            let bytes = TaskFileEncoder.encode(file)
            guard let placed = try SwappingWrite(store: store, kind: kind).put(bytes, file: file, over: loaded) else { continue }
            store.written.save(placed.bytes, for: kind)
            return stamped
        }
        throw StoreError.keptChanging(path: store.displayPath(kind))
    }

    /// ``stampHandEdits(_:)`` for every store file (lists, the inbox, the
    /// archive); files that cannot be parsed are skipped. Returns the files
    /// stamped, with how many tasks each.
    public func stampAllHandEdits() -> [(kind: FileKind, tasks: Int)] {
        let kinds = ((try? store.kinds()) ?? []) + ((try? store.archiveKinds()) ?? [])
        return kinds.compactMap { kind in
            guard let n = try? stampHandEdits(kind), n > 0 else { return nil }
            return (kind, n)
        }
    }

    /// Records every store file that parses as seen, as it is now (after a
    /// `git pull`: what git checked out came from the other machines, and a
    /// later look must not take their differences for hand edits made here).
    public func markAllSeen() {
        let kinds = ((try? store.kinds()) ?? []) + ((try? store.archiveKinds()) ?? [])
        for kind in kinds {
            guard let loaded = try? store.read(kind) else { continue }
            store.written.save(loaded.bytes, for: kind)
        }
    }
}
