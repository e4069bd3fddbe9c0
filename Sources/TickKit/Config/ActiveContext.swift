import FoundationEssentials
import Glibc

/// Which context (saved filter) is active for a store on this machine:
/// machine-local state (`$XDG_STATE_HOME/tick/<store>/context`), never in the
/// store. `TICK_CONTEXT` overrides it for one command (`none` for no context).
public struct ActiveContext: Sendable {
    public let path: String

    public init(location: StoreLocation) {
        path = PathString.appending(location.stateDirectory, "context")
    }

    /// The active context's name: `TICK_CONTEXT` when set, else the state file; nil for none.
    public func name(environment: [String: String]) -> String? {
        if let env = environment["TICK_CONTEXT"] {
            let name = env.trimmingWhitespace()
            return name.isEmpty || name == "none" ? nil : name
        }
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let name = String(decoding: data, as: UTF8.self).trimmingWhitespaceAndNewlines()
        return name.isEmpty ? nil : name
    }

    /// Makes `name` active (nil: none).
    public func set(_ name: String?) throws(StoreError) {
        guard let name else {
            try AtomicFile.remove(path: path)
            return
        }
        try PrivateFiles.createDirectory(PathString.deletingLastComponent(path))
        try AtomicFile.write(Array((name + "\n").utf8), to: path, mode: PrivateFiles.fileMode)
    }
}
