import FoundationEssentials
import Glibc

/// Runs vdirsyncer with tick's configuration, for the pair `tick`: never
/// waiting on a question (every `[y/N]` is answered yes: create the
/// collection), in a process group of its own that dies with tick, and with
/// what it printed read back per collection.
public struct Vdirsyncer: Sendable {
    /// The program (`[dav] vdirsyncer`).
    public let program: String
    /// The configuration (``DavSetup/configPath(environment:)``, or setup's temporary copy).
    public let configPath: String
    /// The bridge's directory: the working directory, and `status/` in it.
    public let root: String
    /// The child's whole environment.
    public let environment: [String: String]
    /// Seconds to wait before each new try after a dropped connection.
    public let backoff: [TimeInterval]
    /// Waits that long (tests pass one that returns at once).
    public let sleep: @Sendable (TimeInterval) -> Void

    public init(program: String, configPath: String, root: String, environment: [String: String],
                backoff: [TimeInterval] = [1, 3], sleep: @escaping @Sendable (TimeInterval) -> Void = { BackgroundThread.sleep($0) }) {
        self.program = program
        self.configPath = configPath
        self.root = root
        self.environment = environment
        self.backoff = backoff
        self.sleep = sleep
    }

    /// What one run printed and how it ended.
    public struct Outcome: Sendable, Equatable {
        public var status: Int32
        /// stderr then stdout.
        public var output: String
        public var succeeded: Bool { status == 0 }

        /// The collections an `error:` line names (`tick/<collection>`), with its message.
        public var failures: [String: String] {
            var out: [String: String] = [:]
            for line in output.split(separator: "\n") where line.hasPrefix("error:") {
                guard let c = Self.collection(in: String(line)) else { continue }
                out[c] = out[c].map { $0 + "\n" + line } ?? String(line)
            }
            return out
        }

        /// Items vdirsyncer sent to the server (uploaded, updated or deleted there).
        public var uploaded: Int { count(side: "tick_remote") }
        /// Items vdirsyncer brought into the vdir.
        public var downloaded: Int { count(side: "tick_local") }

        private func count(side: String) -> Int {
            output.split(separator: "\n").filter { line in
                (line.hasPrefix("Copying (") && line.contains(" to \(side)/")) || (line.hasPrefix("Deleting item ") && line.contains(" from \(side)/"))
            }.count
        }

        /// The collections discover had to create on the server.
        public var createdOnServer: [String] {
            output.split(separator: "\n").compactMap { line -> String? in
                guard line.contains("No collection \""), line.contains("found for storage tick_remote") else { return nil }
                return line.split(separator: "\"", omittingEmptySubsequences: false).dropFirst().first.map(String.init)
            }
        }

        /// The collection `tick/<name>` names in a line.
        static func collection(in line: String) -> String? {
            guard let r = line.literalRange(of: "tick/") else { return nil }
            let rest = line[r.upperBound...]
            let name = rest.prefix { $0 != ":" && $0 != " " && $0 != "`" && $0 != "\"" && $0 != "." }
            return name.isEmpty ? nil : String(name)
        }
    }

    /// Why one collection failed, as tick decides what to do about it.
    public enum Failure: Equatable, Sendable {
        /// Every item of the server's calendar is gone (the phone deleted them, or a wipe).
        case emptiedOnServer
        /// Every item of the vdir's collection is gone (tick deleted them, or the vdir was lost).
        case emptiedHere
        /// The calendar is not on the server any more.
        case vanished
        /// The connection dropped or could not be made: worth another try.
        case dropped
        /// vdirsyncer's record of the collections is out of date: rediscover.
        case needsDiscover
        case other

        public init(_ message: String) {
            if message.contains("was completely emptied") {
                self = message.contains("\"tick_remote/") ? .emptiedOnServer : .emptiedHere
            } else if Self.droppedMarkers.contains(where: { message.contains($0) }) {
                // Before the 404 test: a refused connection names the port
                // ("Connect call failed ('127.0.0.1', 40412)"), and a server
                // that is down is never a calendar that is gone.
                self = .dropped
            } else if message.contains("Not Found") {
                // vdirsyncer's NotFoundError carries the response's reason
                // (404 Not Found); no bare number is matched.
                self = .vanished
            } else if message.contains("vdirsyncer discover") {
                self = .needsDiscover
            } else {
                self = .other
            }
        }

        static let droppedMarkers = ["Server disconnected", "ServerDisconnected", "Connection reset", "Connection aborted",
                                     "Session is closed", "RawResponseMessage", "Cannot connect", "timed out", "TimeoutError",
                                     "Connection refused", "ClientOSError"]
    }

    /// Runs `vdirsyncer -c CONFIG ARGS`. Throws only when it cannot run (not
    /// installed, stopped after `timeout` seconds without output); a failed
    /// run is an outcome.
    public func run(_ args: [String], timeout: Double = 600) throws(DavError) -> Outcome {
        var request = ProcessRequest(program: program, arguments: ["-c", configPath] + args, directory: root,
                                     environment: environment, input: Array(String(repeating: "y\n", count: 64).utf8), timeout: timeout)
        request.diesWithParent = true
        // A first upload of thousands of items takes longer than any fixed
        // limit, saying each item as it goes: only silence means stuck.
        request.timeoutIsIdle = true
        let result: ProcessResult
        do {
            result = try ProcessRunner.run(request)
        } catch {
            if error.message.contains("No such file") || error.message.contains("not installed") { throw .vdirsyncerMissing }
            throw .vdirsyncerFailed(step: args.first ?? "run", message: "error: " + error.message)
        }
        if result.status == 127 { throw .vdirsyncerMissing }
        return Outcome(status: result.status, output: result.stderr + "\n" + result.output)
    }

    /// Runs `args`, again after a short wait while the connection drops
    /// (``backoff``); returns the last outcome.
    public func runRetrying(_ args: [String]) throws(DavError) -> Outcome {
        var outcome = try run(args)
        for wait in backoff {
            guard !outcome.succeeded, Self.dropped(outcome) else { break }
            sleep(wait)
            outcome = try run(args)
        }
        return outcome
    }

    /// True when every failure of `outcome` is a dropped connection (or it
    /// failed without naming a collection, for the same reason).
    static func dropped(_ outcome: Outcome) -> Bool {
        let failures = outcome.failures
        if failures.isEmpty { return Failure(outcome.output) == .dropped }
        return failures.values.allSatisfy { Failure($0) == .dropped }
    }

    /// True when vdirsyncer can be started.
    public func installed() -> Bool {
        var request = ProcessRequest(program: program, arguments: ["--version"], directory: "/", environment: environment, timeout: 60)
        request.diesWithParent = true
        guard let result = try? ProcessRunner.run(request) else { return false }
        return result.succeeded
    }

    /// The directory of vdirsyncer's status for the pair.
    var statusDirectory: String { root + "/status/tick" }

    /// True when vdirsyncer has synced `collection` before (it keeps a status for it).
    public func hasStatus(_ collection: String) -> Bool {
        FileManager.default.fileExists(atPath: statusDirectory + "/" + collection + ".items")
    }

    /// Forgets what vdirsyncer knows of `collection`: its next sync is a
    /// first one (both sides' items are joined; nothing is deleted).
    public func forget(_ collection: String) {
        for ext in [".items", ".metadata"] {
            try? FileManager.default.removeItem(atPath: statusDirectory + "/" + collection + ext)
        }
    }
}
