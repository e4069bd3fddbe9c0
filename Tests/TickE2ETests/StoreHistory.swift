import ArgumentParser
import Foundation
import Testing
import TickKit
@testable import tick

/// One machine of a simulated history: a sandbox (store, state, cache) and
/// tick's own operations on it, in process, each at the instant it is given
/// (`TICK_NOW`), journaled and stamped as the CLI and `tick ui` do it.
final class SimMachine {
    let sandbox: Sandbox
    let number: Int
    /// Whether `tick watch` runs here (it stamps a hand edit the moment it
    /// sees it and takes note of what a sync delivered).
    var watches = true
    /// The CLI's global options as none are given (parsed once: it is costly in a debug build).
    let global: GlobalOptions
    /// Per file: the bytes last agreed with another machine (Syncthing's
    /// idea of "my version"), or, in git mode, the bytes of this clone's HEAD.
    var known: [String: [UInt8]] = [:]
    /// Syncthing's view of each file: its version vector (device → counter)
    /// and the bytes that version has (nil: deleted).
    var versions: [String: (vector: [Int: Int], bytes: [UInt8]?)] = [:]
    /// A hand edit here that the watcher has not seen yet (Syncthing may copy it away first).
    var unseen = false
    /// Per file: the hand edits in it that no tick here has seen yet (task
    /// id, the ledger's `what`, the time it has there now). A later save of the same file moves its
    /// mtime, which is what tick stamps them at when it sees them (MERGE.md
    /// §17), so the ledger moves them to that save's time.
    var unstamped: [String: [(id: String, what: String, at: Date)]] = [:]

    /// Syncthing's scan: a file whose bytes differ from its version's was
    /// changed here, and gets a new version of this device.
    func scan() {
        let current = files().filter { !$0.key.contains(".sync-conflict-") }
        for path in Set(current.keys).union(versions.keys) where versions[path]?.bytes != current[path] {
            var vector = versions[path]?.vector ?? [:]
            vector[number, default: 0] += 1
            versions[path] = (vector, current[path])
        }
    }

    /// Where the machines' sandboxes are made: a memory file system when there
    /// is one (`/dev/shm`). A history writes and syncs hundreds of files, each
    /// write flushed to disk, and waiting for the disk took five sixths of a
    /// history's time on a busy machine; what tick does is the same on either.
    static let directory: String? = {
        var info = stat()
        guard stat("/dev/shm", &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR, access("/dev/shm", W_OK) == 0 else { return nil }
        return "/dev/shm"
    }()

    init(number: Int, global: GlobalOptions) throws {
        self.number = number
        self.global = global
        sandbox = try Sandbox(under: Self.directory)
        try FileManager.default.createDirectory(atPath: sandbox.store + "/lists", withIntermediateDirectories: true)
    }

    /// A `tick ui`-style writer whose every write happens at `now`.
    func writer(_ now: Date) throws -> UIWriter {
        let process = try ProcessEnvironment(variables: sandbox.environment(["TICK_NOW": Timestamp.format(now)]),
                                             currentDirectory: sandbox.root, realNow: now)
        return UIWriter(base: try Context(global, process: process))
    }

    /// Runs `body` as the command `command` at `now`; a refused write is part of
    /// a random history (a list that is not empty, a task changed meanwhile).
    @discardableResult
    func run(_ command: String, at now: Date, _ body: (Context) throws -> Void) throws -> UIWriteResult {
        let before = files(), times = mtimes()
        defer { touch(since: before, times: times, at: now) }
        return try writer(now).write(command) { context, _ in try body(context) }
    }

    /// Performs a `tick ui` effect at `now`.
    @discardableResult
    func perform(_ effect: UIEffect, at now: Date) throws -> UIWriteResult? {
        let before = files(), times = mtimes()
        defer { touch(since: before, times: times, at: now) }
        return try writer(now).perform(effect, suspend: {}, resume: {})
    }

    /// Every store file by relative path (conflict copies included).
    func files() -> [String: [UInt8]] {
        var out: [String: [UInt8]] = [:]
        let fm = FileManager.default
        for dir in ["", "lists", "archive"] {
            let path = dir.isEmpty ? sandbox.store : sandbox.store + "/" + dir
            for name in (try? fm.contentsOfDirectory(atPath: path)) ?? [] where name.hasSuffix(".json") {
                let relative = dir.isEmpty ? name : dir + "/" + name
                if let data = fm.contents(atPath: sandbox.store + "/" + relative) { out[relative] = [UInt8](data) }
            }
        }
        return out
    }

    /// Every store file's modification time, by relative path.
    func mtimes() -> [String: Date] {
        var out: [String: Date] = [:]
        for path in files().keys { out[path] = mtime(path) }
        return out
    }

    /// Gives the files that changed since `before` the modification time
    /// `now`: tick wrote them at the history's time, not the wall clock's.
    /// A file tick rewrote with the same bytes (its mtime moved) too: with
    /// the wall clock's mtime, Syncthing would carry that time to the other
    /// machines (the fan-out keeps mtimes), later than any of the history's.
    func touch(since before: [String: [UInt8]], times: [String: Date], at now: Date) {
        for (path, bytes) in files() where before[path] != bytes || times[path] != mtime(path) {
            unstamped[path] = nil   // tick wrote it: it stamped what it held first
            try? FileManager.default.setAttributes([.modificationDate: now], ofItemAtPath: sandbox.store + "/" + path)
        }
    }

    /// Writes a file as another program does (Syncthing, git): not through tick.
    func put(_ relative: String, _ bytes: [UInt8]?, mtime: Date) throws {
        let path = sandbox.store + "/" + relative
        guard let bytes else {
            try? FileManager.default.removeItem(atPath: path)
            return
        }
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let temp = path + ".tmp-sim"
        try Data(bytes).write(to: URL(fileURLWithPath: temp))
        try FileManager.default.setAttributes([.modificationDate: mtime], ofItemAtPath: temp)
        guard rename(temp, path) == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    /// What a running `tick watch` does the moment a file changes under it
    /// (and `tick sync` before it commits): hand edits get their change times.
    func stampHandEdits(at now: Date) throws {
        unstamped = [:]   // the watcher sees every file
        let before = files(), times = mtimes()
        defer { touch(since: before, times: times, at: now) }
        let store = Store(location: try writer(now).base.store.location, clock: { now })
        _ = try store.withLock { writer in writer.stampAllHandEdits() }
    }

    /// `tick watch` starting on a store it has not written: what is there is
    /// what it has seen (hand edits are what changes after).
    func startWatching(at now: Date) throws {
        let store = Store(location: try writer(now).base.store.location, clock: { now })
        try store.withLock { writer in writer.markAllSeen() }
    }

    /// A store file's modification time.
    func mtime(_ relative: String) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: sandbox.store + "/" + relative))?[.modificationDate] as? Date
    }

    /// tick's written copy of a store file here (what it last wrote or saw).
    func written(_ relative: String, at now: Date) -> [UInt8]? {
        guard let location = try? writer(now).base.store.location,
              let data = FileManager.default.contents(atPath: location.stateDirectory + "/written/" + relative) else { return nil }
        return [UInt8](data)
    }

    /// `tick resolve` of one file and one conflict copy in a scratch store
    /// that has this machine's written copies of the file (and their times): what
    /// this machine would write for that pair. Returns the file's bytes.
    func resolveInScratch(path: String, winner: [UInt8], wonAt: Date, copy: String, loser: [UInt8], lostAt: Date, now: Date) throws -> [UInt8]? {
        let real = try writer(now).base.store.location
        let dir = sandbox.root + "/scratch-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let location = StoreLocation(root: dir + "/store", stateDirectory: dir + "/state", cacheDirectory: dir + "/cache")
        let fm = FileManager.default
        for sub in ["store/lists", "store/archive", "state/written/lists", "state/written/archive", "cache"] {
            try fm.createDirectory(atPath: dir + "/" + sub, withIntermediateDirectories: true)
        }
        for suffix in ["", "~1", "~2"] {
            let source = real.stateDirectory + "/written/" + path + suffix
            guard let data = fm.contents(atPath: source) else { continue }
            let target = location.stateDirectory + "/written/" + path + suffix
            try data.write(to: URL(fileURLWithPath: target))
            if let at = (try? fm.attributesOfItem(atPath: source))?[.modificationDate] as? Date {
                try fm.setAttributes([.modificationDate: at], ofItemAtPath: target)
            }
        }
        for (relative, bytes, at) in [(path, winner, wonAt), (copy, loser, lostAt)] {
            let target = location.root + "/" + relative
            try Data(bytes).write(to: URL(fileURLWithPath: target))
            try fm.setAttributes([.modificationDate: at], ofItemAtPath: target)
        }
        var resolver = ConflictResolver(store: Store(location: location, clock: { now }), dryRun: false)
        _ = try resolver.run()
        return fm.contents(atPath: location.root + "/" + path).map { [UInt8]($0) }
    }

    /// `tick resolve` (as the watcher and git's post-merge hook run it).
    func resolve(at now: Date) throws {
        // Not journaled (a merge is not undoable), as `tick resolve` and the watcher run it.
        let before = files(), times = mtimes()
        defer { touch(since: before, times: times, at: now) }
        var resolver = ConflictResolver(store: Store(location: try writer(now).base.store.location, clock: { now }), dryRun: false)
        do {
            _ = try resolver.run()
        } catch {
            throw SimFailure("machine \(number): tick resolve failed: \(error)")
        }
    }
}

/// A failure of the simulation itself (not a finding).
struct SimFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The histories' random source: SyncHistoryTests' SplitMix, with the picks they need.
typealias SimRandom = SplitMix

extension SplitMix {
    /// StoreHistoryTests' seeding (kept, so that a seed replays the history it always named).
    init(history seed: UInt64) { self.init(state: seed &* 0x2545_F491_4F6C_DD1D &+ 1) }

    mutating func chance(_ percent: Int) -> Bool { int(100) < percent }
    mutating func pick<T>(_ items: [T]) -> T { items[int(items.count)] }
}

/// A store's tasks as plain JSON, by id: where each is and its keys.
struct SimView {
    struct Task {
        var file: String
        /// The list file's id (placement survives a rename), "inbox" or "archive".
        var place: String
        var keys: [String: String]
        var tags: Set<String>
        /// Its `changed` and `modifiedAt`, for traces.
        var stamps = ""
    }
    var tasks: [String: Task] = [:]
    /// The ids in file (path) order, then each file's order.
    var order: [String] = []
    /// Ids in more than one file.
    var duplicates: [String] = []
    /// List id → name.
    var lists: [String: String] = [:]
    /// Files that are not JSON objects with a task array.
    var unreadable: [String] = []

    /// The fields a change is recorded for: everything but bookkeeping.
    static let bookkeeping: Set<String> = ["id", "changed", "modifiedAt", "tags", "createdAt", "archivedFrom"]

    init(_ files: [String: [UInt8]]) {
        for (path, bytes) in files.sorted(by: { $0.key < $1.key }) where !path.contains(".sync-conflict-") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
                  let tasks = object["tasks"] as? [[String: Any]] else {
                unreadable.append(path)
                continue
            }
            let place = path == "inbox.json" ? "inbox" : path.hasPrefix("archive/") ? "archive" : (object["id"] as? String ?? path)
            if path.hasPrefix("lists/") { lists[place] = object["name"] as? String }
            for t in tasks {
                guard let id = t["id"] as? String else { continue }
                if self.tasks[id] != nil { duplicates.append(id) } else { order.append(id) }
                var keys: [String: String] = [:]
                for (k, v) in t where !Self.bookkeeping.contains(k) { keys[k] = Self.canonical(v) }
                // The state is one field with its completion time (Docs/MERGE.md §16).
                if let done = keys.removeValue(forKey: "completedAt") { keys["state"] = (keys["state"] ?? "open") + " " + done }
                let stamps = Self.canonical(t["changed"] ?? [:]) + " m=" + ((t["modifiedAt"] as? String) ?? "")
                self.tasks[id] = Task(file: path, place: place, keys: keys, tags: Set(t["tags"] as? [String] ?? []), stamps: stamps)
            }
        }
    }

    static func canonical(_ value: Any) -> String {
        if let s = value as? String { return "\"" + s + "\"" }
        guard JSONSerialization.isValidJSONObject([value]),
              let data = try? JSONSerialization.data(withJSONObject: [value], options: [.sortedKeys]) else { return "\(value)" }
        return String(decoding: data, as: UTF8.self)
    }
}

/// What users did, field by field: the oracle's memory. Each entry is the
/// value an operation gave a key of a task, and when.
struct SimLedger {
    struct Entry { var value: String?; var at: Date; var what: String }
    /// task id → key ("title", "+tag", "@place", "exists") → entries in time order.
    var entries: [String: [String: [Entry]]] = [:]
    /// Every task id ever seen.
    var known: Set<String> = []
    /// Next occurrences, by id: the id of the repeating task whose completion made each.
    var occurrences: [String: String] = [:]
    /// The same ids in the order they were first seen: random picks go by it,
    /// so a seed replays the same history although tick makes random ids.
    var sequence: [String] = []

    /// Records what an operation at `at` changed on one machine.
    mutating func record(before: SimView, after: SimView, at: Date, what: String, recreates: Bool) {
        for id in after.order {
            guard let task = after.tasks[id] else { continue }
            let old = before.tasks[id]
            if old == nil, recreates, known.contains(id) {
                // A completion creating an occurrence that existed once: not a user's new value.
                // But when the occurrence was withdrawn since (a start, a reopen or an undo of
                // the completion elsewhere), completing the series again makes it afresh
                // (MERGE.md §17a, RECURRENCE.md): it exists again, its fields as they were
                // (fan-out seeds 342, 666: the oracle took it for a task that came back).
                if let last = latest(id, "exists"), last.value == nil, last.at < at {
                    add(id, "exists", "yes", at, what)
                }
                continue
            }
            if old == nil { add(id, "exists", "yes", at, what) }
            if old == nil, recreates, let series = before.tasks.first(where: { TaskFile.nextOccurrenceID(after: UUID(uuidString: $0.key) ?? UUID()).uuidString.lowercased() == id.lowercased() })?.key {
                occurrences[id] = series
            }
            if old == nil, what.hasPrefix("undo"), known.contains(id) {
                // An undone delete brings the task back; its fields keep their own times
                // (what other machines changed meanwhile stays), as rm did not change them.
                continue
            }
            for key in Set(task.keys.keys).union(old?.keys.keys ?? [:].keys) where task.keys[key] != old?.keys[key] {
                add(id, key, task.keys[key], at, what)
            }
            for tag in task.tags.symmetricDifference(old?.tags ?? []) {
                add(id, "+" + tag, task.tags.contains(tag) ? "yes" : nil, at, what)
            }
            if old?.place != task.place { add(id, "@place", task.place, at, what) }
            if known.insert(id).inserted { sequence.append(id) }
        }
        for id in before.tasks.keys where after.tasks[id] == nil {
            add(id, "exists", nil, at, what)
        }
    }

    /// Moves what `what` recorded for task `id` at `from` to `at`: a hand
    /// edit no tick saw before a later save of its file, whose mtime it is
    /// stamped at.
    mutating func retime(_ id: String, what: String, from: Date, to at: Date) {
        guard let keys = entries[id] else { return }
        for (key, list) in keys {
            entries[id]?[key] = list.map { $0.what == what && $0.at == from ? Entry(value: $0.value, at: at, what: $0.what) : $0 }
        }
    }

    private mutating func add(_ id: String, _ key: String, _ value: String?, _ at: Date, _ what: String) {
        entries[id, default: [:]][key, default: []].append(Entry(value: value, at: at, what: what))
    }

    /// The latest entry of a key; of two at the same time, the one recorded
    /// later (a hand edit moved to a later save's time, ``retime(_:what:from:to:)``,
    /// is older than that save's own change).
    func latest(_ id: String, _ key: String) -> Entry? {
        entries[id]?[key]?.enumerated().max { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }?.element
    }
}
