import ArgumentParser
import Foundation
import TickKit

extension Tick {
    struct Resolve: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Merge Syncthing conflict copies and git conflict markers into the store.",
            discussion: """
            Finds, in the store:

              - store files with git conflict markers (<<<<<<<, =======, >>>>>>>,
                and the ||||||| base section of merge.conflictStyle=diff3). Both
                versions are merged task by task (three-way when the base section
                is there, two-way otherwise) and the file is written back as
                valid, canonical JSON. Handled first.
              - Syncthing conflict copies, NAME.sync-conflict-YYYYMMDD-HHMMSS-DEVICE.json
                next to NAME.json (inbox.json in the store, lists in lists/). Each is
                merged two-way into its file (several copies of one file one by one,
                oldest first); tasks deleted on purpose (the file's "deleted"
                entries) are not brought back. The file is written atomically, and
                only then is the copy removed.
              - the same for blocks.json (fixed commitments): markers and
                blocks.sync-conflict-*.json copies are merged block by block.

            Prints what was merged, in counts per file. A version that cannot be \
            parsed is reported (path:line:column) and left alone; the exit status \
            is then 4. `tick status` lists pending conflicts.

            EXAMPLES
              tick resolve --dry-run
              tick resolve
            """)

        @OptionGroup var global: GlobalOptions

        @Flag(name: .long, help: "Show what would be merged; change nothing.")
        var dryRun = false

        func run() throws {
            let context = try Context(global)
            let store = context.store
            let markerFiles = store.filesWithConflictMarkers()
            let copies = store.conflictCopies()
            let t = context.terminal
            let blocks = CommitmentConflicts(context: context, dryRun: dryRun)
            let blocksPending = blocks.pending
            if markerFiles.isEmpty && copies.isEmpty && !blocksPending {
                t.out("No conflicts to resolve")
                return
            }
            if markerFiles.isEmpty && copies.isEmpty {
                let failures = try blocks.resolve()
                if dryRun { t.out("Dry run: nothing was changed") }
                if failures > 0 { throw CLIError("a version of blocks.json could not be read and was left alone; fix it by hand and run `tick resolve` again", status: .badData) }
                return
            }
            var resolver = ConflictResolver(context: context, dryRun: dryRun)
            let work = { (writer: StoreWriter?) throws in
                for kind in markerFiles { try resolver.resolveMarkers(kind) }
                var groups: [FileKind: [ConflictCopy]] = [:]
                for c in copies { groups[c.kind, default: []].append(c) }
                for kind in groups.keys.sorted() {
                    try resolver.resolveCopies(kind, groups[kind] ?? [], writer: writer)
                }
            }
            if dryRun {
                try work(nil)
                t.out("Dry run: nothing was changed")
            } else {
                try store.withLock { writer in try work(writer) }
                if resolver.changedSomething { _ = try? context.resyncIDs() }
            }
            if blocksPending { resolver.failures += try blocks.resolve() }
            if resolver.failures > 0 {
                throw CLIError("\(resolver.failures) version\(resolver.failures == 1 ? "" : "s") could not be read and \(resolver.failures == 1 ? "was" : "were") left alone; fix \(resolver.failures == 1 ? "it" : "them") by hand and run `tick resolve` again", status: .badData)
            }
        }
    }
}

/// The work of `tick resolve`, file by file.
struct ConflictResolver {
    let context: Context
    let dryRun: Bool
    var failures = 0
    var changedSomething = false
    /// Files whose markers could not be resolved: their copies wait.
    var blocked: Set<FileKind> = []
    /// In a dry run, what files with markers would become (their copies fold onto that).
    var wouldWrite: [FileKind: TaskFile] = [:]

    var t: Terminal { context.terminal }
    var store: Store { context.store }

    /// Merges the versions in a file with git conflict markers and writes the result.
    mutating func resolveMarkers(_ kind: FileKind) throws {
        let path = store.location.path(of: kind)
        let shown = store.displayPath(kind)
        guard let (bytes, stamp) = try AtomicFile.read(path: path) else { return }
        let sides: ConflictMarkers.Sides
        do {
            sides = try ConflictMarkers.split(bytes)
        } catch {
            report(FormatError(path: shown, location: SourceLocation(offset: Self.offset(ofLine: error.line, in: bytes), in: bytes), message: "cannot split the git conflict: \(error.message)"))
            blocked.insert(kind)
            return
        }
        let fallback = stamp.modificationDate
        func decode(_ side: [UInt8], _ map: [Int], _ label: String) -> TaskFile? {
            do {
                return try TaskFileDecoder(bytes: side, path: shown, kind: kind, fallbackDate: fallback).decode()
            } catch {
                var located = error
                if let loc = error.location {
                    located.location = SourceLocation(line: ConflictMarkers.Sides.fileLine(loc.line, in: map), column: loc.column, lineText: loc.lineText)
                }
                located.message += " (in the \(label) version of the conflict)"
                report(located)
                return nil
            }
        }
        let ours = decode(sides.ours, sides.oursLines, "first (ours)")
        let theirs = decode(sides.theirs, sides.theirsLines, "second (theirs)")
        guard let ours, let theirs else {
            blocked.insert(kind)
            return
        }
        // A base that cannot be read only costs the three-way information.
        var base: TaskFile?
        if let b = sides.base {
            base = try? TaskFileDecoder(bytes: b, path: shown, kind: kind, fallbackDate: fallback).decode()
        }
        var outcome = MergeEngine.merge(base: base, ours: ours, theirs: theirs)
        outcome.file.kind = kind
        let how = "\(sides.conflicts) git conflict\(sides.conflicts == 1 ? "" : "s"), \(base == nil ? "two-way" : "three-way")"
        if dryRun {
            t.out("Would merge \(shown) (\(how)): \(Self.describe(outcome.report))")
            wouldWrite[kind] = outcome.file
            return
        }
        guard FileStamp.of(path: path) == stamp else {
            throw CLIError("\(shown) changed on disk while tick was resolving it; nothing was written, run `tick resolve` again")
        }
        try AtomicFile.write(TaskFileEncoder.encode(outcome.file), to: path, mode: stamp.mode)
        changedSomething = true
        t.out("Merged \(shown) (\(how)): \(Self.describe(outcome.report))")
    }

    /// Folds every readable conflict copy of one file into it, then removes them.
    mutating func resolveCopies(_ kind: FileKind, _ copies: [ConflictCopy], writer: StoreWriter?) throws {
        let shown = store.displayPath(kind)
        guard !blocked.contains(kind) else {
            t.err("tick: \(shown) still has conflict markers; its \(copies.count) conflict cop\(copies.count == 1 ? "y waits" : "ies wait")")
            return
        }
        var files: [(ConflictCopy, TaskFile)] = []
        for copy in copies {
            let path = store.location.path(copy.relativePath)
            let copyShown = Self.displayPath(path, store: store)
            guard let (bytes, stamp) = try AtomicFile.read(path: path) else { continue }
            do {
                files.append((copy, try TaskFileDecoder(bytes: bytes, path: copyShown, kind: kind, fallbackDate: stamp.modificationDate).decode()))
            } catch {
                report(error)
            }
        }
        guard !files.isEmpty else { return }
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
            }
            return total
        }
        // A file that is gone starts from its first copy.
        let create = { () -> TaskFile in files[0].1 }
        let what = files.count == 1
            ? "the Syncthing conflict copy \(Self.displayPath(store.location.path(files[0].0.relativePath), store: store))"
            : "\(files.count) Syncthing conflict copies"
        let total: MergeReport
        do {
            if let writer {
                total = try writer.update(kind, create: create, fold)
            } else {
                var file = try wouldWrite[kind] ?? store.read(kind)?.file ?? create()
                total = fold(&file)
            }
        } catch StoreError.invalidFile(let problem) {
            report(problem)
            t.err("tick: \(shown) cannot be read, so its conflict copies were left alone")
            return
        }
        if writer == nil {
            t.out("Would merge \(what) into \(shown) (two-way): \(Self.describe(total))")
            return
        }
        changedSomething = true
        t.out("Merged \(what) into \(shown) (two-way): \(Self.describe(total))")
        for (copy, _) in files {
            try AtomicFile.remove(path: store.location.path(copy.relativePath))
            if files.count > 1 { t.out("  removed \(Self.displayPath(store.location.path(copy.relativePath), store: store))") }
        }
        if files.count == 1 { t.out("  removed the copy") }
    }

    mutating func report(_ error: FormatError) {
        failures += 1
        t.err(error.errorDescription ?? error.summary)
    }

    static func describe(_ r: MergeReport) -> String {
        "\(r.added) task\(r.added == 1 ? "" : "s") added, \(r.updated) updated, \(r.deleted) deleted, \(r.conflictsResolved) conflict\(r.conflictsResolved == 1 ? "" : "s") resolved"
    }

    /// A path as messages show it: relative to the current directory when below it.
    static func displayPath(_ path: String, store: Store) -> String {
        guard let cwd = store.currentDirectory, !cwd.isEmpty, cwd != "/" else { return path }
        let prefix = cwd.hasSuffix("/") ? cwd : cwd + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
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
