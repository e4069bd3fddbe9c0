/// The few path manipulations the index needs, on strings, as NSString's
/// path methods did them (without Foundation): trailing slashes ignored.
enum IndexPaths {
    /// `directory/name` (one slash between them).
    static func join(_ directory: String, _ name: String) -> String {
        let dir = trimmed(directory)
        if dir.isEmpty { return name }
        return dir == "/" ? "/" + name : dir + "/" + name
    }

    /// The directory part of `path` ("" for a bare name, "/" for the root).
    static func directory(of path: String) -> String {
        let p = trimmed(path)
        guard let slash = p.lastIndex(of: "/") else { return "" }
        if slash == p.startIndex { return "/" }
        return trimmed(String(p[..<slash]))
    }

    /// The last component of `path`.
    static func lastComponent(of path: String) -> String {
        let p = trimmed(path)
        if p == "/" { return "/" }
        guard let slash = p.lastIndex(of: "/") else { return p }
        return String(p[p.index(after: slash)...])
    }

    /// `path` without trailing slashes (the root stays "/").
    private static func trimmed(_ path: String) -> String {
        var p = Substring(path)
        while p.count > 1, p.hasSuffix("/") { p = p.dropLast() }
        return String(p)
    }
}
