import FoundationEssentials

/// What one `git status --porcelain=v2 --branch` says: where HEAD is, its
/// upstream, and which store files differ from HEAD.
public struct GitStatus: Sendable, Equatable {
    /// The commit HEAD points at; nil on an unborn branch.
    public var head: String?
    /// The current branch; nil when HEAD is detached.
    public var branch: String?
    /// The configured upstream (`origin/main`), fetched or not.
    public var upstream: String?
    /// Commits HEAD has that the upstream does not, and the other way round;
    /// nil when there is no upstream or it was never fetched.
    public var ahead: Int?
    public var behind: Int?
    /// Store paths (relative to the store) whose work-tree content differs
    /// from HEAD, including untracked and unmerged files.
    public var dirtyPaths: [String] = []

    public init(head: String? = nil, branch: String? = nil, upstream: String? = nil, ahead: Int? = nil, behind: Int? = nil, dirtyPaths: [String] = []) {
        self.head = head
        self.branch = branch
        self.upstream = upstream
        self.ahead = ahead
        self.behind = behind
        self.dirtyPaths = dirtyPaths
    }

    /// Parses `git status --porcelain=v2 --branch -z` output; `prefix` is the
    /// store's directory relative to the top level (`""` or `"sub/dir/"`).
    public static func parse(_ bytes: [UInt8], prefix: String) -> GitStatus {
        var s = GitStatus()
        var skipNext = false
        for record in bytes.split(separator: 0) {
            if skipNext { skipNext = false; continue }
            let text = String(decoding: record, as: UTF8.self)
            // The path is the last field; how many fields precede it depends on the kind.
            let fieldsBeforePath: Int
            switch text.first {
            case "#":
                s.readHeader(text)
                continue
            case "1": fieldsBeforePath = 8
            case "2": fieldsBeforePath = 9; skipNext = true  // then the original path
            case "u": fieldsBeforePath = 10
            case "?": fieldsBeforePath = 1
            default: continue
            }
            let fields = text.split(separator: " ", maxSplits: fieldsBeforePath, omittingEmptySubsequences: false)
            guard fields.count == fieldsBeforePath + 1 else { continue }
            // Paths are relative to the top level.
            let path = String(fields[fieldsBeforePath])
            s.dirtyPaths.append(path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path)
        }
        return s
    }

    private mutating func readHeader(_ line: String) {
        let words = line.split(separator: " ", maxSplits: 2)
        guard words.count == 3 else { return }
        let value = String(words[2])
        switch words[1] {
        case "branch.oid": head = value == "(initial)" ? nil : value
        case "branch.head": branch = value == "(detached)" ? nil : value
        case "branch.upstream": upstream = value
        case "branch.ab":
            let counts = value.split(separator: " ").map { Int($0.dropFirst()) }
            if counts.count == 2, let a = counts[0], let b = counts[1] { (ahead, behind) = (a, b) }
        default: break
        }
    }
}
