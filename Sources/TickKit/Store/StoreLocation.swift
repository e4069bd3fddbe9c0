import FoundationEssentials
import Glibc

/// Where a store lives, and where tick keeps its machine-local state for it.
///
/// The index, lock and short-id table are kept outside the store, under the
/// XDG state and cache directories, keyed by the store's real path, so that
/// git and Syncthing only ever carry user data.
public struct StoreLocation: Sendable, Equatable {
    /// Absolute path of the store directory.
    public let root: String
    /// Directory for the lock and short-id table: `$XDG_STATE_HOME/tick/<key>`.
    public let stateDirectory: String
    /// Directory for caches such as the index: `$XDG_CACHE_HOME/tick/<key>`.
    public let cacheDirectory: String

    public init(root: String, stateDirectory: String, cacheDirectory: String) {
        self.root = root
        self.stateDirectory = stateDirectory
        self.cacheDirectory = cacheDirectory
    }

    /// Resolves the store: `explicit` (from `--store`), else `TICK_STORE`, else
    /// `$XDG_DATA_HOME/tick` (default `~/.local/share/tick`).
    public static func resolve(explicit: String?, environment: [String: String], currentDirectory: String) -> StoreLocation {
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? FileManager.default.homeDirectoryForCurrentUser.path
        func xdg(_ name: String, _ fallback: String) -> String {
            if let v = environment[name], v.hasPrefix("/") { return v }
            return PathString.appending(home, fallback)
        }
        let chosen: String
        if let explicit, !explicit.isEmpty {
            chosen = explicit
        } else if let env = environment["TICK_STORE"], !env.isEmpty {
            chosen = env
        } else {
            chosen = PathString.appending(xdg("XDG_DATA_HOME", ".local/share"), "tick")
        }
        let root = absolutePath(expandTilde(chosen, home: home), relativeTo: currentDirectory, home: home)
        let key = storeKey(for: root)
        return StoreLocation(
            root: root,
            stateDirectory: PathString.appending(PathString.appending(xdg("XDG_STATE_HOME", ".local/state"), "tick"), key),
            cacheDirectory: PathString.appending(PathString.appending(xdg("XDG_CACHE_HOME", ".cache"), "tick"), key)
        )
    }

    /// True when the user named the store (`explicit` from `--store`, or
    /// `TICK_STORE`), as ``resolve(explicit:environment:currentDirectory:)``
    /// reads them. Only the default store is created on the first write: a
    /// named one that does not exist is a typo until `tick init` says otherwise.
    public static func isNamed(explicit: String?, environment: [String: String]) -> Bool {
        if let explicit, !explicit.isEmpty { return true }
        return !(environment["TICK_STORE"] ?? "").isEmpty
    }

    /// Throws ``StoreError/noStore(path:)`` when nothing exists at ``root``
    /// (a dangling symbolic link included), and ``StoreError/notADirectory(path:)``
    /// when something other than a directory does.
    public func requireExisting() throws(StoreError) {
        var st = stat()
        guard stat(root, &st) == 0 else {
            if errno == ENOENT || errno == ENOTDIR { throw .noStore(path: root) }
            throw .readFailed(path: root, reason: String(cString: strerror(errno)))
        }
        guard st.st_mode & S_IFMT == S_IFDIR else { throw .notADirectory(path: root) }
    }

    /// Absolute path of a file given relative to the store root.
    public func path(_ relative: String) -> String {
        PathString.appending(root, relative)
    }

    /// Path of a store file.
    public func path(of kind: FileKind) -> String { path(kind.relativePath) }

    /// `<basename>-<16 hex digits>`: stable for the store's real path.
    static func storeKey(for root: String) -> String {
        let real = realPathOfNearestAncestor(root)
        var base = PathString.lastComponent(real)
        base = String(base.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" }.prefix(32))
        if base.isEmpty { base = "store" }
        return "\(base)-\(FNV1a.hex64(Array(real.utf8)))"
    }

    private static func expandTilde(_ path: String, home: String) -> String {
        if path == "~" { return home }
        if path.hasPrefix("~/") { return home + path.dropFirst() }
        return path
    }

    private static func absolutePath(_ path: String, relativeTo cwd: String, home: String) -> String {
        let joined = path.hasPrefix("/") ? path : PathString.appending(cwd, path)
        return PathString.standardizing(joined, home: home)
    }

    /// The real path of `path`, resolving symlinks in the part that exists.
    private static func realPathOfNearestAncestor(_ path: String) -> String {
        var existing = path
        var rest: [String] = []
        while true {
            if let resolved = realpath(existing, nil) {
                defer { free(resolved) }
                var result = String(cString: resolved)
                for component in rest.reversed() { result = PathString.appending(result, component) }
                return result
            }
            let parent = PathString.deletingLastComponent(existing)
            if parent == existing || parent.isEmpty { return path }
            rest.append(PathString.lastComponent(existing))
            existing = parent
        }
    }
}
