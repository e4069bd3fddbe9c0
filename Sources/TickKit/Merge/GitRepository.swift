import FoundationEssentials
import Glibc

/// A git work tree holding a store (at its root or in a subdirectory).
public struct GitRepository: Sendable {
    /// The directory git commands run in: the store.
    public let directory: String
    /// The work tree's root.
    public let topLevel: String
    /// The store's directory relative to ``topLevel``: `""` or `"sub/dir/"`.
    public let prefix: String
    /// The absolute path of the (work tree's) git directory, when known: then
    /// ``isMerging()`` and ``isRebasing()`` look at files instead of running git.
    public let gitDirectory: String?
    /// The environment git runs with (tools' variables of the command's:
    /// ``ChildEnvironment/forTools(from:)``).
    public let environment: [String: String]

    /// Extra environment for every git command: never open an editor, never
    /// run tick's own hooks (see ``GitHooks/skipVariable``).
    static let quietEnvironment: [String: String?] = [
        "GIT_EDITOR": "true", "GIT_MERGE_AUTOEDIT": "no", "GIT_SEQUENCE_EDITOR": "true",
        GitHooks.skipVariable: "1",
    ]

    /// The repository whose work tree contains `directory`, or nil when it is
    /// in none. `directory` must exist. `environment` is the command's: git
    /// gets its tools' variables (``ChildEnvironment``).
    public static func discover(at directory: String, environment: [String: String]) throws(GitError) -> GitRepository? {
        let r = try run(["rev-parse", "--show-toplevel", "--show-prefix", "--absolute-git-dir"], in: directory, environment: environment)
        guard r.succeeded else { return nil }
        let lines = String(decoding: r.stdout, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let top = lines.first, !top.isEmpty else { return nil }
        let gitDirectory = lines.count > 2 && PathString.isAbsolute(lines[2]) ? lines[2] : nil
        return GitRepository(directory: directory, topLevel: top, prefix: lines.count > 1 ? lines[1] : "",
                             gitDirectory: gitDirectory, environment: environment)
    }

    public init(directory: String, topLevel: String, prefix: String, gitDirectory: String? = nil, environment: [String: String]) {
        self.directory = directory
        self.topLevel = topLevel
        self.prefix = prefix
        self.gitDirectory = gitDirectory
        self.environment = ChildEnvironment.forTools(from: environment)
    }

    /// Runs `git ARGS` in `directory` (any directory, in a repository or not),
    /// with stdin from /dev/null, capturing stdout and stderr, with the tools'
    /// variables of `environment` (the command's), changed by `overrides` (a
    /// nil value removes a variable). Throws only when git cannot be started.
    public static func run(_ args: [String], in directory: String, environment: [String: String],
                           overrides: [String: String?] = [:]) throws(GitError) -> ProcessResult {
        var env = ChildEnvironment.forTools(from: environment)
        for (k, v) in overrides { env[k] = v }
        do {
            return try ProcessRunner.run("git", args, in: directory, environment: env)
        } catch {
            throw GitError(error.message)
        }
    }

    /// Runs `git ARGS` in the store directory (`environment` adds to, or with
    /// nil removes from, the repository's).
    public func git(_ args: [String], environment: [String: String?] = [:]) throws(GitError) -> ProcessResult {
        var env = Self.quietEnvironment
        for (k, v) in environment { env[k] = v }
        return try Self.run(args, in: directory, environment: self.environment, overrides: env)
    }

    /// Runs `git ARGS` and throws with git's message when it fails.
    @discardableResult
    public func check(_ args: [String], environment: [String: String?] = [:]) throws(GitError) -> ProcessResult {
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

    /// Whether any of these config keys has a value, at any level (one git
    /// process for all of them).
    public func hasConfig(anyOf keys: [String]) throws(GitError) -> Bool {
        guard !keys.isEmpty else { return false }
        let pattern = "^(" + keys.map(Self.regexEscaped).joined(separator: "|") + ")$"
        return try git(["config", "--get-regexp", pattern]).succeeded
    }

    /// A config key as a POSIX extended regular expression matching only itself.
    static func regexEscaped(_ key: String) -> String {
        var out = ""
        for c in key {
            if "\\.[](){}*+?^$|".contains(c) { out.append("\\") }
            out.append(c)
        }
        return out
    }

    /// HEAD, branch, upstream (with ahead/behind counts) and the store's
    /// changed files, from one `git status`.
    public func status() throws(GitError) -> GitStatus {
        let r = try check(["status", "--porcelain=v2", "--branch", "-z", "--untracked-files=all", "--no-renames", "--", "."])
        return GitStatus.parse(r.stdout, prefix: prefix)
    }

    /// Commits HEAD has that its upstream does not, and the other way round;
    /// nil when there is no upstream (or it was not fetched).
    public func aheadBehind() throws(GitError) -> (ahead: Int, behind: Int)? {
        let r = try git(["rev-list", "--left-right", "--count", "HEAD...@{upstream}"])
        guard r.succeeded else { return nil }
        let counts = r.output.split(whereSeparator: { $0 == "\t" || $0 == " " }).compactMap { Int($0) }
        return counts.count == 2 ? (counts[0], counts[1]) : nil
    }

    /// How many commits HEAD has that its upstream does not.
    public func commitsAhead() throws(GitError) -> Int {
        let r = try git(["rev-list", "--count", "@{upstream}..HEAD"])
        return r.succeeded ? Int(r.output) ?? 0 : 0
    }

    /// The absolute path of a file in the git directory (`MERGE_HEAD`, `rebase-merge`).
    public func gitPath(_ name: String) throws(GitError) -> String {
        let p = try check(["rev-parse", "--git-path", name]).output
        return PathString.isAbsolute(p) ? p : PathString.appending(directory, p)
    }

    /// True while a merge waits for its commit.
    public func isMerging() throws(GitError) -> Bool {
        if let gitDirectory {
            return FileManager.default.fileExists(atPath: PathString.appending(gitDirectory, "MERGE_HEAD"))
        }
        return try git(["rev-parse", "-q", "--verify", "MERGE_HEAD"]).succeeded
    }

    /// True while a rebase is stopped.
    public func isRebasing() throws(GitError) -> Bool {
        for name in ["rebase-merge", "rebase-apply"] {
            let path: String
            if let gitDirectory {
                path = PathString.appending(gitDirectory, name)
            } else {
                path = try gitPath(name)
            }
            if FileManager.default.fileExists(atPath: path) { return true }
        }
        return false
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
        var args = ["diff", "--no-renames", "--no-ext-diff", "--name-status", "-z", "--relative"]
        if to == nil { args.append("--cached") }
        if let from {
            args.append(from)
        } else {
            // The empty tree's id depends on the hash (SHA-1 or SHA-256): ask git.
            args.append(try check(["hash-object", "-t", "tree", "/dev/null"]).output)
        }
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
}
