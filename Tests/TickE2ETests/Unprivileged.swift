import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Running tick as an ordinary user, so that file permissions apply: root
/// bypasses them, and the tests usually run as root.
///
/// As root, the sandbox is handed to `nobody` (uid and gid 65534) and tick
/// runs under `setpriv --reuid=65534 --regid=65534 --clear-groups`; as any
/// other user, tick runs as that user, who is already unprivileged.
enum Unprivileged {
    static let uid: uid_t = 65534
    static let setpriv = ["/usr/bin/setpriv", "/bin/setpriv"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// True when tick can be run without root's bypass of permissions.
    static var available: Bool { getuid() != 0 || setpriv != nil }

    /// Why a test that needs it is skipped.
    static let reason = "needs setpriv (util-linux) to run tick as nobody: root ignores file permissions"
}

extension Sandbox {
    /// Hands every file of the sandbox to the unprivileged user (as root;
    /// otherwise they are already the user's). Call again after root wrote files.
    func handToUnprivileged() throws {
        guard getuid() == 0 else { return }
        let r = try run("/bin/chown", ["-R", "\(Unprivileged.uid):\(Unprivileged.uid)", root])
        guard r.status == 0 else { throw HarnessError("chown -R \(root) failed: \(r)") }
        // The sandbox's parent (the temp directory) must let nobody through.
        guard access((root as NSString).deletingLastPathComponent, X_OK) == 0 else { throw HarnessError("the temp directory is not searchable") }
    }

    /// Runs tick as an unprivileged user (see ``Unprivileged``).
    @discardableResult
    func tickUnprivileged(_ args: String..., env: [String: String?] = [:]) throws -> RunResult {
        try tickUnprivileged(args, env: env)
    }

    /// Runs tick as an unprivileged user (see ``Unprivileged``).
    @discardableResult
    func tickUnprivileged(_ args: [String], env: [String: String?] = [:]) throws -> RunResult {
        guard getuid() == 0 else { return try tick(args, env: env) }
        guard let setpriv = Unprivileged.setpriv else { throw HarnessError(Unprivileged.reason) }
        return try run(setpriv, ["--reuid=\(Unprivileged.uid)", "--regid=\(Unprivileged.uid)", "--clear-groups", "--", TickBinary.path] + args, env: env)
    }
}
