import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - Constants

/// The pinned "now" of every run unless a test says otherwise: Saturday
/// 2026-11-21, 10:00 in Berlin (UTC+1).
let pinnedNow = "2026-11-21T09:00:00Z"

/// The time zone of every run.
let pinnedZone = "Europe/Berlin"

// MARK: - Locating the binary

/// Finds the `tick` executable that belongs to this test run.
///
/// Order: `$TICK_BIN`; next to the running test bundle (the products directory
/// `swift test` just built, whatever the scratch path); then
/// `<package>/.build-e2e/debug/tick` and `<package>/.build/debug/tick`.
enum TickBinary {
    static let path: String = locate()

    private final class Marker {}

    private static func locate(filePath: String = #filePath) -> String {
        let fm = FileManager.default
        func usable(_ p: String) -> Bool {
            var isDir: ObjCBool = false
            return fm.fileExists(atPath: p, isDirectory: &isDir) && !isDir.boolValue && fm.isExecutableFile(atPath: p)
        }
        if let env = ProcessInfo.processInfo.environment["TICK_BIN"], !env.isEmpty {
            return env
        }
        var candidates: [String] = []
        // Linux: the test runner is `<products>/<package>PackageTests.xctest`, an executable.
        if let argv0 = CommandLine.arguments.first, !argv0.isEmpty {
            let exe = URL(fileURLWithPath: argv0).resolvingSymlinksInPath()
            candidates.append(exe.deletingLastPathComponent().appendingPathComponent("tick").path)
        }
        // Bundle.main (Linux: the directory of the runner) and the bundle of this
        // code (macOS: `<products>/<package>PackageTests.xctest`).
        for bundle in [Bundle.main, Bundle(for: Marker.self)] {
            let url = bundle.bundleURL.resolvingSymlinksInPath()
            candidates.append(url.appendingPathComponent("tick").path)
            candidates.append(url.deletingLastPathComponent().appendingPathComponent("tick").path)
        }
        // The package root: walk up from this file to the directory with Package.swift.
        var dir = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        while dir.path != "/" {
            if fm.fileExists(atPath: dir.appendingPathComponent("Package.swift").path) {
                candidates.append(dir.appendingPathComponent(".build-e2e/debug/tick").path)
                candidates.append(dir.appendingPathComponent(".build/debug/tick").path)
                break
            }
            dir = dir.deletingLastPathComponent()
        }
        return candidates.first(where: usable) ?? candidates.last ?? "tick"
    }
}

// MARK: - Results

/// What a finished process left behind.
struct RunResult: CustomStringConvertible {
    var status: Int32
    var stdout: String
    var stderr: String
    var stdoutData: Data

    /// The lines of stdout, without the final empty one.
    var lines: [String] {
        var l = stdout.components(separatedBy: "\n")
        if l.last == "" { l.removeLast() }
        return l
    }

    var description: String {
        "exit \(status)\n--- stdout ---\n\(stdout)\n--- stderr ---\n\(stderr)"
    }
}

struct HarnessError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}

// MARK: - Sandbox

/// A private temporary world for one test: a store directory plus private
/// XDG_STATE_HOME / XDG_CACHE_HOME / XDG_DATA_HOME / HOME / TMPDIR, so tests
/// never touch the real home and never share short-id tables. Removed on deinit.
final class Sandbox {
    let root: String
    let store: String
    let home: String
    let stateHome: String
    let cacheHome: String
    let dataHome: String
    let tmp: String
    /// When false, TICK_STORE is not set (the store defaults to $XDG_DATA_HOME/tick).
    let setsStore: Bool
    private var counter = 0

    /// With `setsStore`, TICK_STORE names `store`, which tick requires to
    /// exist (only the default store is created on the first write), so the
    /// directory is made here, empty, as `tick init` would. `directory` is
    /// where the sandbox is made (default: the temporary directory).
    init(setsStore: Bool = true, under directory: String? = nil) throws {
        let base = ((directory ?? NSTemporaryDirectory()) as NSString).appendingPathComponent("tick-e2e-\(UUID().uuidString.prefix(8).lowercased())")
        // Resolve symlinks (e.g. /tmp -> /private/tmp on macOS) so paths match what tick prints.
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        root = URL(fileURLWithPath: base).resolvingSymlinksInPath().path
        store = root + "/store"
        home = root + "/home"
        stateHome = root + "/state"
        cacheHome = root + "/cache"
        dataHome = root + "/data"
        tmp = root + "/tmp"
        self.setsStore = setsStore
        for d in [home, stateHome, cacheHome, dataHome, tmp, root + "/io"] + (setsStore ? [store] : []) {
            try FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
        }
    }

    deinit {
        try? FileManager.default.removeItem(atPath: root)
    }

    // MARK: Environment

    /// The environment every process gets. `overrides` wins; a nil value removes a variable.
    func environment(_ overrides: [String: String?] = [:]) -> [String: String] {
        var env: [String: String] = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin",
            "HOME": home,
            "XDG_STATE_HOME": stateHome,
            "XDG_CACHE_HOME": cacheHome,
            "XDG_DATA_HOME": dataHome,
            "TMPDIR": tmp,
            "TZ": pinnedZone,
            "TICK_NOW": pinnedNow,
            "NO_COLOR": "1",
            // Output on a pseudo-terminal is not paged unless a test asks.
            "TICK_PAGER": "cat",
            // No one-time hints on stderr (FirstDayTests turns them on).
            "TICK_HINTS": "0",
            "LANG": "C.UTF-8",
            "GIT_CONFIG_NOSYSTEM": "1",
            "TICK": TickBinary.path,
        ]
        if setsStore { env["TICK_STORE"] = store }
        for (k, v) in overrides { env[k] = v }
        return env
    }

    // MARK: Running processes

    /// Runs an executable with an explicit environment, optional stdin, and
    /// captures stdout, stderr and the exit status. Output goes through files,
    /// so a large output never blocks the child.
    func run(_ executable: String, _ args: [String], stdin: String? = nil,
             env: [String: String?] = [:], cwd: String? = nil) throws -> RunResult {
        let started = try start(executable, args, stdin: stdin, env: env, cwd: cwd)
        return try started.wait()
    }

    /// A process that was started and not yet waited for.
    final class Running {
        let process: Process
        let outPath: String
        let errPath: String
        let inPath: String?
        let label: String

        init(process: Process, outPath: String, errPath: String, inPath: String?, label: String) {
            self.process = process
            self.outPath = outPath
            self.errPath = errPath
            self.inPath = inPath
            self.label = label
        }

        /// Waits for the exit. A death by signal is recorded as a test failure
        /// unless it is `expectedSignal` (a test that kills on purpose).
        func wait(expectedSignal: Int32? = nil) throws -> RunResult {
            process.waitUntilExit()
            let out = FileManager.default.contents(atPath: outPath) ?? Data()
            let err = FileManager.default.contents(atPath: errPath) ?? Data()
            for p in [outPath, errPath] + (inPath.map { [$0] } ?? []) { try? FileManager.default.removeItem(atPath: p) }
            var status = process.terminationStatus
            if process.terminationReason == .uncaughtSignal {
                // Never mistake a crash for an exit code.
                status = 128 + status
                if process.terminationStatus != expectedSignal { Issue.record("\(label) was killed by signal \(process.terminationStatus)\n\(String(decoding: err, as: UTF8.self))") }
            }
            return RunResult(status: status, stdout: String(decoding: out, as: UTF8.self),
                             stderr: String(decoding: err, as: UTF8.self), stdoutData: out)
        }
    }

    /// Starts a process without waiting (for concurrent runs).
    func start(_ executable: String, _ args: [String], stdin: String? = nil,
               env: [String: String?] = [:], cwd: String? = nil) throws -> Running {
        counter += 1
        let tag = "\(counter)-\(UUID().uuidString.prefix(6))"
        let io = root + "/io"
        let outPath = "\(io)/\(tag).out"
        let errPath = "\(io)/\(tag).err"
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = args
        process.environment = environment(env)
        process.currentDirectoryURL = URL(fileURLWithPath: cwd ?? root)
        var inPath: String?
        if let stdin {
            let p = "\(io)/\(tag).in"
            _ = FileManager.default.createFile(atPath: p, contents: Data(stdin.utf8))
            inPath = p
            process.standardInput = FileHandle(forReadingAtPath: p)
        } else {
            process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        }
        guard let out = FileHandle(forWritingAtPath: outPath), let err = FileHandle(forWritingAtPath: errPath) else {
            throw HarnessError("cannot open capture files in \(io)")
        }
        process.standardOutput = out
        process.standardError = err
        do {
            try process.run()
        } catch {
            throw HarnessError("cannot start \(executable): \(error)")
        }
        try? out.close()
        try? err.close()
        return Running(process: process, outPath: outPath, errPath: errPath, inPath: inPath,
                       label: ([executable] + args).joined(separator: " "))
    }

    /// Runs tick. `now` replaces the pinned TICK_NOW for this run.
    @discardableResult
    func tick(_ args: String..., stdin: String? = nil, now: String? = nil, env: [String: String?] = [:], cwd: String? = nil) throws -> RunResult {
        try tick(args, stdin: stdin, now: now, env: env, cwd: cwd)
    }

    @discardableResult
    func tick(_ args: [String], stdin: String? = nil, now: String? = nil, env: [String: String?] = [:], cwd: String? = nil) throws -> RunResult {
        var e = env
        if let now { e["TICK_NOW"] = now }
        return try run(TickBinary.path, args, stdin: stdin, env: e, cwd: cwd)
    }

    /// Runs tick and requires exit status 0; returns stdout.
    @discardableResult
    func ok(_ args: String..., stdin: String? = nil, now: String? = nil, env: [String: String?] = [:],
            sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let r = try tick(args, stdin: stdin, now: now, env: env)
        guard r.status == 0 else {
            Issue.record("tick \(args.joined(separator: " ")) failed: \(r)", sourceLocation: sourceLocation)
            throw HarnessError("tick \(args.joined(separator: " ")) exited \(r.status)")
        }
        return r.stdout
    }

    /// `tick add WORDS...`; returns the printed short id (stdout is not a TTY, so just the number).
    @discardableResult
    func add(_ words: String..., now: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let r = try tick(["add"] + words, now: now)
        guard r.status == 0 else {
            Issue.record("tick add \(words.joined(separator: " ")) failed: \(r)", sourceLocation: sourceLocation)
            throw HarnessError("tick add exited \(r.status)")
        }
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `tick ARGS --json`, parsed as an array of objects.
    func json(_ args: String..., now: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws -> [[String: Any]] {
        let r = try tick(args + ["--json"], now: now)
        guard r.status == 0 else {
            Issue.record("tick \(args.joined(separator: " ")) --json failed: \(r)", sourceLocation: sourceLocation)
            throw HarnessError("tick --json exited \(r.status)")
        }
        guard let array = try JSONSerialization.jsonObject(with: r.stdoutData) as? [[String: Any]] else {
            throw HarnessError("not a JSON array of objects: \(r.stdout)")
        }
        return array
    }

    /// `tick show ID --json`, parsed.
    func showJSON(_ id: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        let r = try tick("show", id, "--json")
        guard r.status == 0 else {
            Issue.record("tick show \(id) --json failed: \(r)", sourceLocation: sourceLocation)
            throw HarnessError("tick show exited \(r.status)")
        }
        guard let object = try JSONSerialization.jsonObject(with: r.stdoutData) as? [String: Any] else {
            throw HarnessError("not a JSON object: \(r.stdout)")
        }
        return object
    }

    /// Runs a shell script with `/bin/sh -c` (the tick binary is `$TICK`).
    @discardableResult
    func sh(_ script: String, stdin: String? = nil, env: [String: String?] = [:], cwd: String? = nil) throws -> RunResult {
        try run("/bin/sh", ["-c", script], stdin: stdin, env: env, cwd: cwd)
    }

    /// Runs `git ARGS` via /usr/bin/env in `dir` (default: the store).
    @discardableResult
    func git(_ args: String..., in dir: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws -> RunResult {
        let r = try run("/usr/bin/env", ["git"] + args, cwd: dir ?? store)
        if r.status != 0 {
            Issue.record("git \(args.joined(separator: " ")) failed: \(r)", sourceLocation: sourceLocation)
        }
        return r
    }

    /// Runs `sed ARGS` via /usr/bin/env in the store directory.
    @discardableResult
    func sed(_ args: String..., sourceLocation: SourceLocation = #_sourceLocation) throws -> RunResult {
        let r = try run("/usr/bin/env", ["sed"] + args, cwd: store)
        if r.status != 0 {
            Issue.record("sed \(args.joined(separator: " ")) failed: \(r)", sourceLocation: sourceLocation)
        }
        return r
    }

    // MARK: Files

    /// Absolute path of a file in the store, e.g. `lists/work.json`.
    func path(_ relative: String) -> String { store + "/" + relative }

    func exists(_ relative: String) -> Bool { FileManager.default.fileExists(atPath: path(relative)) }

    /// The bytes of a store file.
    func bytes(_ relative: String) throws -> Data {
        guard let d = FileManager.default.contents(atPath: path(relative)) else {
            throw HarnessError("cannot read \(path(relative))")
        }
        return d
    }

    /// The text of a store file.
    func text(_ relative: String) throws -> String { String(decoding: try bytes(relative), as: UTF8.self) }

    /// A store file parsed with JSONSerialization.
    func file(_ relative: String) throws -> [String: Any] {
        guard let o = try JSONSerialization.jsonObject(with: try bytes(relative)) as? [String: Any] else {
            throw HarnessError("\(relative) is not a JSON object")
        }
        return o
    }

    /// The `tasks` array of a store file.
    func tasks(_ relative: String) throws -> [[String: Any]] {
        guard let t = try file(relative)["tasks"] as? [[String: Any]] else {
            throw HarnessError("\(relative) has no tasks array")
        }
        return t
    }

    /// The first 8 hex digits of the id of the (first) task with this title, in any store file.
    func uuidPrefix(_ title: String) throws -> String {
        let files = storeFiles().filter { $0 == "inbox.json" || ($0.hasPrefix("lists/") && $0.hasSuffix(".json")) }
        for rel in files {
            if let id = try tasks(rel).task(title)?.string("id") { return String(id.prefix(8)) }
        }
        throw HarnessError("no task titled \(title)")
    }

    /// Writes a file in the store (creating directories), e.g. a hand-made list.
    func write(_ relative: String, _ text: String) throws {
        let p = path(relative)
        try FileManager.default.createDirectory(atPath: (p as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: p))
    }

    /// Writes an executable shell script under the sandbox and returns its path.
    func script(_ name: String, _ body: String) throws -> String {
        let p = root + "/" + name
        try Data(("#!/bin/sh\n" + body + "\n").utf8).write(to: URL(fileURLWithPath: p))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: p)
        return p
    }

    /// Every regular file under the store (relative paths, sorted), including hidden ones.
    func storeFiles() -> [String] {
        guard let e = FileManager.default.enumerator(atPath: store) else { return [] }
        var out: [String] = []
        while let rel = e.nextObject() as? String {
            if rel == ".git" || rel.hasPrefix(".git/") { e.skipDescendants(); continue }
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: path(rel), isDirectory: &isDir), !isDir.boolValue { out.append(rel) }
        }
        return out.sorted()
    }

    /// Bytes and nanosecond mtime of every store file.
    func fingerprint() throws -> [String: FileFingerprint] {
        var out: [String: FileFingerprint] = [:]
        for rel in storeFiles() {
            out[rel] = FileFingerprint(bytes: try bytes(rel), mtime: mtimeNanoseconds(path(rel)))
        }
        return out
    }
}

struct FileFingerprint: Equatable {
    var bytes: Data
    var mtime: Int64
}

/// The modification time of a file in nanoseconds (0 when it does not exist).
func mtimeNanoseconds(_ path: String) -> Int64 {
    var st = stat()
    guard stat(path, &st) == 0 else { return 0 }
    #if canImport(Darwin)
    return Int64(st.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(st.st_mtimespec.tv_nsec)
    #else
    return Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)
    #endif
}

/// Sets a file's modification time (seconds since 1970).
func setMtime(_ path: String, _ seconds: TimeInterval) throws {
    try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: seconds)], ofItemAtPath: path)
}

// MARK: - JSON helpers

extension Array where Element == [String: Any] {
    /// The titles, in order.
    var titles: [String] { compactMap { $0["title"] as? String } }

    /// The first task with this title.
    func task(_ title: String) -> [String: Any]? { first { $0["title"] as? String == title } }
}

extension Dictionary where Key == String, Value == Any {
    func string(_ key: String) -> String? { self[key] as? String }
    func int(_ key: String) -> Int? { (self[key] as? NSNumber)?.intValue }
    /// True when the key is present with JSON null.
    func isNull(_ key: String) -> Bool { self[key] is NSNull }
    var tagList: [String]? { self["tags"] as? [String] }
}

/// Canonical text of any JSON value (sorted keys), to compare structures.
func canonicalJSON(_ value: Any) throws -> String {
    let data = try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .prettyPrinted])
    return String(decoding: data, as: UTF8.self)
}

/// The lines of a text, without the final empty one.
func lines(_ text: String) -> [String] {
    var l = text.components(separatedBy: "\n")
    if l.last == "" { l.removeLast() }
    return l
}

/// 64-bit FNV-1a of bytes, as 16 lowercase hex digits (the store key of FORMAT.md §2).
func fnv1a64Hex(_ bytes: [UInt8]) -> String {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for b in bytes {
        h ^= UInt64(b)
        h = h &* 0x0000_0100_0000_01b3
    }
    let s = String(h, radix: 16)
    return String(repeating: "0", count: 16 - s.count) + s
}

/// True when a UUID string is lowercase 8-4-4-4-12 hex.
func isLowercaseUUID(_ s: String) -> Bool {
    guard UUID(uuidString: s) != nil else { return false }
    return s == s.lowercased() && s.count == 36
}

// MARK: - Index, status and watcher helpers (added for SearchTests, IndexTests, WatchTests)

/// Polls `condition` every 20 ms until it holds or `timeout` seconds pass.
/// Returns whether it held; never sleeps longer than needed.
func eventually(timeout: TimeInterval = 5, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
        if try condition() { return true }
        if Date() >= deadline { return false }
        usleep(20_000)
    }
}

extension Sandbox {
    /// The store key of the sandbox store: `store-<FNV-1a of its real path>`.
    var storeKey: String { "store-" + fnv1a64Hex(Array(store.utf8)) }

    /// `$XDG_CACHE_HOME/tick/<store-key>/index.sqlite`.
    var indexPath: String { cacheHome + "/tick/" + storeKey + "/index.sqlite" }

    /// `tick status --json`, parsed (exit 0 required).
    func statusJSON(env: [String: String?] = [:], sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        let r = try tick(["status", "--json"], env: env)
        guard r.status == 0 else {
            Issue.record("tick status --json failed: \(r)", sourceLocation: sourceLocation)
            throw HarnessError("tick status exited \(r.status)")
        }
        guard let o = try JSONSerialization.jsonObject(with: r.stdoutData) as? [String: Any] else {
            throw HarnessError("tick status --json is not an object: \(r.stdout)")
        }
        return o
    }

    /// Starts `tick watch` in the background with the sandbox environment and
    /// waits until its log says `watch established`. Stop it with
    /// ``Watcher/stop(signal:)`` (use `defer { watcher.stop() }`).
    func startWatcher(_ args: [String] = [], env: [String: String?] = [:], timeout: TimeInterval = 10,
                      sourceLocation: SourceLocation = #_sourceLocation) throws -> Watcher {
        let w = Watcher(try start(TickBinary.path, ["watch"] + args, env: env))
        guard w.waitForMessage(timeout: timeout, where: { $0.hasPrefix("watch established on ") }) != nil else {
            let r = w.stop()
            Issue.record("tick watch did not establish its watch within \(timeout) s: \(r)", sourceLocation: sourceLocation)
            throw HarnessError("tick watch did not start")
        }
        return w
    }
}

/// A `tick watch` process running in the background. Its stderr (the log) can
/// be read while it runs; ``stop(signal:)`` ends it within a bounded time.
final class Watcher {
    let running: Sandbox.Running
    private var result: RunResult?

    init(_ running: Sandbox.Running) { self.running = running }

    var pid: Int32 { running.process.processIdentifier }

    /// The whole log so far (after the process ended: its final stderr).
    var log: String {
        if let result { return result.stderr }
        return String(decoding: FileManager.default.contents(atPath: running.errPath) ?? Data(), as: UTF8.self)
    }

    /// Complete log lines with their leading timestamp removed
    /// (`2026-11-21T09:00:00Z reindexed ...` becomes `reindexed ...`).
    var messages: [String] {
        var l = log.components(separatedBy: "\n")
        l.removeLast()   // the unterminated rest (empty when the log ends with a newline)
        return l.map { line in
            guard let space = line.firstIndex(of: " "), line.first?.isNumber == true else { return line }
            return String(line[line.index(after: space)...])
        }
    }

    /// How many messages there are now; pass it as `after:` to look only at what follows.
    var mark: Int { messages.count }

    /// The messages after a mark.
    func messages(after mark: Int) -> [String] { Array(messages.dropFirst(mark)) }

    /// Waits (polling, bounded) for a message after `mark` that satisfies `predicate`; returns it.
    @discardableResult
    func waitForMessage(after mark: Int = 0, timeout: TimeInterval = 5, where predicate: (String) -> Bool) -> String? {
        var found: String?
        _ = eventually(timeout: timeout) {
            found = messages(after: mark).first(where: predicate)
            return found != nil || !running.process.isRunning
        }
        return found ?? messages(after: mark).first(where: predicate)
    }

    /// Waits for a message after `mark` that starts with `prefix`.
    @discardableResult
    func waitFor(_ prefix: String, after mark: Int = 0, timeout: TimeInterval = 5) -> String? {
        waitForMessage(after: mark, timeout: timeout) { $0.hasPrefix(prefix) }
    }

    /// Waits until no new message has arrived for `quiet` seconds (at most `timeout`).
    func waitUntilQuiet(_ quiet: TimeInterval = 0.3, timeout: TimeInterval = 5) {
        var last = mark
        var since = Date()
        _ = eventually(timeout: timeout) {
            let now = mark
            if now != last { last = now; since = Date() }
            return Date().timeIntervalSince(since) >= quiet
        }
    }

    /// Sends `signal` (once), waits up to `grace` seconds, then SIGKILLs; returns
    /// how it ended. Safe to call again: later calls return the first result.
    @discardableResult
    func stop(signal: Int32 = SIGTERM, grace: TimeInterval = 5) -> RunResult {
        if let result { return result }
        let p = running.process
        if p.isRunning {
            kill(p.processIdentifier, signal)
            if !eventually(timeout: grace, { !p.isRunning }) {
                Issue.record("tick watch (pid \(p.processIdentifier)) ignored signal \(signal) for \(grace) s; killing it")
                kill(p.processIdentifier, SIGKILL)
            }
        }
        let r = (try? running.wait()) ?? RunResult(status: -1, stdout: "", stderr: "", stdoutData: Data())
        result = r
        return r
    }
}

// MARK: - git helpers (added for GitMergeTests, SyncTests, ResolveTests)

extension Sandbox {
    /// Runs `git ARGS` in `dir` (default: the store) and returns the result,
    /// without recording an issue when it fails (for failures a test expects).
    @discardableResult
    func gitResult(_ args: String..., in dir: String? = nil, env: [String: String?] = [:]) throws -> RunResult {
        try run("/usr/bin/env", ["git"] + args, env: env, cwd: dir ?? store)
    }

    /// Sets a local identity (and no signing) in the repository at `dir` (default: the store).
    func configureGitIdentity(in dir: String? = nil, name: String = "Tick Test") throws {
        try git("config", "user.name", name, in: dir)
        try git("config", "user.email", "tick@example.invalid", in: dir)
        try git("config", "commit.gpgsign", "false", in: dir)
    }

    /// `git add -A && git commit -m MESSAGE` in the store.
    func commitAll(_ message: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try git("add", "-A", sourceLocation: sourceLocation)
        try git("commit", "-q", "-m", message, sourceLocation: sourceLocation)
    }

    /// The subjects of the commits reachable from HEAD, newest first.
    func commitSubjects(in dir: String? = nil) throws -> [String] {
        lines(try git("log", "--format=%s", in: dir).stdout)
    }
}

/// Two machines syncing one store through a bare repository: each clone is
/// the store of its own sandbox (own HOME, state, cache, short ids).
///
/// `a` creates the store with `seed`, commits it and pushes; then `b` clones.
/// `tick git setup` runs in each clone unless told otherwise.
final class GitMachines {
    let a: Sandbox
    let b: Sandbox
    /// The bare repository both push to and pull from.
    let remote: String

    init(setUpA: Bool = true, setUpB: Bool = true, seed: (Sandbox) throws -> Void) throws {
        a = try Sandbox()
        b = try Sandbox()
        remote = a.root + "/remote.git"
        try a.git("init", "-q", "--bare", "--initial-branch=main", remote, in: a.root)
        try a.git("clone", "-q", remote, a.store, in: a.root)
        try a.configureGitIdentity(name: "Machine A")
        try a.git("symbolic-ref", "HEAD", "refs/heads/main")
        if setUpA { try a.ok("git", "setup") }
        try seed(a)
        try a.commitAll("base")
        try a.git("push", "-q", "-u", "origin", "main")
        try b.git("clone", "-q", remote, b.store, in: b.root)
        try b.configureGitIdentity(name: "Machine B")
        if setUpB { try b.ok("git", "setup") }
    }
}

// MARK: - Fake programs on PATH

/// Stand-ins for desktop programs (notify-send, zenity, rofi, ...) in a
/// sandbox's `bin/`, to put first on PATH. Each call records its argv in a
/// file of its own (NUL-separated; the file appears complete, never
/// half-written), prints the answer set for that program and exits with its
/// status.
final class FakePrograms {
    let bin: String
    let calls: String

    init(in s: Sandbox) throws {
        bin = s.root + "/bin"
        calls = s.root + "/calls"
        for d in [bin, calls] { try FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true) }
    }

    /// PATH with the fakes first.
    func path(then rest: String = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin") -> String { bin + ":" + rest }

    /// Installs `name`; it answers nothing and exits 0 until ``answer(_:_:status:)`` says otherwise.
    func install(_ name: String) throws {
        let script = bin + "/" + name
        try Data("""
            #!/bin/sh
            f=$(mktemp "\(calls)/\(name).XXXXXX.tmp")
            for a in "$@"; do printf '%s\\0' "$a"; done > "$f"
            mv "$f" "${f%.tmp}.argv"
            [ -f "\(calls)/\(name).answer" ] && cat "\(calls)/\(name).answer"
            exit $(cat "\(calls)/\(name).status" 2>/dev/null || echo 0)

            """.utf8).write(to: URL(fileURLWithPath: script))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script)
    }

    /// What `name` prints (a line) and its exit status from now on.
    func answer(_ name: String, _ line: String, status: Int = 0) throws {
        try Data((line + "\n").utf8).write(to: URL(fileURLWithPath: calls + "/\(name).answer"))
        try Data("\(status)\n".utf8).write(to: URL(fileURLWithPath: calls + "/\(name).status"))
    }

    /// The argv (without the program name) of every call to `name`, oldest first.
    func argv(_ name: String) -> [[String]] {
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: calls)) ?? [])
            .filter { $0.hasPrefix(name + ".") && $0.hasSuffix(".argv") }
            .map { calls + "/" + $0 }
        return files.sorted { (mtimeNanoseconds($0), $0) < (mtimeNanoseconds($1), $1) }.map { path in
            (FileManager.default.contents(atPath: path) ?? Data())
                .split(separator: 0, omittingEmptySubsequences: false).dropLast()
                .map { String(decoding: $0, as: UTF8.self) }
        }
    }
}
