import Foundation

/// A git command that could not run, or failed where failure is not expected.
public struct GitError: Error, LocalizedError, Sendable, Equatable {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var errorDescription: String? { message }
}

/// What a finished git process printed.
public struct GitResult: Sendable {
    public var status: Int32
    public var stdout: [UInt8]
    public var stderr: String

    public var succeeded: Bool { status == 0 }

    /// Stdout as text, without the final newline.
    public var output: String {
        var s = String(decoding: stdout, as: UTF8.self)
        while s.hasSuffix("\n") { s.removeLast() }
        return s
    }

    /// What git said (stderr, then stdout), trimmed: for reporting a failure.
    public var message: String {
        let parts = [stderr, String(decoding: stdout, as: UTF8.self)]
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .filter { !$0.isEmpty }
        return parts.joined(separator: "\n")
    }
}

/// Runs git and other helper programs.
public enum GitRunner {
    /// Runs `git ARGS` in `directory`, with stdin from /dev/null, capturing
    /// stdout and stderr. `environment` adds to (or, with nil, removes from)
    /// this process's environment. Throws only when git cannot be started.
    public static func run(_ args: [String], in directory: String, environment: [String: String?] = [:]) throws(GitError) -> GitResult {
        try runProgram("git", args, in: directory, environment: environment)
    }

    /// Runs a program found on PATH (through `/usr/bin/env`).
    public static func runProgram(_ name: String, _ args: [String], in directory: String, environment: [String: String?] = [:]) throws(GitError) -> GitResult {
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [name] + args
        process.environment = env
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        guard let out = AnonymousFile(), let err = AnonymousFile() else {
            throw GitError("cannot create a temporary file to run \(name): \(String(cString: strerror(errno)))")
        }
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        process.standardOutput = out.handle
        process.standardError = err.handle
        do {
            try process.run()
        } catch {
            throw GitError("cannot run \(name): \(error.localizedDescription)")
        }
        process.waitUntilExit()
        let status = process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        // /usr/bin/env exits 127 when the program is not on PATH.
        let stderr = String(decoding: err.contents(), as: UTF8.self)
        if status == 127, stderr.contains("No such file") {
            throw GitError("\(name) is not installed (or not on PATH)")
        }
        return GitResult(status: status, stdout: out.contents(), stderr: stderr)
    }

    /// A file with no name, for capturing output without pipes (no deadlocks).
    private final class AnonymousFile {
        let fd: Int32
        let handle: FileHandle

        init?() {
            let dir = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
            var template = Array((dir + "/tick-git-XXXXXX").utf8CString)
            let fd = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
                guard let base = buffer.baseAddress else { return -1 }
                return mkstemp(base)
            }
            guard fd >= 0 else { return nil }
            template.withUnsafeBufferPointer { buffer in
                if let base = buffer.baseAddress { unlink(base) }
            }
            self.fd = fd
            handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        }

        func contents() -> [UInt8] {
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            lseek(fd, 0, SEEK_SET)
            while true {
                let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                bytes.append(contentsOf: buffer[0..<n])
            }
            return bytes
        }
    }

    /// Quotes a word for the POSIX shell (git runs merge drivers with `sh -c`).
    public static func shellQuote(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// The absolute path of the running executable.
    public static func currentExecutablePath() -> String {
        #if os(Linux)
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if n > 0 {
            return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        #endif
        if let path = Bundle.main.executablePath { return (path as NSString).resolvingSymlinksInPath }
        let arg0 = CommandLine.arguments.first ?? "tick"
        return (arg0 as NSString).isAbsolutePath ? arg0 : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(arg0)
    }
}

/// A git work tree holding a store (at its root or in a subdirectory).
public struct GitRepository: Sendable {
    /// The directory git commands run in: the store.
    public let directory: String
    /// The work tree's root.
    public let topLevel: String
    /// The store's directory relative to ``topLevel``: `""` or `"sub/dir/"`.
    public let prefix: String

    /// Extra environment for every git command: never open an editor.
    static let quietEnvironment: [String: String?] = ["GIT_EDITOR": "true", "GIT_MERGE_AUTOEDIT": "no", "GIT_SEQUENCE_EDITOR": "true"]

    /// The repository whose work tree contains `directory`, or nil when it is
    /// in none. `directory` must exist.
    public static func discover(at directory: String) throws(GitError) -> GitRepository? {
        let r = try GitRunner.run(["rev-parse", "--show-toplevel", "--show-prefix"], in: directory)
        guard r.succeeded else { return nil }
        let lines = String(decoding: r.stdout, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let top = lines.first, !top.isEmpty else { return nil }
        return GitRepository(directory: directory, topLevel: top, prefix: lines.count > 1 ? lines[1] : "")
    }

    public init(directory: String, topLevel: String, prefix: String) {
        self.directory = directory
        self.topLevel = topLevel
        self.prefix = prefix
    }

    /// Runs `git ARGS` in the store directory.
    public func git(_ args: [String], environment: [String: String?] = [:]) throws(GitError) -> GitResult {
        var env = Self.quietEnvironment
        for (k, v) in environment { env[k] = v }
        return try GitRunner.run(args, in: directory, environment: env)
    }

    /// Runs `git ARGS` and throws with git's message when it fails.
    @discardableResult
    public func check(_ args: [String], environment: [String: String?] = [:]) throws(GitError) -> GitResult {
        let r = try git(args, environment: environment)
        guard r.succeeded else {
            throw GitError("git \(args.joined(separator: " ")) failed:\n\(r.message)")
        }
        return r
    }

    // MARK: Config

    /// A value of the repository's local config.
    public func localConfig(_ key: String) throws(GitError) -> String? {
        let r = try git(["config", "--local", "--get", key])
        return r.succeeded ? r.output : nil
    }

    /// A value from any config level.
    public func config(_ key: String) throws(GitError) -> String? {
        let r = try git(["config", "--get", key])
        return r.succeeded ? r.output : nil
    }

    public func setLocalConfig(_ key: String, _ value: String) throws(GitError) {
        try check(["config", "--local", key, value])
    }

    // MARK: State

    /// The commit HEAD points at; nil on an unborn branch.
    public func head() throws(GitError) -> String? {
        let r = try git(["rev-parse", "-q", "--verify", "HEAD^{commit}"])
        return r.succeeded ? r.output : nil
    }

    /// The current branch, nil when HEAD is detached.
    public func currentBranch() throws(GitError) -> String? {
        let r = try git(["symbolic-ref", "-q", "--short", "HEAD"])
        return r.succeeded && !r.output.isEmpty ? r.output : nil
    }

    /// The upstream of the current branch (`origin/main`), if any.
    public func upstream() throws(GitError) -> String? {
        let r = try git(["rev-parse", "--abbrev-ref", "--symbolic-full-name", "@{upstream}"])
        return r.succeeded && !r.output.isEmpty ? r.output : nil
    }

    /// The names of the remotes.
    public func remotes() throws(GitError) -> [String] {
        try check(["remote"]).output.split(separator: "\n").map(String.init)
    }

    /// How many commits HEAD has that its upstream does not.
    public func commitsAhead() throws(GitError) -> Int {
        let r = try git(["rev-list", "--count", "@{upstream}..HEAD"])
        return r.succeeded ? Int(r.output) ?? 0 : 0
    }

    /// The absolute path of a file in the git directory (`MERGE_HEAD`, `rebase-merge`).
    public func gitPath(_ name: String) throws(GitError) -> String {
        let p = try check(["rev-parse", "--git-path", name]).output
        return (p as NSString).isAbsolutePath ? p : (directory as NSString).appendingPathComponent(p)
    }

    /// True while a merge waits for its commit.
    public func isMerging() throws(GitError) -> Bool {
        try git(["rev-parse", "-q", "--verify", "MERGE_HEAD"]).succeeded
    }

    /// True while a rebase is stopped.
    public func isRebasing() throws(GitError) -> Bool {
        let fm = FileManager.default
        let merge = try gitPath("rebase-merge")
        let apply = try gitPath("rebase-apply")
        return fm.fileExists(atPath: merge) || fm.fileExists(atPath: apply)
    }

    /// Unmerged paths under the store (relative to the store) and the stages
    /// present for each: 1 base, 2 ours, 3 theirs.
    /// `pathspec` `":/"` looks at the whole work tree (paths are then still relative to the store).
    public func unmergedPaths(_ pathspec: String = ".") throws(GitError) -> [String: Set<Int>] {
        let r = try check(["ls-files", "-u", "-z", "--", pathspec])
        var out: [String: Set<Int>] = [:]
        for entry in r.stdout.split(separator: 0) {
            let text = String(decoding: entry, as: UTF8.self)
            guard let tab = text.firstIndex(of: "\t") else { continue }
            let fields = text[..<tab].split(separator: " ")
            guard fields.count == 3, let stage = Int(fields[2]) else { continue }
            out[String(text[text.index(after: tab)...]), default: []].insert(stage)
        }
        return out
    }

    /// The contents of a store file (path relative to the store) at a revision
    /// (`HEAD`, a commit, or `""` for the index); nil when it is not there.
    public func contents(at revision: String, _ storeRelativePath: String) throws(GitError) -> [UInt8]? {
        let r = try git(["cat-file", "blob", "\(revision):\(prefix)\(storeRelativePath)"])
        return r.succeeded ? r.stdout : nil
    }

    /// Paths under the store that differ between two trees (`nil` = the empty
    /// tree; `to: nil` = the index), relative to the store: (status letter, path).
    public func changedPaths(from: String?, to: String?) throws(GitError) -> [(status: Character, path: String)] {
        let emptyTree = try check(["hash-object", "-t", "tree", "/dev/null"]).output
        var args = ["diff", "--no-renames", "--no-ext-diff", "--name-status", "-z", "--relative"]
        if to == nil { args.append("--cached") }
        args.append(from ?? emptyTree)
        if let to { args.append(to) }
        args += ["--", "."]
        let fields = try check(args).stdout.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        var out: [(Character, String)] = []
        var i = 0
        while i + 1 < fields.count {
            guard let letter = fields[i].first else { i += 1; continue }
            out.append((letter, fields[i + 1]))
            i += 2
        }
        return out
    }

    /// Store paths (relative to the store) whose work-tree content differs from
    /// HEAD, including untracked files.
    public func dirtyPaths() throws(GitError) -> [String] {
        let r = try check(["status", "--porcelain", "-z", "--untracked-files=all", "--no-renames", "--", "."])
        var out: [String] = []
        for entry in r.stdout.split(separator: 0) {
            let text = String(decoding: entry, as: UTF8.self)
            guard text.count > 3 else { continue }
            // Porcelain paths are relative to the top level.
            let path = String(text.dropFirst(3))
            out.append(path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path)
        }
        return out
    }
}

// MARK: - .gitattributes and the driver command

/// What `tick git setup` writes.
public enum GitMergeSetup {
    /// The `.gitattributes` line that routes store files to the driver.
    public static let attributesLine = "*.json merge=tick"
    /// `merge.tick.name`.
    public static let driverName = "tick: merge task files task by task"
    /// The message of the commit that adds the attributes.
    public static let commitMessage = "tick: use the tick merge driver"

    /// `merge.tick.driver`: the binary by absolute path, quoted for the shell.
    public static func driverCommand(executable: String) -> String {
        "\(GitRunner.shellQuote(executable)) merge-driver %O %A %B %P"
    }

    /// The `.gitattributes` text with the driver line added, or nil when the
    /// text already sends `*.json` to the tick driver.
    public static func attributes(adding text: String?) -> String? {
        var merge: String?
        for raw in (text ?? "").split(separator: "\n", omittingEmptySubsequences: false) {
            let words = raw.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
            guard words.first == "*.json" else { continue }
            for w in words.dropFirst() {
                if w.hasPrefix("merge=") { merge = String(w.dropFirst(6)) }
                else if w == "-merge" || w == "!merge" || w == "merge" { merge = String(w) }
            }
        }
        if merge == "tick" { return nil }
        var out = text ?? ""
        if !out.isEmpty && !out.hasSuffix("\n") { out += "\n" }
        return out + attributesLine + "\n"
    }
}

// MARK: - Describing changes in counts

/// How one store file changed between two versions, in counts (never titles).
public struct FileChange: Sendable, Equatable {
    /// Path relative to the store.
    public var path: String
    /// The store file it is, nil for other files (`.gitattributes`, notes...).
    public var kind: FileKind?
    public var fileAdded = false
    public var fileRemoved = false
    /// One of the versions could not be parsed.
    public var unreadable = false
    /// The list's own name or color changed.
    public var metadataChanged = false
    /// Only the order of tasks that are in both versions changed.
    public var reordered = false
    public var addedIDs: Set<UUID> = []
    public var removedIDs: Set<UUID> = []
    public var completed = 0
    public var changed = 0

    public init(path: String, kind: FileKind?) {
        self.path = path
        self.kind = kind
    }

    /// Compares two versions of a store file (nil = absent).
    public static func compare(path: String, kind: FileKind?, old: TaskFile?, new: TaskFile?) -> FileChange {
        var c = FileChange(path: path, kind: kind)
        c.fileAdded = old == nil && new != nil
        c.fileRemoved = old != nil && new == nil
        let oldTasks = old?.tasks ?? []
        let newTasks = new?.tasks ?? []
        var oldByID: [UUID: TaskItem] = [:]
        for t in oldTasks { oldByID[t.id] = t }
        let newIDs = Set(newTasks.map(\.id))
        for t in newTasks {
            guard let before = oldByID[t.id] else { c.addedIDs.insert(t.id); continue }
            if t.sameContent(as: before) { continue }
            if t.state == .done && before.state != .done { c.completed += 1 } else { c.changed += 1 }
        }
        c.removedIDs = Set(oldTasks.map(\.id)).subtracting(newIDs)
        if let old, let new {
            c.metadataChanged = old.name != new.name || old.color != new.color
            let keptOld = oldTasks.map(\.id).filter(newIDs.contains)
            let oldIDs = Set(oldTasks.map(\.id))
            let keptNew = newTasks.map(\.id).filter(oldIDs.contains)
            c.reordered = keptOld != keptNew
        }
        return c
    }

    /// Decodes both versions (bytes nil = absent) and compares them; a version
    /// that cannot be parsed counts as unreadable.
    public static func compare(path: String, old: [UInt8]?, new: [UInt8]?, fallbackDate: Date) -> FileChange {
        guard let kind = TaskIndex.kind(forRelativePath: path) else {
            var c = FileChange(path: path, kind: nil)
            c.fileAdded = old == nil && new != nil
            c.fileRemoved = old != nil && new == nil
            return c
        }
        var unreadable = false
        func decode(_ bytes: [UInt8]?) -> TaskFile? {
            guard let bytes else { return nil }
            do {
                return try TaskFileDecoder(bytes: bytes, path: path, kind: kind, fallbackDate: fallbackDate).decode()
            } catch {
                unreadable = true
                return TaskFile(kind: kind, id: UUID(name: "tick-list:\(kind.slug ?? "inbox")"), createdAt: fallbackDate, modifiedAt: fallbackDate)
            }
        }
        var c = compare(path: path, kind: kind, old: decode(old), new: decode(new))
        c.unreadable = unreadable
        return c
    }
}

/// Changes to several files, summarized in counts.
public struct ChangeSummary: Sendable, Equatable {
    public var files: [FileChange]

    public init(_ files: [FileChange]) { self.files = files.sorted { $0.path < $1.path } }

    /// Tasks that left one file and arrived in another.
    public var movedIDs: Set<UUID> {
        let added = files.reduce(into: Set<UUID>()) { $0.formUnion($1.addedIDs) }
        let removed = files.reduce(into: Set<UUID>()) { $0.formUnion($1.removedIDs) }
        return added.intersection(removed)
    }

    public var isEmpty: Bool { files.isEmpty }

    /// `3 tasks added, 1 completed, 2 changed in 2 files`.
    public var description: String {
        let moved = movedIDs
        let parts = Self.parts(files, moved: moved)
        let n = files.count
        let where_ = "in \(n) file" + (n == 1 ? "" : "s")
        return parts.isEmpty ? "\(n) file\(n == 1 ? "" : "s") changed" : parts.joined(separator: ", ") + " " + where_
    }

    /// `2 tasks added, 1 changed` for one file (moves count as added/removed there).
    public static func describe(_ file: FileChange, moved: Set<UUID> = []) -> String {
        let parts = parts([file], moved: moved)
        return parts.isEmpty ? "changed" : parts.joined(separator: ", ")
    }

    /// Per-file descriptions, `moved` being tasks moved between these files.
    public var perFile: [(path: String, description: String)] {
        let moved = movedIDs
        return files.map { ($0.path, Self.describe($0, moved: moved)) }
    }

    static func parts(_ files: [FileChange], moved: Set<UUID>) -> [String] {
        func sum(_ f: (FileChange) -> Int) -> Int { files.reduce(0) { $0 + f($1) } }
        let added = sum { $0.addedIDs.subtracting(moved).count }
        let completed = sum(\.completed)
        let changed = sum(\.changed)
        let movedCount = files.reduce(into: Set<UUID>()) { $0.formUnion($1.addedIDs.intersection(moved)) }.count
        let removed = sum { $0.removedIDs.subtracting(moved).count }
        var taskParts: [String] = []
        for (count, verb) in [(added, "added"), (completed, "completed"), (changed, "changed"), (movedCount, "moved"), (removed, "deleted")] where count > 0 {
            taskParts.append(taskParts.isEmpty ? "\(count) task\(count == 1 ? "" : "s") \(verb)" : "\(count) \(verb)")
        }
        let tickFiles = files.filter { $0.kind != nil }
        // The inbox file appearing or going is not a list being created or removed.
        let listsAdded = tickFiles.filter { $0.fileAdded && $0.kind != .inbox }.count
        let listsRemoved = tickFiles.filter { $0.fileRemoved && $0.kind != .inbox }.count
        let renamed = tickFiles.filter { $0.metadataChanged && !$0.fileAdded && !$0.fileRemoved }.count
        let reordered = tickFiles.filter { $0.reordered && !$0.metadataChanged }.count
        let unreadable = tickFiles.filter(\.unreadable).count
        let others = files.filter { $0.kind == nil }.count
        var fileParts: [String] = []
        func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
        if listsAdded > 0 { fileParts.append(plural(listsAdded, "list") + " added") }
        if renamed > 0 { fileParts.append(plural(renamed, "list") + " renamed or recolored") }
        if listsRemoved > 0 { fileParts.append(plural(listsRemoved, "list") + " removed") }
        if reordered > 0 { fileParts.append(plural(reordered, "list") + " reordered") }
        if unreadable > 0 { fileParts.append(plural(unreadable, "unreadable file")) }
        if others > 0 { fileParts.append(plural(others, "other file")) }
        return taskParts + fileParts
    }
}
