import FoundationEssentials
import Glibc

/// The bridge's files beside the vdir (Docs/DAV.md, "How changes are found"):
/// `base/`, the vdir as both ends last agreed on it, and `sent/`, what tick
/// wrote that vdirsyncer has not been seen to keep yet.
extension DavBridge {
    var basePath: String { root + "/base" }
    var sentPath: String { root + "/sent" }
    /// When the last pass that sent something ran (``confirmUploaded()``).
    var passPath: String { root + "/sent-pass" }

    /// Items of `base/` or `sent/` as bytes by "collection/name", unparsed.
    struct RawItems {
        var bytes: [String: [UInt8]] = [:]

        /// The items parsed, by task id (items that cannot be read are left out:
        /// they were reported when they were in the vdir). Of two copies of one
        /// UID (a move leaves the old collection's copy until vdirsyncer has
        /// synced it, and a calendar set aside is not synced), the later
        /// LAST-MODIFIED is the version last agreed on; then the first by path.
        func parsed(under dir: String, bridge: DavBridge, skipping skip: Set<String> = []) -> [UUID: Item] {
            var result: [UUID: Item] = [:]
            for (key, bytes) in bytes.sorted(by: { $0.key < $1.key }) where !skip.contains(key) {
                guard let slash = key.firstIndex(of: "/") else { continue }
                let path = dir + "/" + key
                guard let item = try? DavItem(bytes: bytes, path: path),
                      let task = try? item.task(path: path, now: bridge.now, timeZone: bridge.timeZone, fields: bridge.fields) else { continue }
                let parsed = Item(collection: String(key[..<slash]), name: String(key[key.index(after: slash)...]), bytes: bytes, item: item, task: task)
                if let earlier = result[task.id], bridge.stamp(of: earlier) >= bridge.stamp(of: parsed) { continue }
                result[task.id] = parsed
            }
            return result
        }
    }

    /// The base items: an item whose vdir copy has the same bytes is that copy
    /// (not parsed again: a sync with nothing changed parses each item once).
    struct Base {
        var items: [UUID: Item]
        var raw: [String: [UInt8]]
        subscript(id: UUID) -> Item? { items[id] }
    }

    /// Reads every `.ics` file of every collection under `dir`, unparsed.
    func rawItems(_ dir: String) -> RawItems {
        var result = RawItems()
        let fm = FileManager.default
        guard let collections = try? fm.contentsOfDirectory(atPath: dir) else { return result }
        for collection in collections where !collection.hasPrefix(".") {
            guard let names = try? fm.contentsOfDirectory(atPath: dir + "/" + collection) else { continue }
            for name in names where Self.isItemName(name) {
                guard let data = fm.contents(atPath: dir + "/" + collection + "/" + name) else { continue }
                result.bytes[collection + "/" + name] = [UInt8](data)
            }
        }
        return result
    }

    /// Forgets what both ends last agreed on in `collection` (its items in
    /// `base/` and `sent/`): the next pass merges its items with the store as
    /// a first sync does, field by field by change time. For a calendar
    /// joined again after a wipe (``DavSync/restore(_:waiting:)``, or another
    /// machine's restore found by the sync): the server's copy there is
    /// another machine's, which may be older than this machine's agreed one,
    /// not a change made after it.
    func forgetAgreed(_ collection: String) {
        let fm = FileManager.default
        for dir in [basePath, sentPath] {
            let path = dir + "/" + collection
            for name in (try? fm.contentsOfDirectory(atPath: path)) ?? [] where Self.isItemName(name) {
                try? fm.removeItem(atPath: path + "/" + name)
            }
        }
    }

    /// `base/`, with the items equal to their vdir copy taken from `phone`.
    func baseItems(matching phone: [UUID: Item]) -> Base {
        let raw = rawItems(basePath)
        var items: [UUID: Item] = [:]
        var same = Set<String>()
        for (id, v) in phone where raw.bytes[v.key] == v.bytes {
            items[id] = v
            same.insert(v.key)
        }
        for (id, item) in raw.parsed(under: basePath, bridge: self, skipping: same) where items[id] == nil {
            items[id] = item
        }
        return Base(items: items, raw: raw.bytes)
    }

    /// One UID in several items of the vdir: the copy outside its base
    /// collection (moved there) stays, else the latest LAST-MODIFIED (then the
    /// first by path); the fields the others changed since the base copy, and
    /// the kept one did not, are taken into it; the others are deleted.
    /// Returns the kept item and how many items were written or removed.
    func resolveDuplicate(_ copies: [Item], base: Item?, write: ([UInt8], Item) throws -> Void, delete: (Item) throws -> Void) throws -> (item: Item, sent: Int) {
        let ranked = copies.sorted { x, y in
            let xMoved = base.map { $0.collection != x.collection } ?? false
            let yMoved = base.map { $0.collection != y.collection } ?? false
            if xMoved != yMoved { return xMoved }
            let (tx, ty) = (stamp(of: x), stamp(of: y))
            if tx != ty { return tx > ty }
            return x.key < y.key
        }
        guard var kept = ranked.first else { preconditionFailure("resolveDuplicate needs a copy") }
        var sent = 0
        var merged = kept.task
        if let base {
            for other in ranked.dropFirst() {
                for field in DavMapping.fields(fields) where !field.equal(other.task, base.task) && field.equal(merged, base.task) {
                    field.copy(&merged, other.task)
                }
            }
        }
        if !DavMapping.same(merged, kept.task, declared: fields) {
            let latest = ranked.map { stamp(of: $0) }.max() ?? now
            let bytes = DavMapping.patch(kept.item, from: kept.task, to: merged, now: latest, declared: fields)
            let path = vdirPath + "/" + kept.key
            let item = try DavItem(bytes: bytes, path: path)
            kept = Item(collection: kept.collection, name: kept.name, bytes: bytes, item: item, task: try item.task(path: path, now: now, timeZone: timeZone, fields: fields))
            try write(bytes, kept)
            sent += 1
        }
        for other in ranked.dropFirst() {
            try delete(other)
            sent += 1
        }
        return (kept, sent)
    }

    /// When the last pass ran (`last-pass`), nil before the first.
    func readLastPass() -> Date? {
        FileManager.default.contents(atPath: root + "/last-pass").flatMap { Timestamp.parse(String(decoding: $0, as: UTF8.self)) }
    }

    func writeLastPass() throws {
        let bytes = Array(Timestamp.format(now).utf8)
        try makeDirectory(root)
        try writeIfChanged(bytes, to: root + "/last-pass")
    }

    /// The property that marks each rewrite of an item by tick.
    static let revisionProperty = "X-TICK-REVISION"

    /// `bytes` (an item tick rewrites in place) with `X-TICK-REVISION` set to
    /// a digest of the text it replaces, so the new text never equals an
    /// earlier version. vdirsyncer 0.19 keeps, after it copies an item over
    /// an older one, the older one's hash in its status: a later change back
    /// to that content (a reopen after tick's completion, or tick's value of
    /// a field written back over the phone's) would look unchanged to it and
    /// never be synced.
    static func revised(_ bytes: [UInt8], replacing previous: [UInt8]) -> [UInt8] {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in previous { hash = (hash ^ UInt64(b)) &* 0x100_0000_01b3 }
        let value = String(hash, radix: 16)
        guard var item = try? DavItem(bytes: bytes, path: "") else { return bytes }
        let line = revisionProperty + ":" + value + item.lineEnd
        let entry = DavItem.Entry(raw: line, name: revisionProperty, params: [:], value: value, path: ["VCALENDAR", "VTODO"], line: 0)
        if let i = item.entries.firstIndex(where: { $0.name == revisionProperty && $0.path == ["VCALENDAR", "VTODO"] }) {
            item.entries[i] = entry
        } else if let end = item.entries.lastIndex(where: { $0.name == "END" && $0.path == ["VCALENDAR"] && $0.value.uppercased() == "VTODO" }) {
            item.entries.insert(entry, at: end)
        }
        return item.bytes
    }

    /// Records that this pass sent items (its time), for ``confirmUploaded()``.
    func recordPass() throws {
        try makeDirectory(root)
        try AtomicFile.write(Array(Timestamp.format(now).utf8), to: passPath, mode: nil, durable: false)
    }

    /// After a sync whose upload succeeded (`state.json`'s last success is
    /// after the last pass that sent items; calendars set aside excepted) and
    /// before vdirsyncer runs again:
    /// each item still as tick wrote it is on the server, so it is the new
    /// base (a later change on the phone is then merged against it, a reopen
    /// included). An item vdirsyncer replaced (the phone changed it during the
    /// upload: its "b wins") keeps its older base. Does nothing otherwise.
    public func confirmUploaded() throws {
        let fm = FileManager.default
        guard let data = fm.contents(atPath: passPath),
              let pass = Timestamp.parse(String(decoding: data, as: UTF8.self)) else { return }
        guard let state = DavState.load(root: root), let success = state.lastSuccess, success >= pass else { return }
        // A calendar set aside (gone from the server, or wiped) did not take
        // what tick wrote into it: its base stays what both ends last agreed on.
        let aside = Set(state.vanished ?? []).union(state.emptied ?? [])
        let baseCollections = ((try? fm.contentsOfDirectory(atPath: basePath)) ?? []).filter { !$0.hasPrefix(".") }
        for (key, bytes) in rawItems(sentPath).bytes {
            guard let slash = key.firstIndex(of: "/") else { continue }
            let collection = String(key[..<slash]), name = String(key[key.index(after: slash)...])
            if aside.contains(collection) { continue }
            if let current = fm.contents(atPath: vdirPath + "/" + key), [UInt8](current) == bytes {
                try write(bytes, to: basePath, collection: collection, name: name)
                // A move tick sent: the base copy it left in the old collection is stale.
                for other in baseCollections where other != collection {
                    if fm.fileExists(atPath: basePath + "/" + other + "/" + name), !fm.fileExists(atPath: vdirPath + "/" + other + "/" + name) {
                        try? fm.removeItem(atPath: basePath + "/" + other + "/" + name)
                    }
                }
            }
            try? fm.removeItem(atPath: sentPath + "/" + key)
        }
        try? fm.removeItem(atPath: passPath)
    }

    func write(_ bytes: [UInt8], to root: String, collection: String, name: String) throws {
        let dir = root + "/" + collection
        try makeDirectory(dir)
        try AtomicFile.write(bytes, to: dir + "/" + name, mode: nil, durable: false)
    }

    func makeDirectory(_ dir: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        } catch {
            throw DavError.io(path: dir, reason: "cannot create the directory: \(ErrorText.describe(error))")
        }
    }

    func writeIfChanged(_ bytes: [UInt8], to path: String) throws {
        if let data = FileManager.default.contents(atPath: path), [UInt8](data) == bytes { return }
        try AtomicFile.write(bytes, to: path, mode: nil, durable: false)
    }

    /// Makes `base/` a copy of `collections` of the vdir, except for the items
    /// this pass wrote or removed (`touched`), whose base copies stay. Items
    /// read by this pass (`scanned`, unchanged since unless touched) are
    /// compared in memory with `base` (what base/ held); only others are read.
    func updateBase(collections: Set<String>, touched: Set<String>, scanned: [String: [UInt8]], base: [String: [UInt8]]) throws {
        let fm = FileManager.default
        try makeDirectory(basePath)
        for old in (try? fm.contentsOfDirectory(atPath: basePath)) ?? [] where !collections.contains(old) {
            try? fm.removeItem(atPath: basePath + "/" + old)
        }
        for collection in collections {
            let from = vdirPath + "/" + collection
            let to = basePath + "/" + collection
            try makeDirectory(to)
            let names = Set(((try? fm.contentsOfDirectory(atPath: from)) ?? []).filter(Self.isItemName))
            for name in names where !touched.contains(collection + "/" + name) {
                let key = collection + "/" + name
                let bytes: [UInt8]
                if let known = scanned[key] {
                    bytes = known
                } else {
                    guard let data = fm.contents(atPath: from + "/" + name) else { continue }
                    bytes = [UInt8](data)
                }
                if base[key] == bytes { continue }
                try AtomicFile.write(bytes, to: to + "/" + name, mode: nil, durable: false)
            }
            for name in (try? fm.contentsOfDirectory(atPath: to)) ?? [] where Self.isItemName(name) && !names.contains(name) && !touched.contains(collection + "/" + name) {
                try? fm.removeItem(atPath: to + "/" + name)
            }
        }
    }
}
