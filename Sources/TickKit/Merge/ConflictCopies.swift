import FoundationEssentials
import Glibc

/// The name of a Syncthing conflict copy:
/// `NAME.sync-conflict-YYYYMMDD-HHMMSS-DEVICE.json`, where DEVICE is the first
/// 7 characters of the other device's id (uppercase base32: `A`–`Z`, `2`–`7`).
/// The original file is `NAME.json`.
public struct SyncConflictName: Sendable, Equatable, Hashable {
    /// The name of the file the copy belongs to, e.g. `work.json`.
    public var original: String
    /// `YYYYMMDD`.
    public var date: String
    /// `HHMMSS`.
    public var time: String
    /// The short device id, e.g. `ABCDEF7`.
    public var device: String

    static let marker = ".sync-conflict-"

    /// Parses a bare file name (no directory); nil unless it is exactly
    /// Syncthing's format for a `.json` file.
    public init?(fileName: String) {
        // NAME + ".sync-conflict-" + 8 digits + "-" + 6 digits + "-" + 7 base32 + ".json"
        let suffixLength = Self.marker.count + 8 + 1 + 6 + 1 + 7 + ".json".count
        let chars = Array(fileName)
        guard chars.count > suffixLength, fileName.hasSuffix(".json"), !fileName.contains("/") else { return nil }
        let baseEnd = chars.count - suffixLength
        let base = String(chars[..<baseEnd])
        let tail = Array(chars[baseEnd...])
        guard String(tail[0..<Self.marker.count]) == Self.marker else { return nil }
        var i = Self.marker.count
        let date = String(tail[i..<i + 8]); i += 8
        guard tail[i] == "-" else { return nil }; i += 1
        let time = String(tail[i..<i + 6]); i += 6
        guard tail[i] == "-" else { return nil }; i += 1
        let device = String(tail[i..<i + 7]); i += 7
        guard String(tail[i...]) == ".json" else { return nil }
        // A copy of a copy, a hidden file or an empty name is not a copy of a store file.
        guard !base.isEmpty, !base.hasPrefix("."), !base.contains(Self.marker) else { return nil }
        guard Self.isValidDate(date), Self.isValidTime(time) else { return nil }
        guard device.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) || ("2"..."7").contains($0) }) else { return nil }
        self.original = base + ".json"
        self.date = date
        self.time = time
        self.device = device
    }

    /// The copy's own file name.
    public var fileName: String {
        String(original.dropLast(5)) + Self.marker + date + "-" + time + "-" + device + ".json"
    }

    /// When the conflict happened, then the device: the order copies are merged in.
    public var sortKey: String { date + time + device }

    private static func digits(_ s: String) -> [Int]? {
        let d = s.unicodeScalars.map { Int($0.value) - 48 }
        return d.allSatisfy({ (0...9).contains($0) }) ? d : nil
    }

    private static func isValidDate(_ s: String) -> Bool {
        guard let d = digits(s), d.count == 8 else { return false }
        let month = d[4] * 10 + d[5]
        let day = d[6] * 10 + d[7]
        return (1...12).contains(month) && (1...31).contains(day)
    }

    private static func isValidTime(_ s: String) -> Bool {
        guard let d = digits(s), d.count == 6 else { return false }
        return d[0] * 10 + d[1] < 24 && d[2] * 10 + d[3] < 60 && d[4] * 10 + d[5] < 61
    }
}

/// A Syncthing conflict copy of a store file.
public struct ConflictCopy: Sendable, Equatable, Hashable {
    /// The file it is a copy of.
    public var kind: FileKind
    /// Its path relative to the store root, e.g. `lists/work.sync-conflict-20261121-093512-ABCDEF7.json`.
    public var relativePath: String
    public var name: SyncConflictName

    public init(kind: FileKind, relativePath: String, name: SyncConflictName) {
        self.kind = kind
        self.relativePath = relativePath
        self.name = name
    }
}

/// Something in a store that needs `tick resolve`.
public enum PendingConflict: Sendable, Equatable, Hashable {
    /// A Syncthing conflict copy next to its original.
    case copy(ConflictCopy)
    /// A store file with git conflict markers in it.
    case markers(FileKind)

    /// The path relative to the store root.
    public var relativePath: String {
        switch self {
        case .copy(let c): return c.relativePath
        case .markers(let kind): return kind.relativePath
        }
    }
}

extension Store {
    /// Every Syncthing conflict copy of a store file: `inbox.sync-conflict-*.json`
    /// in the root, `<slug>.sync-conflict-*.json` in `lists/` and
    /// `<year>.sync-conflict-*.json` in `archive/`. Sorted by the
    /// original file, then oldest first (the order they are merged in).
    public func conflictCopies() -> [ConflictCopy] {
        var out: [ConflictCopy] = []
        let fm = FileManager.default
        for name in (try? fm.contentsOfDirectory(atPath: location.root)) ?? [] {
            guard let parsed = SyncConflictName(fileName: name), parsed.original == "inbox.json" else { continue }
            out.append(ConflictCopy(kind: .inbox, relativePath: name, name: parsed))
        }
        for name in (try? fm.contentsOfDirectory(atPath: location.path("lists"))) ?? [] {
            guard let parsed = SyncConflictName(fileName: name),
                  let slug = Store.slug(ofListFileNamed: parsed.original) else { continue }
            out.append(ConflictCopy(kind: .list(slug: slug), relativePath: "lists/" + name, name: parsed))
        }
        for name in (try? fm.contentsOfDirectory(atPath: location.path(Store.archiveDirectory))) ?? [] {
            guard let parsed = SyncConflictName(fileName: name),
                  let year = Store.year(ofArchiveFileNamed: parsed.original) else { continue }
            out.append(ConflictCopy(kind: .archive(year: year), relativePath: Store.archiveDirectory + "/" + name, name: parsed))
        }
        return out.sorted {
            if $0.kind != $1.kind { return $0.kind < $1.kind }
            if $0.name.sortKey != $1.name.sortKey { return $0.name.sortKey < $1.name.sortKey }
            return $0.relativePath < $1.relativePath
        }
    }

    /// The Syncthing conflict copies of blocks.json (`blocks.sync-conflict-*.json`
    /// in the root), oldest first: the order `tick resolve` merges them in,
    /// and the order the sync names them while they wait.
    public func commitmentConflictCopies() -> [(name: SyncConflictName, relativePath: String)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: location.root)) ?? []
        return names.compactMap { name in
            guard let parsed = SyncConflictName(fileName: name), parsed.original == CommitmentFile.relativePath else { return nil }
            return (parsed, name)
        }.sorted { ($0.name.sortKey, $0.relativePath) < ($1.name.sortKey, $1.relativePath) }
    }

    /// Store files (of `kinds`, default all) that contain git conflict markers.
    public func filesWithConflictMarkers(among kinds: [FileKind]? = nil) -> [FileKind] {
        let candidates = kinds ?? allKinds
        return candidates.filter { kind in
            guard let read = try? AtomicFile.read(path: location.path(of: kind)) else { return false }
            return ConflictMarkers.contains(read.bytes)
        }.sorted()
    }

    /// Everything `tick resolve` would handle: files with markers first, then copies.
    /// `markerCandidates` limits the files scanned for markers (e.g. to unreadable ones).
    public func pendingConflicts(markerCandidates: [FileKind]? = nil) -> [PendingConflict] {
        filesWithConflictMarkers(among: markerCandidates).map(PendingConflict.markers) + conflictCopies().map(PendingConflict.copy)
    }
}
