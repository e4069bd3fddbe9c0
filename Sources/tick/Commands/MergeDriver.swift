import ArgumentParser
import Foundation
import TickKit

extension Tick {
    struct MergeDriver: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "merge-driver",
            abstract: "Merge three versions of a task file (called by git, not by you).",
            discussion: """
            git runs this during merge, rebase, cherry-pick and pull for every store \
            file that changed on both sides, once `tick git setup` has added \
            `*.json merge=tick` to the store's .gitattributes and set \
            merge.tick.driver to `tick merge-driver %O %A %B %P`.

            BASE is the common ancestor (empty or missing when both sides added the \
            file), OURS and THEIRS the two versions, PATH the file's path in the \
            repository (it tells an inbox from a list). The result of merging task \
            by task and field by field is written to OURS in canonical form, and the \
            exit status is 0. The work tree is never touched; git takes the result \
            from OURS.

            blocks.json (fixed commitments) is merged the same way, block by block.

            When a version is not a valid tick file, tick falls back to git's text \
            merge (`git merge-file`), which writes conflict markers into OURS, and \
            exits non-zero so that git reports a conflict; run `tick resolve` once \
            the file is fixed or to merge the marked versions. Nothing is printed on \
            stdout; a one-line summary (counts only) goes to stderr.
            """)

        @OptionGroup var global: GlobalOptions

        @Argument(help: ArgumentHelp("The common ancestor's version (git's %O).", valueName: "base"))
        var base: String

        @Argument(help: ArgumentHelp("Our version, replaced by the result (git's %A).", valueName: "ours"))
        var ours: String

        @Argument(help: ArgumentHelp("Their version (git's %B).", valueName: "theirs"))
        var theirs: String

        @Argument(help: ArgumentHelp("The file's path in the repository (git's %P).", valueName: "path"))
        var path: String

        func run() throws {
            let process = try ProcessEnvironment.current()
            if Self.isCommitmentFile(path) {
                try mergeCommitments(process)
                return
            }
            let kind = Self.kind(of: path)
            guard let kind else {
                // Not an inbox or list file (e.g. a conflict copy): git's text merge, as without the driver.
                let status = try textMerge(process)
                if status != 0 { throw ExitCode(status) }
                return
            }
            let fallback = Self.fallbackDate(process)
            func decode(_ file: String, label: String, optional: Bool) throws -> Result<TaskFile?, LabeledError> {
                guard let (bytes, _) = try AtomicFile.read(path: file) else {
                    if optional { return .success(nil) }
                    throw CLIError("merge-driver: cannot read the \(label) version \(file)")
                }
                if optional && bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return .success(nil) }
                do {
                    return .success(try TaskFileDecoder(bytes: bytes, path: path, kind: kind, fallbackDate: fallback).decode())
                } catch {
                    return .failure(LabeledError(label: label, error: error))
                }
            }
            let sides = (try decode(ours, label: "ours", optional: false), try decode(theirs, label: "theirs", optional: false))
            guard case .success(let oursFile?) = sides.0, case .success(let theirsFile?) = sides.1 else {
                var problems: [LabeledError] = []
                if case .failure(let e) = sides.0 { problems.append(e) }
                if case .failure(let e) = sides.1 { problems.append(e) }
                for p in problems { Self.note("tick merge-driver: \(p.label) version of \(p.error.summary)") }
                let status = try textMerge(process)
                Self.note("tick merge-driver: \(path): not a valid tick file on both sides; used git's text merge" + (status == 0 ? "" : " (conflict markers written)"))
                throw ExitCode(status == 0 ? 1 : status)
            }
            // An unreadable base only costs the three-way information.
            var baseFile: TaskFile?
            switch try decode(base, label: "base", optional: true) {
            case .success(let f): baseFile = f
            case .failure(let e): Self.note("tick merge-driver: base version of \(e.error.summary); merging without it (two-way)")
            }
            var outcome = MergeEngine.merge(base: baseFile, ours: oursFile, theirs: theirsFile)
            outcome.file.kind = kind
            // git passes paths relative to the top of the work tree, where it runs the driver.
            let target = (ours as NSString).isAbsolutePath ? ours : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(ours)
            try AtomicFile.write(TaskFileEncoder.encode(outcome.file), to: target, mode: FileStamp.of(path: target)?.mode)
            let r = outcome.report
            Self.note("tick merge-driver: merged \(path)\(baseFile == nil ? " (two-way)" : ""): \(r.added) added, \(r.updated) updated, \(r.deleted) deleted, \(r.conflictsResolved) conflict\(r.conflictsResolved == 1 ? "" : "s") resolved")
            if !r.overrides.isEmpty {
                // Ids and field names only; the other side's values stay in git (ORIG_HEAD, the merge's parents).
                let fields = r.overrides.map { "\($0.task.lowercased.prefix(8)) \($0.field)" }.joined(separator: ", ")
                Self.note("tick merge-driver: both sides changed these fields of \(path); the later change was kept: \(fields)")
            }
        }

        /// `blocks.json`: merged block by block like tasks; git's text merge when a version does not parse.
        func mergeCommitments(_ process: ProcessEnvironment) throws {
            let fallback = Self.fallbackDate(process)
            func decode(_ file: String, optional: Bool) throws -> CommitmentFile?? {
                guard let (bytes, _) = try AtomicFile.read(path: file) else {
                    if optional { return .some(nil) }
                    throw CLIError("merge-driver: cannot read \(file)")
                }
                if optional && bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return .some(nil) }
                do {
                    return .some(try CommitmentFileCodec.decode(bytes, path: path, fallbackDate: fallback))
                } catch {
                    Self.note("tick merge-driver: \(error.summary)")
                    return nil
                }
            }
            guard case .some(let o?) = try decode(ours, optional: false), case .some(let t?) = try decode(theirs, optional: false) else {
                let status = try textMerge(process)
                Self.note("tick merge-driver: \(path): not a valid blocks file on both sides; used git's text merge" + (status == 0 ? "" : " (conflict markers written)"))
                throw ExitCode(status == 0 ? 1 : status)
            }
            let b = try decode(base, optional: true) ?? nil
            let outcome = CommitmentMerge.merge(base: b, ours: o, theirs: t)
            let target = (ours as NSString).isAbsolutePath ? ours : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(ours)
            try AtomicFile.write(CommitmentFileCodec.encode(outcome.file), to: target, mode: FileStamp.of(path: target)?.mode)
            let r = outcome.report
            Self.note("tick merge-driver: merged \(path)\(b == nil ? " (two-way)" : ""): \(r.added) block\(r.added == 1 ? "" : "s") added, \(r.updated) updated, \(r.deleted) deleted, \(r.conflictsResolved) conflict\(r.conflictsResolved == 1 ? "" : "s") resolved")
        }

        /// `blocks.json` at the top of the store (not inside `lists/`).
        static func isCommitmentFile(_ path: String) -> Bool {
            let parts = path.split(separator: "/").map(String.init)
            guard parts.last == CommitmentFile.relativePath else { return false }
            return parts.count < 2 || parts[parts.count - 2] != "lists"
        }

        /// `git merge-file -L ours -L base -L theirs OURS BASE THEIRS`: conflict
        /// markers into OURS. Returns its exit status (0 clean, >0 conflicts).
        func textMerge(_ process: ProcessEnvironment) throws -> Int32 {
            var basePath = base
            var tempBase: String?
            if FileStamp.of(path: base) == nil {
                // No common version (both added the file): merge against an empty one.
                let p = (process.temporaryDirectory as NSString).appendingPathComponent("tick-merge-base-\(getpid())")
                try AtomicFile.write([], to: p, mode: 0o600)
                tempBase = p
                basePath = p
            }
            defer { if let tempBase { unlink(tempBase) } }
            let r = try GitRepository.run(["merge-file", "-L", "ours", "-L", "base", "-L", "theirs", ours, basePath, theirs], in: process.currentDirectory,
                                         environment: process.variables)
            if r.status < 0 || r.status > 127 {
                throw CLIError("git merge-file failed: \(r.message)")
            }
            return r.status
        }

        /// The store file a repository path is: `.../inbox.json`, `.../lists/<slug>.json` or `.../archive/<year>.json`.
        static func kind(of path: String) -> FileKind? {
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

        /// For fields missing in hand-made versions: the same instant for all three.
        static func fallbackDate(_ process: ProcessEnvironment) -> Date {
            process.isPinned ? process.now : Date(timeIntervalSince1970: process.now.timeIntervalSince1970.rounded(.down))
        }

        struct LabeledError: Error {
            var label: String
            var error: FormatError
        }

        static func note(_ line: String) {
            FileHandle.standardError.write(Data((Terminal.shown(line, keepingNewlines: true) + "\n").utf8))
        }
    }
}
