import FoundationEssentials
import Glibc

/// The bridge's machine-local record of its last runs (`<dav>/state.json`),
/// for `tick status` and for the decisions of the next sync. Never in the store.
public struct DavState: Codable, Sendable, Equatable {
    public var lastSuccess: Date?
    public var lastFailure: Date?
    /// Why the last run failed; nil after a success.
    public var lastError: String?
    /// The collections vdirsyncer last discovered (a new one needs `vdirsyncer discover`).
    public var collections: [String] = []
    /// When vdirsyncer last discovered the collections (and synced their
    /// names and colours): the next discovery is due ``DavSettings/discover`` later.
    public var discovered: Date?
    /// The vdir's display names and colours after the last `metasync`: a
    /// sync whose lists were renamed or recoloured in tick metasyncs again.
    public var metadata: String?
    /// Collections that vanished from the server (or were wiped there) after
    /// they had synced: not synced until `tick dav restore` sends tick's copy
    /// again, or `tick lists rm` confirms the removal.
    public var vanished: [String]?
    /// Collections emptied on the server together with others at once (a
    /// wiped server, not a phone deleting its last task): nothing is deleted
    /// in tick and they are not synced until `tick dav restore` or `tick dav
    /// sync --accept-empty`.
    public var emptied: [String]?
    /// Collections of lists `tick lists rm` removed: the next sync deletes
    /// their items on the server (an emptied calendar tick asked for), then
    /// detaches them (the vdir copy and vdirsyncer's status go).
    public var removed: [String]?

    public init() {}

    /// `collection` is no longer set aside (restored, back on the server, or detached).
    mutating func unsetAside(_ collection: String) {
        vanished = vanished?.filter { $0 != collection }
        emptied = emptied?.filter { $0 != collection }
        if vanished?.isEmpty == true { vanished = nil }
        if emptied?.isEmpty == true { emptied = nil }
    }

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

    /// Records that `tick lists rm` removed the list of `collection` at `at`
    /// (the hook: no network; the next `tick dav sync` acts on it). The
    /// removal is dated when it ran, not when a sync first sees it: an item
    /// another end changed after `at` survives it (Docs/DAV.md). Does nothing
    /// when the bridge was never set up in `root`.
    /// `tasks`, the ids of the list's tasks, are deleted with it at `at`
    /// wherever their items are (another end may have moved one out of the
    /// calendar before this machine's sync): ``DavBridge/readRemovedTasks(root:)``.
    public static func noteRemoved(collection: String, root: String, at: Date, tasks: [UUID] = [], deleted: [UUID: Date] = [:]) throws {
        guard FileManager.default.fileExists(atPath: root + "/vdir/" + collection) else { return }
        // Its tasks at the removal; its tombstones (which go with its file) at their own times.
        var gone = deleted
        for id in tasks { gone[id] = max(gone[id] ?? at, at) }
        try DavBridge.noteRemovedTasks(gone, root: root)
        var lists = DavBridge.readRemovedLists(root: root)
        lists[collection] = at
        try DavBridge.writeRemovedLists(lists, root: root)
        let base = root + "/base/" + collection
        if PathStat.isDirectory(base) == true {
            try AtomicFile.write(Array(Timestamp.format(at).utf8), to: base + "/" + DavBridge.removedMarker, mode: nil, durable: false)
        }
        var state = load(root: root) ?? DavState()
        var removed = state.removed ?? []
        if !removed.contains(collection) { removed.append(collection) }
        state.removed = removed
        state.unsetAside(collection)
        try state.save(root: root)
    }
}
