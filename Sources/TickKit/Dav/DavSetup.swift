import FoundationEssentials
import Glibc

/// `tick dav setup`: the vdirsyncer configuration tick writes.
public enum DavSetup {
    /// Where the vdirsyncer config lives: next to config.toml, mode 0600.
    public static func configPath(environment: [String: String]) -> String {
        PathString.deletingLastComponent(TickConfig.path(environment: environment)) + "/vdirsyncer.conf"
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

extension DavSync {
    /// `tick dav setup`: writes `text` as the vdirsyncer config only once it
    /// works. It goes to a temporary file next to the config first; the
    /// bridge's collections are made and discovered (created on the server)
    /// with it, and only then is it moved into place: a failed setup leaves
    /// the previous config (or none) as it was. Returns the collections and
    /// the pass's report (the items ready to send).
    public func setUp(config text: String) throws -> (collections: [String], report: DavReport) {
        let directory = PathString.deletingLastComponent(configPath)
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw DavError.io(path: directory, reason: "cannot create the directory: \(ErrorText.describe(error))")
        }
        let lock = try DavLock(root: root)
        defer { lock.release() }
        let temporary = configPath + ".new"
        try AtomicFile.write(Array(text.utf8), to: temporary, mode: 0o600)
        defer { try? FileManager.default.removeItem(atPath: temporary) }
        let trial = DavSync(bridge: bridge, configPath: temporary, environment: environment, clock: clock, backoff: backoff)
        guard trial.vdirsyncerInstalled() else { throw DavError.vdirsyncerMissing }
        try ensureInbox()
        let report = try bridge.reconcile()
        let collections = try bridgedCollections()
        var state = DavState.load(root: root) ?? DavState()
        let recreated = try trial.discover(collections: collections)
        state.collections = collections
        state.discovered = clock()
        state.metadata = trial.metadataFingerprint()
        if !recreated.isEmpty { state.vanished = Array(Set(state.vanished ?? []).union(recreated)).sorted() }
        do {
            try FileManager.default.moveItem(atPath: temporary, toPath: configPath)
        } catch {
            // An existing config: replace it in one step.
            guard rename(temporary, configPath) == 0 else {
                throw DavError.io(path: configPath, reason: "cannot write the configuration: \(String(cString: strerror(errno)))")
            }
        }
        try state.save(root: root)
        return (collections, report)
    }
}
