import FoundationEssentials
import Glibc

/// The archive: `archive/<year>.json` files holding done tasks that
/// `tick archive` moved out of the lists (Docs/FORMAT.md section 16). They use
/// the list file format, are not part of ``Store/snapshot()`` (so no view or
/// index sees them) and are read on demand.
extension Store {
    /// The store-relative directory of archive files.
    public static let archiveDirectory = "archive"

    /// The year for a file name in `archive/` (`2026.json`), or nil when tick
    /// ignores the file (hidden, a sync-conflict copy, another name).
    public static func year(ofArchiveFileNamed name: String) -> Int? {
        guard name.hasSuffix(".json"), !name.hasPrefix("."), !name.contains(".sync-conflict-") else { return nil }
        let stem = name.dropLast(5)
        guard stem.count == 4, stem.allSatisfy({ $0.isASCII && $0.isNumber }), let year = Int(stem) else { return nil }
        return year
    }

    /// The archive files present, oldest year first. No `archive/` is no
    /// archive; one that cannot be listed is an error.
    public func archiveKinds() throws(StoreError) -> [FileKind] {
        let dir = location.path(Self.archiveDirectory)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else {
            var st = stat()
            guard stat(dir, &st) == 0, st.st_mode & S_IFMT == S_IFDIR else { return [] }
            throw .readFailed(path: dir, reason: "cannot list the directory")
        }
        return names.compactMap(Self.year(ofArchiveFileNamed:)).sorted().map { .archive(year: $0) }
    }

    /// Every store file, the archive's included (lists and inbox first);
    /// a directory that cannot be listed contributes none.
    public var allKinds: [FileKind] {
        ((try? kinds()) ?? []) + ((try? archiveKinds()) ?? [])
    }

    /// True when an archive file holds `id` as a task or a tombstone (its
    /// canonical `"id": "…"` member; bytes are searched, nothing is decoded,
    /// so a completion can ask cheaply whether its next occurrence was
    /// archived: Docs/RECURRENCE.md). Unreadable files count as not holding it.
    public func archiveHolds(_ id: UUID) -> Bool {
        guard let kinds = try? archiveKinds(), !kinds.isEmpty else { return false }
        let needle = Array("\"id\": \"\(id.lowercased)\"".utf8)
        return kinds.contains { kind in
            FileManager.default.contents(atPath: location.path(of: kind))?.firstRange(of: needle) != nil
        }
    }

    /// Reads every archive file; broken ones are reported, not thrown, as in ``snapshot()``.
    public func archiveSnapshot() throws(StoreError) -> StoreSnapshot {
        var files: [TaskFile] = []
        var broken: [FileKind: FormatError] = [:]
        for kind in try archiveKinds() {
            do {
                if let loaded = try read(kind) { files.append(loaded.file) }
            } catch {
                switch error {
                case .invalidFile(let e): broken[kind] = e
                case .readFailed(_, let reason): broken[kind] = FormatError.unreadable(path: displayPath(kind), reason: reason)
                default: throw error
                }
            }
        }
        return StoreSnapshot(files: files, broken: broken)
    }

    /// The store's files as a write reads them: each hand edit since tick last
    /// wrote a file stamped with the file's mtime (``WrittenCopies``), so a
    /// plan made from them matches what ``MultiFileWrite`` reads under the lock.
    /// Broken files are in `broken`.
    public func snapshotForWriting(_ kinds: [FileKind]) throws(StoreError) -> StoreSnapshot {
        var files: [TaskFile] = []
        var broken: [FileKind: FormatError] = [:]
        for kind in kinds {
            do {
                guard var loaded = try read(kind) else { continue }
                written.stampHandEdits(in: &loaded.file, bytes: loaded.bytes, at: loaded.stamp.modificationDate)
                files.append(loaded.file)
            } catch {
                switch error {
                case .invalidFile(let e): broken[kind] = e
                case .readFailed(_, let reason): broken[kind] = FormatError.unreadable(path: displayPath(kind), reason: reason)
                default: throw error
                }
            }
        }
        return StoreSnapshot(files: files, broken: broken)
    }
}
