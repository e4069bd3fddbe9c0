import FoundationEssentials
import Glibc

/// The git hooks `tick git setup` installs: after a plain `git pull` (merge or
/// rebase) they run `tick resolve --quiet` for the store.
public enum GitHooks {
    /// The hooks, in the order they are installed.
    public static let names = ["post-merge", "post-rewrite"]
    /// The line that marks a hook as tick's own: setup may rewrite such a hook,
    /// and never touches any other.
    public static let marker = "# installed by tick git setup"
    /// When set (to anything), the hooks do nothing. Every git command tick
    /// runs sets it: `tick sync` holds the store lock while it pulls, and
    /// reports pending conflict copies itself.
    public static let skipVariable = "TICK_NO_HOOKS"

    /// What installing one hook did.
    public enum Outcome: Sendable, Equatable {
        /// The hook was already tick's current one.
        case unchanged
        case installed
        /// An older tick hook (other paths or text) was replaced.
        case updated
        /// A hook that is not tick's is there: left alone.
        case foreign
    }

    /// The command the hooks run: the binary and the store by absolute path.
    public static func command(executable: String, store: String) -> String {
        "\(ProcessRunner.shellQuote(executable)) --store \(ProcessRunner.shellQuote(store)) resolve --quiet || true"
    }

    /// The text of hook `name`: a POSIX sh script that never fails the git command.
    public static func script(_ name: String, executable: String, store: String) -> String {
        var lines = [
            "#!/bin/sh",
            marker,
            "# After git pull (merge or rebase): merges Syncthing conflict copies and",
            "# conflict markers in the tick store. `tick git setup` rewrites this file",
            "# while it has the \"installed by\" line; delete that line to keep your",
            "# own changes.",
            "[ -n \"${\(skipVariable):-}\" ] && exit 0",
        ]
        // post-rewrite also runs after `git commit --amend`: only rebases matter.
        if name == "post-rewrite" { lines.append("[ \"$1\" = rebase ] || exit 0") }
        lines += [
            "TICK=\(ProcessRunner.shellQuote(executable))",
            "STORE=\(ProcessRunner.shellQuote(store))",
            "\"$TICK\" --store \"$STORE\" resolve --quiet || true",
            "exit 0",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// True when a hook's text carries ``marker`` on a line of its own.
    public static func isTicks(_ text: String) -> Bool {
        text.split(whereSeparator: \.isNewline).contains { $0.trimmingWhitespace() == marker }
    }

    /// Installs (or updates) hook `name` in `hooksDirectory` (created when
    /// missing); a hook that is not tick's is left alone.
    public static func install(_ name: String, in hooksDirectory: String, executable: String, store: String) throws(StoreError) -> Outcome {
        let path = PathString.appending(hooksDirectory, name)
        let wanted = script(name, executable: executable, store: store)
        let existing: (bytes: [UInt8], stamp: FileStamp)?
        do {
            existing = try AtomicFile.read(path: path)
        } catch {
            // Not a readable file (a directory, no permission): not ours to replace.
            return .foreign
        }
        guard let existing else {
            try AtomicFile.write(Array(wanted.utf8), to: path, mode: 0o755)
            return .installed
        }
        let text = String(decoding: existing.bytes, as: UTF8.self)
        guard isTicks(text) else { return .foreign }
        if text == wanted && existing.stamp.mode & 0o111 == 0o111 { return .unchanged }
        try AtomicFile.write(Array(wanted.utf8), to: path, mode: 0o755)
        return .updated
    }
}
