import Foundation
import TickKit

/// `tick resolve` for blocks.json: git conflict markers in it, and Syncthing
/// conflict copies of it (`blocks.sync-conflict-*.json`), merged block by block.
struct CommitmentConflicts {
    let context: Context
    let dryRun: Bool

    var store: Store { context.store }
    var t: Terminal { context.terminal }

    /// The Syncthing conflict copies of blocks.json, oldest first.
    var copies: [(name: SyncConflictName, path: String)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: store.location.root)) ?? []
        return names.compactMap { name in
            guard let parsed = SyncConflictName(fileName: name), parsed.original == CommitmentFile.relativePath else { return nil }
            return (parsed, store.location.path(name))
        }.sorted { ($0.name.sortKey, $0.path) < ($1.name.sortKey, $1.path) }
    }

    /// True when blocks.json has git conflict markers.
    var hasMarkers: Bool {
        guard let read = try? AtomicFile.read(path: store.commitmentsPath) else { return false }
        return ConflictMarkers.contains(read.bytes)
    }

    /// True when there is anything to do.
    var pending: Bool { hasMarkers || !copies.isEmpty }

    /// Resolves everything; returns the number of versions that could not be read.
    func resolve() throws -> Int {
        var failures = 0
        let shown = store.commitmentsDisplayPath
        if hasMarkers {
            guard let (bytes, stamp) = try AtomicFile.read(path: store.commitmentsPath) else { return 0 }
            do {
                let sides = try ConflictMarkers.split(bytes)
                let ours = try CommitmentFileCodec.decode(sides.ours, path: shown + " (ours)", fallbackDate: stamp.modificationDate)
                let theirs = try CommitmentFileCodec.decode(sides.theirs, path: shown + " (theirs)", fallbackDate: stamp.modificationDate)
                let base = sides.base.flatMap { try? CommitmentFileCodec.decode($0, path: shown, fallbackDate: stamp.modificationDate) }
                let outcome = CommitmentMerge.merge(base: base, ours: ours, theirs: theirs)
                if dryRun {
                    t.out("Would merge \(shown) (\(base == nil ? "two-way" : "three-way")): \(Self.describe(outcome.report))")
                } else {
                    guard FileStamp.of(path: store.commitmentsPath) == stamp else {
                        throw CLIError("\(shown) changed on disk while tick was resolving it; nothing was written, run `tick resolve` again")
                    }
                    try AtomicFile.write(CommitmentFileCodec.encode(outcome.file), to: store.commitmentsPath, mode: stamp.mode)
                    t.out("Merged \(shown) (\(base == nil ? "two-way" : "three-way")): \(Self.describe(outcome.report))")
                }
            } catch let error as FormatError {
                t.err(error.errorDescription ?? error.summary)
                t.err("tick: \(shown) was left alone (and its conflict copies, if any)")
                return 1
            } catch let error as ConflictMarkerError {
                t.err("\(shown):\(error.line): error: cannot split the git conflict: \(error.message)")
                return 1
            }
        }
        let copies = self.copies
        guard !copies.isEmpty else { return failures }
        var files: [(path: String, file: CommitmentFile)] = []
        for copy in copies {
            guard let (bytes, stamp) = try AtomicFile.read(path: copy.path) else { continue }
            do {
                files.append((copy.path, try CommitmentFileCodec.decode(bytes, path: copy.path, fallbackDate: stamp.modificationDate)))
            } catch {
                t.err(error.errorDescription ?? error.summary)
                failures += 1
            }
        }
        guard !files.isEmpty else { return failures }
        let fold = { (file: inout CommitmentFile) -> CommitmentMerge.Report in
            var total = CommitmentMerge.Report()
            for copy in files {
                let outcome = CommitmentMerge.merge(base: nil, ours: file, theirs: copy.file)
                file = outcome.file
                total.added += outcome.report.added
                total.updated += outcome.report.updated
                total.conflictsResolved += outcome.report.conflictsResolved
            }
            return total
        }
        let what = files.count == 1 ? "the Syncthing conflict copy of \(shown)" : "\(files.count) Syncthing conflict copies of \(shown)"
        if dryRun {
            var file = try store.commitments()
            t.out("Would merge \(what) (two-way): \(Self.describe(fold(&file)))")
            return failures
        }
        let total = try store.withLock { writer in try writer.updateCommitments(fold) }
        t.out("Merged \(what) (two-way): \(Self.describe(total))")
        for copy in files { try AtomicFile.remove(path: copy.path) }
        t.out(files.count == 1 ? "  removed the copy" : "  removed \(files.count) copies")
        return failures
    }

    static func describe(_ r: CommitmentMerge.Report) -> String {
        "\(r.added) block\(r.added == 1 ? "" : "s") added, \(r.updated) updated, \(r.deleted) deleted, \(r.conflictsResolved) conflict\(r.conflictsResolved == 1 ? "" : "s") resolved"
    }
}
