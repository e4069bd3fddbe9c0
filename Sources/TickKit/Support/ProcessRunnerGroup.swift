import CTickSys
import Dispatch
import Glibc

extension ProcessRunner {
    /// Runs `request` with its output captured in unnamed files: spawned by
    /// `fork`/`execve` (``tick_spawn_group``) in a process group of its own,
    /// with default signal dispositions, an empty signal mask, none of tick's
    /// other descriptors, in the request's directory with exactly its
    /// environment. `inGroup` (``ProcessRequest/diesWithParent``) adds a
    /// parent-death signal, so killing tick, even with SIGKILL, stops the
    /// child, and a timeout stops the whole group (the child and what it
    /// started: a password command); otherwise a timeout stops the child.
    static func runCaptured(_ request: ProcessRequest, inGroup: Bool) throws(ProcessError) -> ProcessResult {
        let name = request.program
        let temp = request.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        guard let out = AnonymousFile(directory: temp), let err = AnonymousFile(directory: temp) else {
            throw ProcessError("cannot create a temporary file to run \(name): \(String(cString: strerror(errno)))")
        }
        var inputFile: AnonymousFile?
        var nullFD: Int32 = -1
        if let input = request.input {
            guard let file = AnonymousFile(directory: temp), file.write(input) else {
                throw ProcessError("cannot create a temporary file for the input of \(name): \(String(cString: strerror(errno)))")
            }
            inputFile = file
        } else {
            nullFD = open("/dev/null", O_RDONLY | O_CLOEXEC)
        }
        defer { if nullFD >= 0 { close(nullFD) } }
        let inFD = inputFile?.fd ?? nullFD
        let path = name.contains("/") ? name : "/usr/bin/env"
        // Foundation's `Process` checked these before spawning (the group runs
        // never did: a missing program exits 127 there, which callers read).
        if !inGroup, let problem = SpawnCheck.problem(program: path, directory: request.directory) {
            throw ProcessError("cannot run \(name): \(problem)")
        }
        let arguments = name.contains("/") ? [name] + request.arguments : ["env", name] + request.arguments
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = request.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        let pid = tick_spawn_group(path, argv, envp, request.directory, inFD, out.fd, err.fd, inGroup ? SIGTERM : 0)
        guard pid > 0 else { throw ProcessError("cannot run \(name): \(String(cString: strerror(errno)))") }
        let box = ExitBox()
        let exited = DispatchSemaphore(value: 0)
        BackgroundThread.start {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            box.status = status
            exited.signal()
        }
        let idle = inGroup && request.timeoutIsIdle
        if let timeout = request.timeout, !finished(exited, within: timeout, idle: idle, output: [out.fd, err.fd]) {
            let target = inGroup ? -pid : pid
            kill(target, SIGTERM)
            if exited.wait(timeout: .now() + 1) == .timedOut {
                kill(target, SIGKILL)
                exited.wait()
            }
            throw ProcessError(idle
                ? "\(name) printed nothing for \(Self.seconds(timeout)) and was stopped"
                : "\(name) did not finish within \(Self.seconds(timeout)) and was stopped")
        } else if request.timeout == nil {
            exited.wait()
        }
        let raw = box.status
        let signal = raw & 0x7f
        let status = signal == 0 ? (raw >> 8) & 0xff : 128 + signal
        let stderr = String(decoding: err.contents(), as: UTF8.self)
        // /usr/bin/env exits 127 when the program is not on PATH.
        if !name.contains("/"), status == 127, stderr.contains("No such file") {
            throw ProcessError("\(name) is not installed (or not on PATH)")
        }
        return ProcessResult(status: status, stdout: out.contents(), stderr: stderr)
    }

    /// Waits for `exited` up to `timeout` seconds; with `idle`, counted from
    /// the last time the files of `output` grew. False when the time ran out.
    private static func finished(_ exited: DispatchSemaphore, within timeout: Double, idle: Bool, output: [Int32]) -> Bool {
        guard idle else { return exited.wait(timeout: .now() + timeout) == .success }
        func written() -> Int {
            output.reduce(0) { sum, fd in
                var info = stat()
                return sum + (fstat(fd, &info) == 0 ? Int(info.st_size) : 0)
            }
        }
        var seen = written()
        var deadline = DispatchTime.now() + timeout
        while true {
            let step = DispatchTime.now() + min(timeout, 5)
            if exited.wait(timeout: min(step, deadline)) == .success { return true }
            let now = written()
            if now != seen {
                seen = now
                deadline = .now() + timeout
            } else if DispatchTime.now() >= deadline {
                return false
            }
        }
    }

    /// The wait status, handed from the waiting thread (read after the semaphore).
    private final class ExitBox: @unchecked Sendable {
        var status: Int32 = 0
    }
}
