/// ``TaskIndex/kind(forRelativePath:)`` remembered per path for one read:
/// rows read through a date index change file at almost every row, and
/// working a path out again each time was a sixth of such a read.
struct FileKindCache {
    private var known: [String: FileKind?] = [:]

    mutating func kind(forRelativePath path: String) -> FileKind? {
        if let seen = known[path] { return seen }
        let kind = TaskIndex.kind(forRelativePath: path)
        known[path] = kind
        return kind
    }
}
