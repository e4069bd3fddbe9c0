import FoundationEssentials
import Glibc

/// `tick resolve` for blocks.json: git conflict markers in it, and Syncthing
/// conflict copies of it (`blocks.sync-conflict-*.json`), merged block by
/// block. Markers are resolved first (``resolveMarkers()``), then the copies
/// (``resolveCopies()``); each returns what it did, for the caller to print.
public struct CommitmentConflicts {
    /// The store whose blocks.json is resolved.
    public let store: Store
    /// True when nothing is written.
    public let dryRun: Bool

    /// With `dryRun`, nothing is written or removed; the outcomes say what would be.
    public init(store: Store, dryRun: Bool) {
        self.store = store
        self.dryRun = dryRun
    }

    /// The Syncthing conflict copies of blocks.json, oldest first.
    public var copies: [(name: SyncConflictName, path: String)] {
        store.commitmentConflictCopies().map { ($0.name, store.location.path($0.relativePath)) }
    }

    /// True when blocks.json has git conflict markers.
    public var hasMarkers: Bool {
        guard let read = try? AtomicFile.read(path: store.commitmentsPath) else { return false }
        return ConflictMarkers.contains(read.bytes)
    }

    /// True when there is anything to do.
    public var pending: Bool { hasMarkers || !copies.isEmpty }

    /// What resolving the git conflict markers in blocks.json did.
    public enum MarkersOutcome {
        /// Both sides merged (three-way when the base section was there) and,
        /// unless a dry run, written back.
        case merged(threeWay: Bool, report: CommitmentMerge.Report)
        /// A side does not parse; the file (and its copies) were left alone.
        case unreadable(FormatError)
        /// The markers cannot be split into sides; the file (and its copies) were left alone.
        case unsplittable(ConflictMarkerError)

        /// True when the file was left alone (a version that could not be read).
        public var failed: Bool {
            if case .merged = self { return false }
            return true
        }
    }

    /// Merges the two sides of the git conflict in blocks.json; nil when it
    /// has no markers. Throws ``PlanningError/commitmentsChanged(path:)`` when
    /// the file changed while being resolved (nothing is written then).
    public func resolveMarkers() throws -> MarkersOutcome? {
        let shown = store.commitmentsDisplayPath
        guard let (bytes, stamp) = try AtomicFile.read(path: store.commitmentsPath), ConflictMarkers.contains(bytes) else { return nil }
        let sides: ConflictMarkers.Sides
        do { sides = try ConflictMarkers.split(bytes) } catch { return .unsplittable(error) }
        let ours: CommitmentFile
        let theirs: CommitmentFile
        do {
            ours = try CommitmentFileCodec.decode(sides.ours, path: shown + " (ours)", fallbackDate: stamp.modificationDate)
            theirs = try CommitmentFileCodec.decode(sides.theirs, path: shown + " (theirs)", fallbackDate: stamp.modificationDate)
        } catch {
            return .unreadable(error)
        }
        let base = sides.base.flatMap { try? CommitmentFileCodec.decode($0, path: shown, fallbackDate: stamp.modificationDate) }
        let outcome = CommitmentMerge.merge(base: base, ours: ours, theirs: theirs)
        if !dryRun {
            guard FileStamp.of(path: store.commitmentsPath) == stamp else { throw PlanningError.commitmentsChanged(path: shown) }
            try AtomicFile.write(CommitmentFileCodec.encode(outcome.file), to: store.commitmentsPath, mode: stamp.mode)
        }
        return .merged(threeWay: base != nil, report: outcome.report)
    }

    /// What merging the Syncthing conflict copies of blocks.json did.
    public struct CopiesOutcome {
        /// The copies that do not parse, left alone.
        public var unreadable: [FormatError] = []
        /// How many copies were merged (and, unless a dry run, removed).
        public var merged = 0
        /// The blocks merged from them, all copies together.
        public var report = CommitmentMerge.Report()
    }

    /// Merges every conflict copy two-way into blocks.json, oldest first, and
    /// removes the merged copies (unless a dry run); nil when there are none.
    public func resolveCopies() throws -> CopiesOutcome? {
        let copies = self.copies
        guard !copies.isEmpty else { return nil }
        var outcome = CopiesOutcome()
        var files: [(path: String, file: CommitmentFile)] = []
        for copy in copies {
            guard let (bytes, stamp) = try AtomicFile.read(path: copy.path) else { continue }
            do {
                files.append((copy.path, try CommitmentFileCodec.decode(bytes, path: copy.path, fallbackDate: stamp.modificationDate)))
            } catch {
                outcome.unreadable.append(error)
            }
        }
        guard !files.isEmpty else { return outcome }
        let fold = { (file: inout CommitmentFile) -> CommitmentMerge.Report in
            var total = CommitmentMerge.Report()
            for copy in files {
                let merged = CommitmentMerge.merge(base: nil, ours: file, theirs: copy.file)
                file = merged.file
                total.added += merged.report.added
                total.updated += merged.report.updated
                total.conflictsResolved += merged.report.conflictsResolved
            }
            return total
        }
        outcome.merged = files.count
        if dryRun {
            var file = try store.commitments()
            outcome.report = fold(&file)
            return outcome
        }
        outcome.report = try store.withLock { writer in try writer.updateCommitments(fold) }
        for copy in files { try AtomicFile.remove(path: copy.path) }
        return outcome
    }
}
