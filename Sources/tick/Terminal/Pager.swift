import FoundationEssentials
import Glibc
import TickKit

/// Long output on a terminal goes through a pager, as git does: `$TICK_PAGER`,
/// else `$PAGER`, else `less` (with `LESS=FRX` unless `LESS` is set: one
/// screen or less is printed and less exits at once, colors pass through, and
/// the screen is not cleared). Output to a pipe or a file is never paged;
/// `--no-pager`, or a pager of `""` or `cat`, turns it off.
///
/// Only commands that print and never ask start one (listings, search, show).
final class Pager {
    private let pid: pid_t
    private let savedStdout: Int32

    private init(pid: pid_t, savedStdout: Int32) {
        self.pid = pid
        self.savedStdout = savedStdout
    }

    /// The pager command for this environment, nil for none.
    static func command(environment: [String: String]) -> String? {
        let chosen = environment["TICK_PAGER"] ?? environment["PAGER"] ?? "less"
        let command = chosen.trimmingWhitespace()
        if command.isEmpty || command == "cat" { return nil }
        if command == "less" {
            // No less on this machine: print directly rather than lose the output.
            let path = environment["PATH"] ?? "/usr/bin:/bin"
            guard path.split(separator: ":").contains(where: { access("\($0)/less", X_OK) == 0 }) else { return nil }
        }
        return command
    }

    /// Starts the pager and points stdout at it; nil when output is not to be
    /// paged (not a terminal, turned off, or the pager cannot be started).
    ///
    /// Spawned with `posix_spawn` in tick's own process group (Foundation's
    /// `Process` starts a new group, and a pager outside the terminal's
    /// foreground group is stopped by SIGTTOU as soon as it sets up the terminal).
    static func start(terminal: Terminal, environment: [String: String], disabled: Bool) -> Pager? {
        guard terminal.stdoutIsTTY, !disabled, let command = command(environment: environment) else { return nil }
        var env = environment
        if env["LESS"] == nil { env["LESS"] = "FRX" }
        if env["LV"] == nil { env["LV"] = "-c" }
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return nil }
        // The pager must not inherit the write end, or it never sees the end of the output.
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[0], STDIN_FILENO)
        let argv = ["/bin/sh", "-c", command]
        let envp = env.map { "\($0.key)=\($0.value)" }
        var pid: pid_t = 0
        let spawned = withCStrings(argv) { cArgs in
            withCStrings(envp) { cEnv in posix_spawn(&pid, "/bin/sh", &actions, nil, cArgs, cEnv) }
        }
        close(fds[0])
        guard spawned == 0 else {
            close(fds[1])
            return nil
        }
        let saved = dup(STDOUT_FILENO)
        guard saved >= 0, dup2(fds[1], STDOUT_FILENO) >= 0 else {
            close(fds[1])
            return nil
        }
        close(fds[1])
        return Pager(pid: pid, savedStdout: saved)
    }

    /// Ends the output (the pager sees end of file) and waits until the user
    /// leaves the pager.
    func finish() {
        dup2(savedStdout, STDOUT_FILENO)
        close(savedStdout)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }

    /// Calls `body` with a NULL-terminated C array of the strings.
    private static func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
        var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
        pointers.append(nil)
        defer { for p in pointers { free(p) } }
        return body(pointers)
    }
}
