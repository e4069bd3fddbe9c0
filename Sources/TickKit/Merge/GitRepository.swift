import Foundation

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
        let r = try run(["rev-parse", "--show-toplevel", "--show-prefix"], in: directory)
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

    /// Runs `git ARGS` in `directory` (any directory, in a repository or not),
    /// with stdin from /dev/null, capturing stdout and stderr. `environment`
    /// adds to (or, with nil, removes from) this process's environment. Throws
    /// only when git cannot be started.
    public static func run(_ args: [String], in directory: String, environment: [String: String?] = [:]) throws(GitError) -> ProcessResult {
        do {
            return try ProcessRunner.run("git", args, in: directory, environment: environment)
        } catch {
            throw GitError(error.message)
        }
    }

    /// Runs `git ARGS` in the store directory.
    public func git(_ args: [String], environment: [String: String?] = [:]) throws(GitError) -> ProcessResult {
        var env = Self.quietEnvironment
        for (k, v) in environment { env[k] = v }
        return try Self.run(args, in: directory, environment: env)
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
