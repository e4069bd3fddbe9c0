import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - Real Syncthing on loopback

/// Two (or more) real Syncthing instances that talk only to each other over
/// 127.0.0.1, for end-to-end tests of tick's stores under Syncthing.
///
/// Every instance has its own home (keys, config, database) under its
/// sandbox's root, a GUI/REST API on `127.0.0.1:<free port>` with a fixed API
/// key, and a sync listener on `tcp://127.0.0.1:<free port>`. Global and local
/// discovery, relays, NAT traversal (so STUN), usage reporting, crash
/// reporting and upgrades are off, so nothing leaves the machine. Devices are
/// introduced by id with explicit addresses. Everything after start-up goes
/// through the REST API (with curl, `--noproxy '*'`). The processes are killed
/// in ``stop()`` (also on deinit), so a failing test leaks none.
enum Syncthing {
    static let apiKey = "tick-e2e-syncthing-api-key"

    /// Why the real-Syncthing tests cannot run here, or nil when they can.
    static let missing: String? = {
        if executable("syncthing") == nil {
            return "syncthing is not installed (apt-get install syncthing); the real-Syncthing test needs it"
        }
        if executable("curl") == nil {
            return "curl is not installed (apt-get install curl); the real-Syncthing test talks to Syncthing's REST API with it"
        }
        return nil
    }()

    static var available: Bool { missing == nil }

    /// The skip comment for `.enabled(if: Syncthing.available, Syncthing.skipComment)`.
    static var skipComment: Comment { Comment(rawValue: missing ?? "syncthing is available") }

    /// The full path of `name` on PATH.
    static func executable(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let p = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: p) { return p }
        }
        return nil
    }

    /// The ports ``freePorts(_:)`` handed out in this test process.
    private static let handedOut = HandedOutPorts()

    final class HandedOutPorts: @unchecked Sendable {
        private let lock = NSLock()
        private var ports: Set<Int> = []
        /// True when `port` was not handed out before (it is now).
        func claim(_ port: Int) -> Bool {
            lock.lock()
            defer { lock.unlock() }
            return ports.insert(port).inserted
        }
    }

    /// `count` distinct TCP ports on 127.0.0.1 that were free a moment ago
    /// (bound to port 0 and released together, so they differ from each
    /// other), none handed out before in this process: tests run in
    /// parallel, and a port is free between its release here and the
    /// server's bind (a second or so for Radicale), so two tests could draw
    /// the same one; CI once saw a test's "stopped" server answered by
    /// another test's Radicale on its port.
    static func freePorts(_ count: Int) throws -> [Int] {
        try draw(count) { 0 }
    }

    /// A TCP port of `range` on 127.0.0.1 that was free a moment ago and
    /// was not handed out before in this process (as ``freePorts(_:)``):
    /// for a test about what a port's digits must not be mistaken for
    /// (vdirsyncer's "Connect call failed ('127.0.0.1', 40412)" is no 404).
    static func freePort(in range: ClosedRange<Int>) throws -> Int {
        var candidates = range.shuffled()
        return try draw(1) {
            guard let next = candidates.popLast() else { throw HarnessError("no unused port in \(range) on 127.0.0.1") }
            return next
        }[0]
    }

    /// Binds sockets to the ports `next` names (0: the kernel picks) until
    /// `count` bound ports were not handed out before; releases them together.
    private static func draw(_ count: Int, next: () throws -> Int) throws -> [Int] {
        var fds: [Int32] = []
        defer { for fd in fds { close(fd) } }
        var ports: [Int] = []
        while ports.count < count {
            guard fds.count < count + 1000 else { throw HarnessError("no unused port found on 127.0.0.1") }
            #if canImport(Glibc)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            #else
            let fd = socket(AF_INET, SOCK_STREAM, 0)
            #endif
            guard fd >= 0 else { throw HarnessError("socket() failed: errno \(errno)") }
            fds.append(fd)
            var addr = sockaddr_in()
            addr.sin_family = sa_family_t(AF_INET)
            let wanted = try next()
            addr.sin_port = in_port_t(UInt16(wanted).bigEndian)
            addr.sin_addr.s_addr = inet_addr("127.0.0.1")
            let bound = withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            if bound != 0, wanted != 0, errno == EADDRINUSE { continue }
            guard bound == 0 else { throw HarnessError("bind(127.0.0.1:\(wanted)) failed: errno \(errno)") }
            var len = socklen_t(MemoryLayout<sockaddr_in>.size)
            let named = withUnsafeMutablePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
            }
            guard named == 0 else { throw HarnessError("getsockname failed: errno \(errno)") }
            // A port handed out before stays bound here until the end, so the next bind draws another.
            let port = Int(UInt16(bigEndian: addr.sin_port))
            if handedOut.claim(port) { ports.append(port) }
        }
        return ports
    }
}

/// One running Syncthing instance that syncs a folder of one sandbox.
final class SyncthingInstance {
    let name: String
    let sandbox: Sandbox
    /// Syncthing's home (config, keys, database); never inside the store.
    let home: String
    let logPath: String
    private(set) var deviceID = ""
    private(set) var guiPort = 0
    private(set) var listenPort = 0
    private var process: Process?

    var listenAddress: String { "tcp://127.0.0.1:\(listenPort)" }
    var baseURL: String { "http://127.0.0.1:\(guiPort)" }
    var isRunning: Bool { process?.isRunning ?? false }

    init(name: String, sandbox: Sandbox) {
        self.name = name
        self.sandbox = sandbox
        home = sandbox.root + "/syncthing-" + name
        logPath = sandbox.root + "/syncthing-" + name + ".log"
    }

    deinit { stop() }

    /// The environment of every syncthing process: no proxy variables, no
    /// restart monitor, no upgrades, no default folder.
    private var environment: [String: String] {
        [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin",
            "HOME": sandbox.home,
            "LANG": "C.UTF-8",
            "STNORESTART": "1",
            "STNOUPGRADE": "1",
            "STNODEFAULTFOLDER": "1",
        ]
    }

    /// Runs a short-lived syncthing command and returns its stdout (exit 0 required).
    private func syncthing(_ args: [String]) throws -> String {
        let r = try sandbox.run("/usr/bin/env", ["syncthing"] + args, env: environment)
        guard r.status == 0 else { throw HarnessError("syncthing \(args.joined(separator: " ")) failed: \(r)") }
        return r.stdout
    }

    /// Generates keys and a config with everything that could reach the
    /// network turned off, then starts `syncthing serve` and waits until its
    /// API answers and its listener is up. Retries with new ports when one
    /// was taken in the meantime.
    func start(timeout: TimeInterval = 30) throws {
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        _ = try syncthing(["generate", "--home", home, "--no-default-folder"])
        deviceID = try syncthing(["serve", "--home", home, "--device-id"]).trimmingCharacters(in: .whitespacesAndNewlines)
        guard deviceID.count > 50 else { throw HarnessError("syncthing printed no device id: \(deviceID)") }
        let generated = (try? String(contentsOfFile: home + "/config.xml", encoding: .utf8)) ?? ""
        // Keep the config version this syncthing writes, so it neither migrates nor refuses the file.
        let version = generated.firstMatch(of: /<configuration version="(\d+)"/).map { String($0.1) } ?? "36"
        var lastError = ""
        for _ in 0..<3 {
            let ports = try Syncthing.freePorts(2)
            (guiPort, listenPort) = (ports[0], ports[1])
            try writeConfig(version: version)
            try launch()
            let started = eventually(timeout: timeout) {
                guard let p = process, p.isRunning else { return true }
                if listenerIsUp() { return true }
                usleep(100_000)
                return false
            }
            if started, isRunning { return }
            lastError = started ? "syncthing exited" : "syncthing did not come up within \(timeout) s"
            lastError += "\n--- \(logPath) ---\n" + log
            stop()
            // A port taken between choosing it and syncthing binding it: try other ports.
            guard log.contains("address already in use") else { break }
        }
        throw HarnessError("cannot start syncthing \(name): \(lastError)")
    }

    private func writeConfig(version: String) throws {
        let config = """
            <configuration version="\(version)">
                <device id="\(deviceID)" name="\(name)"></device>
                <gui enabled="true" tls="false" debugging="false">
                    <address>127.0.0.1:\(guiPort)</address>
                    <apikey>\(Syncthing.apiKey)</apikey>
                    <theme>default</theme>
                </gui>
                <options>
                    <listenAddress>\(listenAddress)</listenAddress>
                    <globalAnnounceEnabled>false</globalAnnounceEnabled>
                    <localAnnounceEnabled>false</localAnnounceEnabled>
                    <relaysEnabled>false</relaysEnabled>
                    <natEnabled>false</natEnabled>
                    <stunKeepaliveStartS>0</stunKeepaliveStartS>
                    <announceLANAddresses>false</announceLANAddresses>
                    <urAccepted>-1</urAccepted>
                    <crashReportingEnabled>false</crashReportingEnabled>
                    <autoUpgradeIntervalH>0</autoUpgradeIntervalH>
                    <startBrowser>false</startBrowser>
                    <reconnectionIntervalS>1</reconnectionIntervalS>
                    <restartOnWakeup>false</restartOnWakeup>
                    <setLowPriority>false</setLowPriority>
                </options>
            </configuration>

            """
        try Data(config.utf8).write(to: URL(fileURLWithPath: home + "/config.xml"))
    }

    private func launch() throws {
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        guard let out = FileHandle(forWritingAtPath: logPath) else { throw HarnessError("cannot open \(logPath)") }
        out.seekToEndOfFile()
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Syncthing.executable("syncthing") ?? "/usr/bin/syncthing")
        p.arguments = ["serve", "--home", home, "--no-browser", "--no-restart", "--no-upgrade",
                       "--no-default-folder", "--logflags=3"]
        p.environment = environment
        p.currentDirectoryURL = URL(fileURLWithPath: sandbox.root)
        p.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        p.standardOutput = out
        p.standardError = out
        try p.run()
        try? out.close()
        process = p
    }

    /// True when the API answers and the sync listener reports no error.
    private func listenerIsUp() -> Bool {
        guard let status = try? getObject("/rest/system/status", quiet: true),
              let listeners = status["connectionServiceStatus"] as? [String: Any],
              let mine = listeners[listenAddress] as? [String: Any] else { return false }
        return mine["error"] is NSNull || mine["error"] == nil
    }

    /// Asks syncthing to shut down, then kills it if it has not exited within
    /// `grace` seconds. Safe to call more than once.
    func stop(grace: TimeInterval = 5) {
        guard let p = process else { return }
        process = nil
        if p.isRunning {
            _ = try? request("POST", "/rest/system/shutdown", quiet: true, maxTime: 2)
            if !eventually(timeout: grace, { !p.isRunning }) {
                kill(p.processIdentifier, SIGKILL)
                _ = eventually(timeout: 5) { !p.isRunning }
            }
        }
        if !p.isRunning { p.waitUntilExit() }
    }

    /// The log so far.
    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// The last `n` lines of the log.
    func logTail(_ n: Int = 40) -> String { lines(log).suffix(n).joined(separator: "\n") }

    // MARK: REST API

    /// One REST call against 127.0.0.1 (curl, no proxy); returns the body and
    /// requires a 2xx status.
    @discardableResult
    func request(_ method: String, _ path: String, body: Any? = nil, quiet: Bool = false,
                 maxTime: Int = 60) throws -> Data {
        var args = ["curl", "-sS", "--noproxy", "*", "--max-time", "\(maxTime)", "-X", method,
                    "-H", "X-API-Key: \(Syncthing.apiKey)", "-w", "\n%{http_code}"]
        var stdin: String?
        if let body {
            args += ["-H", "Content-Type: application/json", "--data-binary", "@-"]
            stdin = String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
        }
        args.append(baseURL + path)
        let r = try sandbox.run("/usr/bin/env", args, stdin: stdin)
        var out = r.stdout
        let code = out.split(separator: "\n").last.map(String.init) ?? ""
        if let nl = out.lastIndex(of: "\n") { out = String(out[..<nl]) } else { out = "" }
        guard r.status == 0, code.hasPrefix("2") else {
            throw HarnessError("syncthing \(name): \(method) \(path) -> curl exit \(r.status), HTTP \(code): \(out) \(r.stderr)"
                               + (quiet ? "" : "\n--- log ---\n" + logTail()))
        }
        return Data(out.utf8)
    }

    func getObject(_ path: String, quiet: Bool = false) throws -> [String: Any] {
        let data = try request("GET", path, quiet: quiet)
        guard let o = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw HarnessError("syncthing \(name): GET \(path) is not a JSON object: \(String(decoding: data, as: UTF8.self))")
        }
        return o
    }

    private static func query(_ s: String) -> String {
        s.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? s
    }

    /// Adds (or replaces) a remote device with an explicit address.
    func addDevice(_ other: SyncthingInstance) throws {
        try request("POST", "/rest/config/devices", body: [
            "deviceID": other.deviceID, "name": other.name,
            "addresses": [other.listenAddress], "autoAcceptFolders": false,
        ] as [String: Any])
    }

    /// Adds (or replaces) a send-receive folder at `path`, shared with `devices`,
    /// with the watcher on (short delay), frequent rescans and quick pull retries.
    func addFolder(id: String, path: String, sharedWith devices: [SyncthingInstance]) throws {
        try request("POST", "/rest/config/folders", body: [
            "id": id, "label": id, "path": path, "type": "sendreceive",
            "rescanIntervalS": 5, "fsWatcherEnabled": true, "fsWatcherDelayS": 1,
            "pullerPauseS": 1,
            "devices": ([self] + devices).map { ["deviceID": $0.deviceID] },
        ] as [String: Any])
    }

    /// Pauses syncing with another device (the connection is closed).
    func pause(_ other: SyncthingInstance) throws {
        try request("POST", "/rest/system/pause?device=" + Self.query(other.deviceID))
    }

    func resume(_ other: SyncthingInstance) throws {
        try request("POST", "/rest/system/resume?device=" + Self.query(other.deviceID))
    }

    /// Rescans a folder now; returns when the scan is done.
    func scan(folder: String) throws {
        try request("POST", "/rest/db/scan?folder=" + Self.query(folder))
    }

    func isConnected(to other: SyncthingInstance) throws -> Bool {
        let c = try getObject("/rest/system/connections")
        let conns = c["connections"] as? [String: Any]
        return (conns?[other.deviceID] as? [String: Any])?["connected"] as? Bool ?? false
    }

    func folderStatus(_ folder: String) throws -> [String: Any] {
        try getObject("/rest/db/status?folder=" + Self.query(folder))
    }

    /// How complete `other` is for `folder`, as far as this instance knows.
    func completion(_ folder: String, of other: SyncthingInstance) throws -> [String: Any] {
        try getObject("/rest/db/completion?folder=" + Self.query(folder) + "&device=" + Self.query(other.deviceID))
    }

    /// Nil when this instance has nothing to pull, is idle, and knows that
    /// `other` has everything too; else why not.
    func notInSync(_ folder: String, with other: SyncthingInstance) throws -> String? {
        guard try isConnected(to: other) else { return "\(name) is not connected to \(other.name)" }
        let st = try folderStatus(folder)
        let state = st.string("state") ?? "?"
        let need = st.int("needTotalItems") ?? -1
        let errors = st.int("pullErrors") ?? 0
        guard state == "idle", need == 0, errors == 0 else {
            return "\(name): folder \(state), needs \(need) items, \(errors) pull errors"
        }
        let c = try completion(folder, of: other)
        let pct = (c["completion"] as? NSNumber)?.doubleValue ?? -1
        let needItems = c.int("needItems") ?? -1
        let needDeletes = c.int("needDeletes") ?? -1
        guard pct == 100, needItems == 0, needDeletes == 0 else {
            return "\(name) sees \(other.name) at \(pct)% (needs \(needItems) items, \(needDeletes) deletes)"
        }
        return nil
    }
}

/// Two machines, `a` and `b`, each a ``Sandbox`` (own store, HOME, state and
/// cache, so own short ids) whose store is one Syncthing folder shared
/// between two real Syncthing instances.
///
/// ```swift
/// let pair = try SyncthingPair()
/// try pair.a.add("Buy milk")
/// try pair.waitUntilInSync("after adding")
/// ```
final class SyncthingPair {
    static let folderID = "tick-store"

    let a: Sandbox
    let b: Sandbox
    let sa: SyncthingInstance
    let sb: SyncthingInstance

    /// Starts both instances, introduces them, shares the stores (each with a
    /// `.stignore` for tick's temporary files) and waits until they are
    /// connected and in sync.
    init(timeout: TimeInterval = 60) throws {
        a = try Sandbox()
        b = try Sandbox()
        sa = SyncthingInstance(name: "machine-a", sandbox: a)
        sb = SyncthingInstance(name: "machine-b", sandbox: b)
        for s in [a, b] {
            try FileManager.default.createDirectory(atPath: s.store, withIntermediateDirectories: true)
            // FORMAT.md: tick's temporary files are `.<file>.tick-<random>.tmp`.
            try s.write(".stignore", ".*.tick-*.tmp\n")
        }
        try sa.start()
        try sb.start()
        try sa.addDevice(sb)
        try sb.addDevice(sa)
        try sa.addFolder(id: Self.folderID, path: a.store, sharedWith: [sb])
        try sb.addFolder(id: Self.folderID, path: b.store, sharedWith: [sa])
        try waitUntilConnected(true, timeout: timeout)
        try waitUntilInSync("at start", timeout: timeout)
    }

    deinit { stop() }

    /// Stops both instances (idempotent).
    func stop() {
        sa.stop()
        sb.stop()
    }

    /// Pauses the devices on both sides; returns once neither is connected.
    func pause(timeout: TimeInterval = 30) throws {
        try sa.pause(sb)
        try sb.pause(sa)
        try waitUntilConnected(false, timeout: timeout)
    }

    /// Rescans both folders, so that changes made while paused are indexed
    /// before the devices meet again (without waiting for the watcher), then
    /// resumes the devices on both sides; returns once they are connected again.
    func resume(timeout: TimeInterval = 60) throws {
        try sa.scan(folder: Self.folderID)
        try sb.scan(folder: Self.folderID)
        try sa.resume(sb)
        try sb.resume(sa)
        try waitUntilConnected(true, timeout: timeout)
    }

    func waitUntilConnected(_ connected: Bool, timeout: TimeInterval = 60) throws {
        var last = ""
        let ok = try eventually(timeout: timeout) {
            let (ab, ba) = (try sa.isConnected(to: sb), try sb.isConnected(to: sa))
            last = "a->b connected: \(ab), b->a connected: \(ba)"
            if connected ? (ab && ba) : (!ab && !ba) { return true }
            usleep(100_000)
            return false
        }
        guard ok else {
            throw HarnessError("the two Syncthing instances did not \(connected ? "connect" : "disconnect") within \(timeout) s (\(last))\n" + diagnostics())
        }
    }

    /// True for Syncthing's own files, which it never syncs: `.stfolder/`,
    /// `.stignore`, `.stversions/`, and its temporary files
    /// (`.syncthing.NAME.tmp`, which it keeps after a pull it had to retry).
    static func isSyncthingFile(_ rel: String) -> Bool {
        let name = (rel as NSString).lastPathComponent
        return rel == ".stignore" || rel.hasPrefix(".stfolder/") || rel.hasPrefix(".stversions/")
            || (name.hasPrefix(".syncthing.") && name.hasSuffix(".tmp"))
    }

    /// The synced contents of a store: every file but Syncthing's own,
    /// relative path -> bytes.
    static func tree(_ s: Sandbox) -> [String: Data] {
        var out: [String: Data] = [:]
        for rel in s.storeFiles() where !isSyncthingFile(rel) {
            out[rel] = FileManager.default.contents(atPath: s.path(rel)) ?? Data()
        }
        return out
    }

    /// Syncthing conflict copies in a store (relative paths, sorted).
    static func conflictCopies(_ s: Sandbox) -> [String] {
        s.storeFiles().filter { $0.contains(".sync-conflict-") }
    }

    /// Where the two stores differ, or nil.
    func treeDifference() -> String? {
        let (ta, tb) = (Self.tree(a), Self.tree(b))
        var diffs: [String] = []
        for k in Set(ta.keys).union(tb.keys).sorted() {
            switch (ta[k], tb[k]) {
            case (nil, _): diffs.append("only on b: \(k)")
            case (_, nil): diffs.append("only on a: \(k)")
            case let (x?, y?) where x != y: diffs.append("differs: \(k)")
            default: break
            }
        }
        return diffs.isEmpty ? nil : diffs.joined(separator: ", ")
    }

    /// Rescans both folders (so every local change is indexed), then polls
    /// until both instances are connected, idle, need nothing, see the other
    /// at 100 %, and the two stores hold the same files byte for byte — twice
    /// in a row. Throws with the last reason and both logs after `timeout`.
    func waitUntilInSync(_ what: String, timeout: TimeInterval = 60) throws {
        try sa.scan(folder: Self.folderID)
        try sb.scan(folder: Self.folderID)
        var reason = ""
        var streak = 0
        let ok = try eventually(timeout: timeout) {
            if let r = try sa.notInSync(Self.folderID, with: sb) ?? sb.notInSync(Self.folderID, with: sa) ?? treeDifference() {
                reason = r
                streak = 0
                usleep(100_000)
                return false
            }
            streak += 1
            if streak < 2 { usleep(100_000) }
            return streak >= 2
        }
        guard ok else {
            throw HarnessError("Syncthing did not converge \(what) within \(timeout) s: \(reason)\n" + diagnostics())
        }
    }

    /// Both logs' tails and both stores' file lists, for failure messages.
    func diagnostics() -> String {
        var out = ""
        for (s, i) in [(a, sa), (b, sb)] {
            out += "--- \(i.name) store: \(s.storeFiles().joined(separator: ", "))\n"
            out += "--- \(i.name) log (\(i.logPath)), last lines:\n\(i.logTail())\n"
        }
        return out
    }
}
