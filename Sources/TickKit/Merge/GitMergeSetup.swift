import FoundationEssentials

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
        "\(ProcessRunner.shellQuote(executable)) merge-driver %O %A %B %P"
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
