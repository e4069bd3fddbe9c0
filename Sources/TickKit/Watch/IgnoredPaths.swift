/// Which paths under the store the watcher cares about.
///
/// Only `inbox.json` and `lists/<slug>.json` are data. Editors', sed's, git's
/// and Syncthing's temporary files are ignored by name, so a burst of them
/// never triggers work: `*~`, vim's `4913` and `.*.sw?`, emacs' `#file#` and
/// `.#file`, sed's `sedXXXXXX`, `.syncthing.*.tmp`, git's `.merge_file_*`,
/// tick's own `.*.tick-*.tmp`, and anything under `.git/` or `.stversions/`.
public enum IgnoredPaths {
    /// Directory names that are never watched.
    public static let excludedDirectories: Set<String> = [".git", ".stversions"]

    /// True when a store-relative path is a temporary or foreign file.
    public static func isIgnored(_ relativePath: String) -> Bool {
        let components = relativePath.split(separator: "/")
        if components.contains(where: { excludedDirectories.contains(String($0)) }) { return true }
        guard let name = components.last.map(String.init) else { return true }
        if name.hasSuffix("~") || name == "4913" { return true }
        if name.hasPrefix("#") && name.hasSuffix("#") { return true }
        if name.hasPrefix(".#") { return true }
        if name.hasPrefix(".") {
            // vim swap files: .name.swp, .swo, .swx, ... (".*.sw?")
            let parts = name.split(separator: ".")
            if let ext = parts.last, ext.count == 3, ext.hasPrefix("sw") { return true }
            if name.hasPrefix(".syncthing.") && name.hasSuffix(".tmp") { return true }
            if name.hasPrefix(".merge_file_") { return true }
            if name.hasSuffix(".tmp") { return true }
        }
        // sed -i writes sedXXXXXX next to the file.
        if name.count == 9, name.hasPrefix("sed"), name.dropFirst(3).allSatisfy({ $0.isLetter || $0.isNumber }) { return true }
        return false
    }
}
