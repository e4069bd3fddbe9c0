import Foundation

/// The bridge's machine-local record of its last runs (`<dav>/state.json`),
/// for `tick status`. Never in the store.
public struct DavState: Codable, Sendable, Equatable {
    public var lastSuccess: Date?
    public var lastFailure: Date?
    /// Why the last run failed; nil after a success.
    public var lastError: String?
    /// The collections vdirsyncer last discovered (a new one needs `vdirsyncer discover`).
    public var collections: [String] = []

    public init() {}

    static func path(root: String) -> String { root + "/state.json" }

    public static func load(root: String) -> DavState? {
        guard let data = FileManager.default.contents(atPath: path(root: root)) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try? decoder.decode(DavState.self, from: data)
    }

    public func save(root: String) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        guard let data = try? encoder.encode(self) else { return }
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try AtomicFile.write([UInt8](data), to: Self.path(root: root), mode: 0o600, durable: false)
    }
}

/// `tick dav setup`: the vdirsyncer configuration tick writes.
public enum DavSetup {
    /// Where the vdirsyncer config lives: next to config.toml, mode 0600.
    public static func configPath(environment: [String: String]) -> String {
        (TickConfig.path(environment: environment) as NSString).deletingLastPathComponent + "/vdirsyncer.conf"
    }

    /// Accepts https URLs, and http only for loopback hosts.
    public static func checkURL(_ text: String) throws(DavError) -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased(), !host.isEmpty else {
            throw .badURL(text)
        }
        if scheme == "https" { return url }
        let loopback = ["127.0.0.1", "localhost", "::1", "[::1]"]
        guard scheme == "http", loopback.contains(host) else { throw .badURL(text) }
        return url
    }

    /// Splits a password command as a shell would split simple words
    /// (single and double quotes, backslash), without running a shell.
    public static func splitCommand(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character?
        var escaping = false
        for c in text {
            if escaping { current.append(c); escaping = false; inWord = true; continue }
            if let q = quote {
                if c == q { quote = nil } else if c == "\\" && q == "\"" { escaping = true } else { current.append(c) }
                continue
            }
            switch c {
            case "\\": escaping = true
            case "'", "\"": quote = c; inWord = true
            case " ", "\t", "\n":
                if inWord { words.append(current); current = ""; inWord = false }
            default: current.append(c); inWord = true
            }
        }
        if inWord { words.append(current) }
        return words
    }

    /// A JSON string literal (vdirsyncer's config values are JSON).
    static func json(_ s: String) -> String {
        var out: [UInt8] = []
        JSONWriter.writeString(s, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// The vdirsyncer config: one pair, the vdir (`a`, tick's collections)
    /// against the CalDAV account (`b`). The password is fetched by a command
    /// at each run and never written here.
    public static func config(url: String, user: String, passwordCommand: [String]?, root: String) -> String {
        var lines = [
            "# Written by `tick dav setup`; run it again to change it (Docs/DAV.md).",
            "[general]",
            "status_path = \(json(root + "/status/"))",
            "",
            "[pair tick]",
            "a = \"tick_local\"",
            "b = \"tick_remote\"",
            "collections = [\"from a\", \"from b\"]",
            "# What both sides changed since the last sync: the server's copy comes down",
            "# and tick merges it field by field with the store, then sends the result.",
            "conflict_resolution = \"b wins\"",
            "metadata = [\"displayname\", \"color\"]",
            "",
            "[storage tick_local]",
            "type = \"filesystem\"",
            "path = \(json(root + "/vdir/"))",
            "fileext = \".ics\"",
            "",
            "[storage tick_remote]",
            "type = \"caldav\"",
            "url = \(json(url))",
            "username = \(json(user))",
            "item_types = [\"VTODO\"]",
        ]
        if let command = passwordCommand, !command.isEmpty {
            lines.append("password.fetch = [\"command\", \(command.map(json).joined(separator: ", "))]")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// `tick dav sync`: `vdirsyncer sync` (the server's changes come down), one
/// pass of the bridge (merged both ways), and, when that changed items,
/// `vdirsyncer sync` again (they go up).
public struct DavSync: Sendable {
    public let bridge: DavBridge
    /// The vdirsyncer config (``DavSetup/configPath(environment:)``).
    public let configPath: String
    /// The environment vdirsyncer runs with (the tools' variables of the
    /// command's: the password command needs `HOME`, `PATH`, the D-Bus session).
    public let environment: [String: String]
    /// The clock for the second pass (after the network).
    public let clock: @Sendable () -> Date

    public init(bridge: DavBridge, configPath: String, environment: [String: String], clock: @escaping @Sendable () -> Date) {
        self.bridge = bridge
        self.configPath = configPath
        self.environment = ChildEnvironment.forTools(from: environment)
        self.clock = clock
    }

    var root: String { bridge.root }

    /// Runs vdirsyncer with the config; `input` answers its questions.
    func vdirsyncer(_ args: [String], step: String, input: String? = nil) throws(DavError) {
        let program = bridge.settings.vdirsyncer
        let request = ProcessRequest(program: program, arguments: ["-c", configPath] + args, directory: root,
                                     environment: environment, input: input.map { Array($0.utf8) }, timeout: 600)
        let result: ProcessResult
        do {
            result = try ProcessRunner.run(request)
        } catch {
            if error.message.contains("No such file") || error.message.contains("not found") { throw .vdirsyncerMissing }
            throw .vdirsyncerFailed(step: step, message: error.message)
        }
        if result.status == 127 { throw .vdirsyncerMissing }
        guard result.succeeded else {
            let text = (result.stderr + "\n" + result.output).split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            throw .vdirsyncerFailed(step: step, message: text.suffix(8).joined(separator: "\n"))
        }
    }

    /// True when vdirsyncer can be started.
    public func vdirsyncerInstalled() -> Bool {
        let request = ProcessRequest(program: bridge.settings.vdirsyncer, arguments: ["--version"], directory: "/", environment: environment, timeout: 60)
        guard let result = try? ProcessRunner.run(request) else { return false }
        return result.succeeded
    }

    /// Discovers the collections (creating the bridged ones on the server) and
    /// sends their display names.
    public func discover(collections: [String]) throws(DavError) {
        try vdirsyncer(["discover", "tick"], step: "discover", input: String(repeating: "y\n", count: max(8, collections.count * 2)))
        try vdirsyncer(["metasync", "tick"], step: "metasync")
    }

    /// The whole sync. Records the outcome in `state.json` either way.
    public func run() throws -> DavReport {
        guard FileManager.default.fileExists(atPath: configPath) else { throw DavError.notSetUp(configPath: configPath) }
        var state = DavState.load(root: root) ?? DavState()
        do {
            guard vdirsyncerInstalled() else { throw DavError.vdirsyncerMissing }
            // The server's changes come down first, into a vdir tick has not
            // changed since its last pass: vdirsyncer has no conflict to resolve
            // (its "b wins" would keep the hash of tick's copy in its status, and
            // a merge equal to that copy would then never be uploaded).
            try bridge.prepareCollections()
            let collections = try bridge.store.snapshot().files.filter(bridge.isBridged).map { DavBridge.collection(of: $0.kind) }.sorted()
            if collections != state.collections {
                try discover(collections: collections)
                state.collections = collections
            } else {
                try vdirsyncer(["metasync", "tick"], step: "metasync")
            }
            try vdirsyncer(["sync", "tick"], step: "sync")
            let report = try DavBridge(store: bridge.store, settings: bridge.settings, root: root, now: clock(), timeZone: bridge.timeZone).reconcile()
            if report.sent > 0 { try vdirsyncer(["sync", "tick"], step: "sync") }
            state.lastSuccess = clock()
            state.lastError = nil
            try? state.save(root: root)
            return report
        } catch {
            state.lastFailure = clock()
            state.lastError = (error as? LocalizedError)?.errorDescription ?? "\(error)"
            try? state.save(root: root)
            throw error
        }
    }
}
