import CTickSys
import Dispatch
import Foundation

#if os(Linux)
extension ProcessRunner {
    /// Runs `request` as ``ProcessRunner/run(_:)`` does, but in a process
    /// group of its own with a parent-death signal (``ProcessRequest/diesWithParent``):
    /// killing tick, even with SIGKILL, stops the child; a timeout stops the
    /// whole group (the child and what it started: a password command).
    static func runInGroup(_ request: ProcessRequest) throws(ProcessError) -> ProcessResult {
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
        let arguments = name.contains("/") ? [name] + request.arguments : ["env", name] + request.arguments
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = request.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        let pid = tick_spawn_group(path, argv, envp, request.directory, inFD, out.fd, err.fd, SIGTERM)
        guard pid > 0 else { throw ProcessError("cannot run \(name): \(String(cString: strerror(errno)))") }
        let box = ExitBox()
        let exited = DispatchSemaphore(value: 0)
        Thread {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            box.status = status
            exited.signal()
        }.start()
        if let timeout = request.timeout, !finished(exited, within: timeout, idle: request.timeoutIsIdle, output: [out.fd, err.fd]) {
            kill(-pid, SIGTERM)
            if exited.wait(timeout: .now() + 1) == .timedOut {
                kill(-pid, SIGKILL)
                exited.wait()
            }
            throw ProcessError(request.timeoutIsIdle
                ? "\(name) printed nothing for \(Self.seconds(timeout)) and was stopped"
                : "\(name) did not finish within \(Self.seconds(timeout)) and was stopped")
        } else if request.timeout == nil {
            exited.wait()
        }
        let raw = box.status
        let signal = raw & 0x7f
        let status = signal == 0 ? (raw >> 8) & 0xff : 128 + signal
        let stderr = String(decoding: err.contents(), as: UTF8.self)
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
#endif
