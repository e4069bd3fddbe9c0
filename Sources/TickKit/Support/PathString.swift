import FoundationEssentials
import Glibc

/// Path arithmetic on plain strings, as tick used it from Foundation's
/// `NSString` (which FoundationEssentials does not have): joining, the last
/// component, its parent, the extension, and standardising (tilde, `.`, `..`,
/// repeated slashes, symbolic links). The results are byte for byte those of
/// swift-corelibs-foundation for the paths tick builds (tested against it).
public enum PathString {
    /// `base` + `/` + `component`; no slash added after a `base` ending in one,
    /// nothing normalised (`a//` + `b` is `a//b`), an empty side gives the other.
    public static func appending(_ base: String, _ component: String) -> String {
        if component.isEmpty { return base }
        if base.isEmpty { return component }
        if base.utf8.last == UInt8(ascii: "/") { return base + component }
        return base + "/" + component
    }

    /// The components between slashes, empty ones dropped.
    static func components(_ path: String) -> [Substring] {
        path.split(separator: "/", omittingEmptySubsequences: true)
    }

    /// Repeated slashes collapsed and trailing ones dropped (`/` stays).
    static func fixingSlashes(_ path: String) -> String {
        let parts = components(path)
        let absolute = path.hasPrefix("/")
        if parts.isEmpty { return absolute ? "/" : "" }
        return (absolute ? "/" : "") + parts.joined(separator: "/")
    }

    /// The last component (`/a/b/` gives `b`, `/` gives `/`).
    public static func lastComponent(_ path: String) -> String {
        if path.isEmpty { return "" }
        if path == "//" { return "" }
        let parts = components(path)
        guard let last = parts.last else { return "/" }
        return String(last)
    }

    /// The path without its last component (`/a/b/` gives `/a`, `/a` gives
    /// `/`, `a` gives the empty string).
    public static func deletingLastComponent(_ path: String) -> String {
        if path.isEmpty || path == "/" { return path }
        if path == "//" { return "" }
        let parts = components(path)
        let absolute = path.hasPrefix("/")
        guard parts.count > 1 else { return absolute ? "/" : "" }
        return (absolute ? "/" : "") + parts.dropLast().joined(separator: "/")
    }

    /// The extension of the last component, without its dot (`b.tar.gz`
    /// gives `gz`; `.hidden` and `y.` give nothing).
    public static func pathExtension(_ path: String) -> String {
        let last = lastComponent(path)
        guard let dot = last.lastIndex(of: "."), dot != last.startIndex else { return "" }
        return String(last[last.index(after: dot)...])
    }

    /// True for a path starting with `/` or `~`.
    public static func isAbsolute(_ path: String) -> Bool {
        path.hasPrefix("/") || path.hasPrefix("~")
    }

    /// `~` and `~/…` expanded with `home`, then ``resolvingSymlinks(_:)``.
    public static func standardizing(_ path: String, home: String) -> String {
        var expanded = path
        if path == "~" { expanded = home } else if path.hasPrefix("~/") { expanded = home + path.dropFirst() }
        return resolvingSymlinks(expanded)
    }

    /// An absolute path with `.` dropped, `..` applied and every symbolic link
    /// on the way whose target exists replaced by it (the part that exists;
    /// the rest, and a dangling link, are kept as written). A relative path only loses `.` components, repeated
    /// and trailing slashes.
    public static func resolvingSymlinks(_ path: String) -> String {
        guard path.hasPrefix("/") else {
            let parts = components(path).filter { $0 != "." }
            return parts.joined(separator: "/")
        }
        var resolved: [Substring] = []
        var pending = Array(components(path).reversed())
        var hops = 0
        while let part = pending.popLast() {
            if part == "." { continue }
            if part == ".." { _ = resolved.popLast(); continue }
            let candidate = "/" + (resolved + [part]).joined(separator: "/")
            // A dangling link is kept as written (as Foundation did).
            if hops < 32, let target = readLink(candidate), exists(candidate) {
                hops += 1
                if target.hasPrefix("/") { resolved = [] }
                pending.append(contentsOf: components(target).reversed())
            } else {
                resolved.append(part)
            }
        }
        return "/" + resolved.joined(separator: "/")
    }

    /// True when something exists at `path`, links followed.
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    /// The target of the symbolic link at `path`; nil when it is not one.
    static func readLink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink(path, &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
