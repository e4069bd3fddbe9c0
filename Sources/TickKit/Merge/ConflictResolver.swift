import FoundationEssentials
import Glibc

/// One thing `tick resolve` (or the watcher) did or could not do.
public enum ResolveStep: Sendable {
    /// A file with git conflict markers was merged (or would be, in a dry run).
    case markersMerged(FileKind, gitConflicts: Int, threeWay: Bool, report: MergeReport)
    /// Syncthing conflict copies (store-relative paths) were merged into their file and removed.
    case copiesMerged(FileKind, copies: [String], report: MergeReport)
    /// A version could not be read; it was left alone.
    case unreadable(FormatError)
    /// The file still has conflict markers, so its copies wait.
    case copiesWaiting(FileKind, count: Int)
    /// The file itself cannot be read, so its copies were left alone.
    case fileUnreadable(FileKind)
    /// Tasks found in several files were merged into one list (or removed).
    case reconciled(ReconcileReport)
}

/// Where `tick resolve` keeps the versions it merged away, outside the store
/// (`$XDG_STATE_HOME/tick/<store>/resolved/`): each conflict copy and each
/// file with conflict markers, before it is removed or rewritten, and each
/// file the store-level merge rewrites. A value a later change replaced can
/// always be found there.
public struct ResolvedArchive: Sendable {
    public let directory: String
    let clock: @Sendable () -> Date

    public init(store: Store) {
        directory = PathString.appending(store.location.stateDirectory, "resolved")
        clock = store.clock
    }

    /// Keeps `bytes` as `<UTC time>-<relative path with / as _>`; failures are ignored.
    public func keep(_ bytes: [UInt8], as relativePath: String) {
        let stamp = Timestamp.format(clock()).replacingAll(":", with: "")
        let name = stamp + "-" + relativePath.replacingAll("/", with: "_")
        try? PrivateFiles.createDirectory(directory)
        try? AtomicFile.write(bytes, to: PathString.appending(directory, name), mode: UInt32(PrivateFiles.fileMode), durable: false)
    }
}

/// Merges what syncing left in a store into its files: git conflict markers,
/// Syncthing conflict copies (`NAME.sync-conflict-….json`, two-way, oldest
/// first), then the whole store so that a task is in one file only
/// (``StoreReconciler``). The workflow of `tick resolve`, the git hooks and
/// the watcher; it never prints, it returns ``ResolveStep``s.
public struct ConflictResolver {
    public let store: Store
    public let dryRun: Bool
    /// Files whose markers could not be resolved: their copies wait.
    private var blocked: Set<FileKind> = []
    /// In a dry run, what files with markers would become (their copies fold onto that).
    private var wouldWrite: [FileKind: TaskFile] = [:]

    public init(store: Store, dryRun: Bool) {
        self.store = store
        self.dryRun = dryRun
    }

    /// Resolves everything pending. Holds the store lock while writing.
    public mutating func run() throws -> [ResolveStep] {
        if dryRun { return try work(writer: nil) }
        var me = self
        let steps = try store.withLock { writer in try me.work(writer: writer) }
        self = me
        return steps
    }

    /// Resolves everything pending with the store lock already held (`tick sync`).
    public mutating func run(writer: StoreWriter) throws -> [ResolveStep] {
        try work(writer: dryRun ? nil : writer)
    }

    private mutating func work(writer: StoreWriter?) throws -> [ResolveStep] {
        var steps: [ResolveStep] = []
        for kind in store.filesWithConflictMarkers() { steps += try resolveMarkers(kind) }
        var groups: [FileKind: [ConflictCopy]] = [:]
        for c in store.conflictCopies() { groups[c.kind, default: []].append(c) }
        for kind in groups.keys.sorted() {
            steps += try resolveCopies(kind, groups[kind] ?? [], writer: writer)
        }
        let reconciled: ReconcileReport
        if let writer {
            let archive = ResolvedArchive(store: store)
            reconciled = try StoreReconciler.run(writer: writer) { file in
                archive.keep(TaskFileEncoder.encode(file), as: file.kind.relativePath)
            }
        } else {
            // Each file's hand edits stamped in memory first, as the writer's join stamps them.
            var files = try store.snapshotForWriting(store.kinds() + store.archiveKinds()).files
            for (kind, file) in wouldWrite {
                if let i = files.firstIndex(where: { $0.kind == kind }) { files[i] = file }
            }
            reconciled = StoreReconciler.reconcile(files).report
        }
        if !reconciled.isEmpty { steps.append(.reconciled(reconciled)) }
        return steps
    }

    /// Merges the versions in a file with git conflict markers and writes the result.
    mutating func resolveMarkers(_ kind: FileKind) throws -> [ResolveStep] {
        let path = store.location.path(of: kind)
        let shown = store.displayPath(kind)
        guard let (bytes, stamp) = try AtomicFile.read(path: path) else { return [] }
        let sides: ConflictMarkers.Sides
        do {
            sides = try ConflictMarkers.split(bytes)
        } catch {
            blocked.insert(kind)
            return [.unreadable(FormatError(path: shown, location: SourceLocation(offset: Self.offset(ofLine: error.line, in: bytes), in: bytes), message: "cannot split the git conflict: \(error.message)"))]
        }
        let fallback = stamp.modificationDate
        var problems: [ResolveStep] = []
        func decode(_ side: [UInt8], _ map: [Int], _ label: String) -> TaskFile? {
            do {
                return try TaskFileDecoder(bytes: side, path: shown, kind: kind, fallbackDate: fallback).decode()
            } catch {
                var located = error
                if let loc = error.location {
                    located.location = SourceLocation(line: ConflictMarkers.Sides.fileLine(loc.line, in: map), column: loc.column, lineText: loc.lineText)
                }
                located.message += " (in the \(label) version of the conflict)"
                problems.append(.unreadable(located))
                return nil
            }
        }
        let ours = decode(sides.ours, sides.oursLines, "first (ours)")
        let theirs = decode(sides.theirs, sides.theirsLines, "second (theirs)")
        guard let ours, let theirs else {
            blocked.insert(kind)
            return problems
        }
        // A base that cannot be read only costs the three-way information.
        var base: TaskFile?
        if let b = sides.base {
            base = try? TaskFileDecoder(bytes: b, path: shown, kind: kind, fallbackDate: fallback).decode()
        }
        var outcome = MergeEngine.merge(base: base, ours: ours, theirs: theirs)
        outcome.file.kind = kind
        let step = ResolveStep.markersMerged(kind, gitConflicts: sides.conflicts, threeWay: base != nil, report: outcome.report)
        if dryRun {
            wouldWrite[kind] = outcome.file
            return [step]
        }
        let merged = TaskFileEncoder.encode(outcome.file)
        ResolvedArchive(store: store).keep(bytes, as: kind.relativePath)
        guard try AtomicFile.replace(path, with: merged, expecting: bytes, mode: stamp.mode) else {
            throw StoreError.writeFailed(path: shown, reason: "it changed on disk while tick was resolving it; nothing was written, run `tick resolve` again")
        }
        store.written.save(merged, for: kind)
        return [step]
    }

    /// Folds every readable conflict copy of one file into it, then removes them.
    mutating func resolveCopies(_ kind: FileKind, _ copies: [ConflictCopy], writer: StoreWriter?) throws -> [ResolveStep] {
        guard !blocked.contains(kind) else { return [.copiesWaiting(kind, count: copies.count)] }
        var steps: [ResolveStep] = []
        var files: [(ConflictCopy, TaskFile)] = []
        // A conflict copy travels to every device. Only this machine's own
        // replaced version (it carries exactly the stamps tick last wrote here)
        // may hold a hand edit no tick saw: that is stamped at the copy's mtime.
        // A copy from another machine is merged by its stamps alone, so every
        // machine that resolves the same versions writes the same bytes
        // (Docs/MERGE.md §18).
        // The written copies: the last, and the earlier ones kept, since the
        // version that replaced the copy may have been seen first.
        let writtenCopies = store.written.copies(of: kind)
        let written = store.written.copy(of: kind)
        for copy in copies {
            let path = store.location.path(copy.relativePath)
            guard let (bytes, stamp) = try AtomicFile.read(path: path) else { continue }
            do {
                var file = try TaskFileDecoder(bytes: bytes, path: store.shownPath(path), kind: kind, fallbackDate: stamp.modificationDate).decode()
                if let origin = store.written.ownOrigin(of: file, bytes: bytes, at: stamp.modificationDate, among: writtenCopies) {
                    store.written.stampHandEdits(in: &file, bytes: bytes, at: stamp.modificationDate, copy: origin)
                }
                files.append((copy, file))
            } catch {
                steps.append(.unreadable(error))
            }
        }
        guard !files.isEmpty else { return steps }
        // The file's own hand edits are stamped first, as a step of their own
        // (the merge below consults no written copy).
        do {
            if let writer { try writer.stampHandEdits(kind) }
        } catch StoreError.invalidFile(let problem) {
            return steps + [.unreadable(problem), .fileUnreadable(kind)]
        }
        let fold = { (file: inout TaskFile) -> MergeReport in
            var total = MergeReport()
            for (_, copy) in files {
                let outcome = MergeEngine.merge(base: nil, ours: file, theirs: copy)
                file = outcome.file
                file.kind = kind
                total.added += outcome.report.added
                total.updated += outcome.report.updated
                total.deleted += outcome.report.deleted
                total.conflictsResolved += outcome.report.conflictsResolved
                total.overrides += outcome.report.overrides
            }
            return total
        }
        // A file that is gone starts from its first copy.
        let create = { () -> TaskFile in files[0].1 }
        let total: MergeReport
        do {
            if let writer {
                total = try writer.update(kind, create: create, stampChanges: false, fold)
            } else {
                var file: TaskFile
                if let pending = wouldWrite[kind] {
                    file = pending
                } else if var read = try store.read(kind) {
                    store.written.stampHandEdits(in: &read.file, bytes: read.bytes, at: read.stamp.modificationDate, copy: written)
                    file = read.file
                } else {
                    file = create()
                }
                total = fold(&file)
                wouldWrite[kind] = file
            }
        } catch StoreError.invalidFile(let problem) {
            return steps + [.unreadable(problem), .fileUnreadable(kind)]
        }
        if writer != nil {
            let archive = ResolvedArchive(store: store)
            for (copy, _) in files {
                let path = store.location.path(copy.relativePath)
                if let kept = try? AtomicFile.read(path: path) { archive.keep(kept.bytes, as: copy.relativePath) }
                try AtomicFile.remove(path: path)
            }
        }
        return steps + [.copiesMerged(kind, copies: files.map { $0.0.relativePath }, report: total)]
    }

    /// The byte offset where a 1-based line starts.
    static func offset(ofLine line: Int, in bytes: [UInt8]) -> Int {
        var current = 1
        for (i, b) in bytes.enumerated() where b == UInt8(ascii: "\n") {
            current += 1
            if current == line { return i + 1 }
        }
        return 0
    }
}

extension Store {
    /// A path as messages show it: relative to the current directory when below it.
    public func shownPath(_ path: String) -> String {
        guard let cwd = currentDirectory, !cwd.isEmpty, cwd != "/" else { return path }
        let prefix = cwd.hasSuffix("/") ? cwd : cwd + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}
