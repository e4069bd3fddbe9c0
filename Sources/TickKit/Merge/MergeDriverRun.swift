import FoundationEssentials
import Glibc

/// `tick merge-driver %O %A %B %P` (git's merge driver): the three versions
/// of a store file merged task by task (``MergeEngine``) or, for blocks.json,
/// block by block (``CommitmentMerge``), the result written in canonical form
/// into OURS (git's `%A`; git puts it in the work tree). When a side is not
/// a valid tick file, git's text merge (`git merge-file`) writes conflict
/// markers into OURS and the status is non-zero, so git reports a conflict.
public struct MergeDriverRun {
    let base: String
    let ours: String
    let theirs: String
    /// The file's path in the repository (it tells an inbox from a list).
    let path: String
    let currentDirectory: String
    let temporaryDirectory: String
    let environment: [String: String]
    /// For fields missing in hand-made versions: the same instant for all three.
    let fallbackDate: Date
    let processID: Int32

    public init(base: String, ours: String, theirs: String, path: String, currentDirectory: String, temporaryDirectory: String,
                environment: [String: String], fallbackDate: Date, processID: Int32) {
        self.base = base
        self.ours = ours
        self.theirs = theirs
        self.path = path
        self.currentDirectory = currentDirectory
        self.temporaryDirectory = temporaryDirectory
        self.environment = environment
        self.fallbackDate = fallbackDate
        self.processID = processID
    }

    /// Merges; `note` hears one-line summaries (counts, ids and field names
    /// only) as they happen. Returns the exit status for git: 0 when merged.
    public func run(note: (String) -> Void) throws -> Int32 {
        if Self.isCommitmentFile(path) { return try mergeCommitments(note: note) }
        guard let kind = Self.kind(of: path) else {
            // Not an inbox or list file (e.g. a conflict copy): git's text merge, as without the driver.
            return try textMerge()
        }
        func decode(_ file: String, label: String, optional: Bool) throws -> Result<TaskFile?, LabeledError> {
            guard let (bytes, _) = try AtomicFile.read(path: absolute(file)) else {
                if optional { return .success(nil) }
                throw MergeDriverError.cannotRead("merge-driver: cannot read the \(label) version \(file)")
            }
            if optional && Self.isBlank(bytes) { return .success(nil) }
            do {
                return .success(try TaskFileDecoder(bytes: bytes, path: path, kind: kind, fallbackDate: fallbackDate).decode())
            } catch {
                return .failure(LabeledError(label: label, error: error))
            }
        }
        let sides = (try decode(ours, label: "ours", optional: false), try decode(theirs, label: "theirs", optional: false))
        guard case .success(let oursFile?) = sides.0, case .success(let theirsFile?) = sides.1 else {
            var problems: [LabeledError] = []
            if case .failure(let e) = sides.0 { problems.append(e) }
            if case .failure(let e) = sides.1 { problems.append(e) }
            for p in problems { note("tick merge-driver: \(p.label) version of \(p.error.summary)") }
            let status = try textMerge()
            note("tick merge-driver: \(path): not a valid tick file on both sides; used git's text merge" + (status == 0 ? "" : " (conflict markers written)"))
            return status == 0 ? 1 : status
        }
        // An unreadable base only costs the three-way information.
        var baseFile: TaskFile?
        switch try decode(base, label: "base", optional: true) {
        case .success(let f): baseFile = f
        case .failure(let e): note("tick merge-driver: base version of \(e.error.summary); merging without it (two-way)")
        }
        var outcome = MergeEngine.merge(base: baseFile, ours: oursFile, theirs: theirsFile)
        outcome.file.kind = kind
        let target = self.target
        try AtomicFile.write(TaskFileEncoder.encode(outcome.file), to: target, mode: FileStamp.of(path: target)?.mode)
        let r = outcome.report
        note("tick merge-driver: merged \(path)\(baseFile == nil ? " (two-way)" : ""): \(r.added) added, \(r.updated) updated, \(r.deleted) deleted, \(r.conflictsResolved) conflict\(r.conflictsResolved == 1 ? "" : "s") resolved")
        if !r.overrides.isEmpty {
            // Ids and field names only; the other side's values stay in git (ORIG_HEAD, the merge's parents).
            let fields = r.overrides.map { "\($0.task.lowercased.prefix(8)) \($0.field)" }.joined(separator: ", ")
            note("tick merge-driver: both sides changed these fields of \(path); the later change was kept: \(fields)")
        }
        return 0
    }

    /// `blocks.json`: merged block by block like tasks; git's text merge when a version does not parse.
    func mergeCommitments(note: (String) -> Void) throws -> Int32 {
        func decode(_ file: String, optional: Bool) throws -> CommitmentFile?? {
            guard let (bytes, _) = try AtomicFile.read(path: absolute(file)) else {
                if optional { return .some(nil) }
                throw MergeDriverError.cannotRead("merge-driver: cannot read \(file)")
            }
            if optional && Self.isBlank(bytes) { return .some(nil) }
            do {
                return .some(try CommitmentFileCodec.decode(bytes, path: path, fallbackDate: fallbackDate))
            } catch {
                note("tick merge-driver: \(error.summary)")
                return nil
            }
        }
        guard case .some(let o?) = try decode(ours, optional: false), case .some(let t?) = try decode(theirs, optional: false) else {
            let status = try textMerge()
            note("tick merge-driver: \(path): not a valid blocks file on both sides; used git's text merge" + (status == 0 ? "" : " (conflict markers written)"))
            return status == 0 ? 1 : status
        }
        let b = try decode(base, optional: true) ?? nil
        let outcome = CommitmentMerge.merge(base: b, ours: o, theirs: t)
        let target = self.target
        try AtomicFile.write(CommitmentFileCodec.encode(outcome.file), to: target, mode: FileStamp.of(path: target)?.mode)
        let r = outcome.report
        note("tick merge-driver: merged \(path)\(b == nil ? " (two-way)" : ""): \(r.added) block\(r.added == 1 ? "" : "s") added, \(r.updated) updated, \(r.deleted) deleted, \(r.conflictsResolved) conflict\(r.conflictsResolved == 1 ? "" : "s") resolved")
        return 0
    }

    /// OURS as an absolute path.
    var target: String { absolute(ours) }

    /// git passes paths relative to the top of the work tree, where it runs
    /// the driver (`currentDirectory`).
    func absolute(_ file: String) -> String {
        PathString.isAbsolute(file) ? file : PathString.appending(currentDirectory, file)
    }

    /// `git merge-file -L ours -L base -L theirs OURS BASE THEIRS`: conflict
    /// markers into OURS. Returns its exit status (0 clean, >0 conflicts).
    func textMerge() throws -> Int32 {
        var basePath = base
        var tempBase: String?
        if FileStamp.of(path: absolute(base)) == nil {
            // No common version (both added the file): merge against an empty one.
            let p = PathString.appending(temporaryDirectory, "tick-merge-base-\(processID)")
            try AtomicFile.write([], to: p, mode: 0o600)
            tempBase = p
            basePath = p
        }
        defer { if let tempBase { unlink(tempBase) } }
        let r = try GitRepository.run(["merge-file", "-L", "ours", "-L", "base", "-L", "theirs", ours, basePath, theirs], in: currentDirectory,
                                      environment: environment)
        if r.status < 0 || r.status > 127 {
            throw MergeDriverError.mergeFileFailed(r.message)
        }
        return r.status
    }

    /// `blocks.json` at the top of the store (not inside `lists/`).
    public static func isCommitmentFile(_ path: String) -> Bool {
        let parts = path.split(separator: "/").map(String.init)
        guard parts.last == CommitmentFile.relativePath else { return false }
        return parts.count < 2 || parts[parts.count - 2] != "lists"
    }

    /// The store file a repository path is: `.../inbox.json`, `.../lists/<slug>.json` or `.../archive/<year>.json`.
    public static func kind(of path: String) -> FileKind? {
        let parts = path.split(separator: "/").map(String.init)
        guard let name = parts.last else { return nil }
        if parts.count >= 2, parts[parts.count - 2] == "lists" {
            return Store.slug(ofListFileNamed: name).map { .list(slug: $0) }
        }
        if parts.count >= 2, parts[parts.count - 2] == Store.archiveDirectory {
            return Store.year(ofArchiveFileNamed: name).map { .archive(year: $0) }
        }
        return name == "inbox.json" ? .inbox : nil
    }

    static func isBlank(_ bytes: [UInt8]) -> Bool {
        bytes.allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
    }

    struct LabeledError: Error {
        var label: String
        var error: FormatError
    }
}

/// Why `tick merge-driver` could not merge at all.
public enum MergeDriverError: Error, LocalizedError, Sendable, Equatable {
    /// A version git named cannot be read.
    case cannotRead(String)
    /// `git merge-file` did not run or crashed.
    case mergeFileFailed(String)

    public var errorDescription: String? {
        switch self {
        case .cannotRead(let message): return message
        case .mergeFileFailed(let message): return "git merge-file failed: \(message)"
        }
    }
}

extension MergeDriverError: TickError {
    public var kind: FailureKind { .failure }
}
