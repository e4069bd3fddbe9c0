import FoundationEssentials
import Glibc

/// Runs helper programs (git, notify-send, prompts) and captures their output.
public enum ProcessRunner {
    /// Runs a program found on PATH (through `/usr/bin/env`) in `directory`,
    /// with stdin from /dev/null, capturing stdout and stderr. The child gets
    /// exactly `environment` (``ChildEnvironment/forTools(from:)`` of the
    /// command's, usually), nothing from this process's own.
    /// Throws only when the program cannot be started.
    public static func run(_ name: String, _ args: [String], in directory: String, environment: [String: String]) throws(ProcessError) -> ProcessResult {
        try run(ProcessRequest(program: name, arguments: args, directory: directory, environment: environment))
    }

    /// Runs `request`: its stdin is the request's input (or /dev/null), and
    /// its stdout and stderr are captured in unnamed files (no pipe a chatty
    /// child could fill and deadlock on). With a timeout, a child still
    /// running then is sent SIGTERM, and SIGKILL a second later, and the run
    /// throws ``ProcessError`` saying so. Throws when the program cannot be
    /// started, too; otherwise returns whatever status it exited with.
    public static func run(_ request: ProcessRequest) throws(ProcessError) -> ProcessResult {
        if request.usesTerminal { return try runOnTerminal(request) }
        return try runCaptured(request, inGroup: request.diesWithParent)
    }

    /// Runs a program that uses tick's terminal (an editor): in tick's own
    /// process group, so it is in the terminal's foreground and may read it
    /// (a captured run puts the child in a group of its own, where
    /// reading the terminal stops it: vim quit at once). While it runs, tick
    /// ignores SIGINT and SIGQUIT (as git does for its editor): a Ctrl-C
    /// typed in the editor is the editor's. The child gets the default
    /// dispositions and an empty signal mask. No timeout; nothing captured.
    /// A program not found exits 127, as from a shell.
    static func runOnTerminal(_ request: ProcessRequest) throws(ProcessError) -> ProcessResult {
        let name = request.program
        // Started in `directory` by a shell that then becomes the program (the
        // spawn's own chdir action is not in every C library tick builds with).
        let path = "/bin/sh"
        let arguments = ["sh", "-c", "cd -- \"$0\" && exec \"$@\"", request.directory, name] + request.arguments
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGQUIT, SIGTSTP, SIGTTIN, SIGTTOU, SIGPIPE, SIGHUP, SIGTERM] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var ignore = sigaction()
        ignore.__sigaction_handler.sa_handler = SIG_IGN
        sigemptyset(&ignore.sa_mask)
        var oldInt = sigaction(), oldQuit = sigaction()
        sigaction(SIGINT, &ignore, &oldInt)
        sigaction(SIGQUIT, &ignore, &oldQuit)
        defer {
            sigaction(SIGINT, &oldInt, nil)
            sigaction(SIGQUIT, &oldQuit, nil)
        }

        let argv = arguments.map { strdup($0) } + [nil]
        let envp = request.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, nil, &attributes, argv, envp)
        guard spawned == 0 else { throw ProcessError("cannot run \(name): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw ProcessError("cannot wait for \(name): \(String(cString: strerror(errno)))") }
        }
        // WIFSIGNALED / WEXITSTATUS, which Swift does not import as macros.
        let signal = status & 0x7f
        let code = signal == 0 ? (status >> 8) & 0xff : 128 + signal
        return ProcessResult(status: code, stdout: [], stderr: "")
    }

    /// `10 s`, `0.5 s`.
    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }

    /// A file with no name, for capturing output without pipes (no deadlocks).
    final class AnonymousFile {
        let fd: Int32

        init?(directory dir: String) {
            var template = Array((dir + "/tick-run-XXXXXX").utf8CString)
            let fd = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
                guard let base = buffer.baseAddress else { return -1 }
                return mkstemp(base)
            }
            guard fd >= 0 else { return nil }
            template.withUnsafeBufferPointer { buffer in
                if let base = buffer.baseAddress { unlink(base) }
            }
            self.fd = fd
        }

        deinit { close(fd) }

        /// Writes `bytes` and rewinds, so a child reads them from the start.
        func write(_ bytes: [UInt8]) -> Bool {
            var offset = 0
            while offset < bytes.count {
                let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return false }
                offset += n
            }
            return lseek(fd, 0, SEEK_SET) == 0
        }

        func contents() -> [UInt8] {
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            lseek(fd, 0, SEEK_SET)
            while true {
                let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                bytes.append(contentsOf: buffer[0..<n])
            }
            return bytes
        }
    }

    /// Quotes a word for the POSIX shell (git runs merge drivers with `sh -c`).
    public static func shellQuote(_ word: String) -> String {
        "'" + word.replacingAll("'", with: "'\\''") + "'"
    }

    /// The absolute path of the running executable.
    public static func currentExecutablePath() -> String {
        #if os(Linux)
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if n > 0 {
            return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        #endif
        let arg0 = CommandLine.arguments.first ?? "tick"
        return PathString.isAbsolute(arg0) ? arg0 : PathString.appending(FileManager.default.currentDirectoryPath, arg0)
    }
}
