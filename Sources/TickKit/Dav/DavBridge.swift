import Foundation

/// What one pass of the bridge did. Ids and field names only, never titles.
public struct DavReport: Sendable, Equatable {
    /// Items tick wrote into or removed from the vdir (vdirsyncer uploads them).
    public var sent = 0
    /// Items that were added, changed, moved or removed in the vdir since the last pass.
    public var received = 0
    /// Tasks the store took a change from the vdir for.
    public var merged = 0
    /// Of those: added, deleted and moved.
    public var added = 0
    public var deleted = 0
    public var moved = 0
    /// Fields where a change on one side lost to a later change of the same field on the other.
    public var overridden: [FieldOverride] = []
    /// Items or collections that were skipped, with why (paths, never titles).
    public var problems: [String] = []

    public init() {}

    /// Adds another pass's counts.
    public mutating func add(_ other: DavReport) {
        sent += other.sent
        received += other.received
        merged += other.merged
        added += other.added
        deleted += other.deleted
        moved += other.moved
        overridden += other.overridden
        for p in other.problems where !problems.contains(p) { problems.append(p) }
    }
}

/// The two-way bridge between a store and a vdir (Docs/DAV.md): one
/// collection per bridged list (its slug; the inbox is `inbox`), one `.ics`
/// item per task, `UID` = the task's id.
///
/// The vdir as it was at the end of the last pass is kept in `base/`, so each
/// side's changes are found against it: an item whose bytes differ from its
/// base copy was changed by the other end (the phone, through vdirsyncer), a
/// task whose mapped fields differ from its base item was changed in tick.
/// Fields changed on both sides go to the later change (the item's
/// LAST-MODIFIED against the task's `changed` time). An item is only ever
/// rewritten when a mapped field of its task changed, and then only those
/// properties are replaced: every other line is kept as it was.
public struct DavBridge: Sendable {
    public let store: Store
    public let settings: DavSettings
    /// The bridge's machine-local directory (``DavSettings/resolvedPath(environment:)``).
    public let root: String
    public let now: Date
    public let timeZone: TimeZone

    /// The inbox's collection (the slug `inbox` is reserved, so no list has it).
    public static let inboxCollection = "inbox"

    public init(store: Store, settings: DavSettings, root: String, now: Date, timeZone: TimeZone) {
        self.store = store
        self.settings = settings
        self.root = root
        self.now = now
        self.timeZone = timeZone
    }

    public var vdirPath: String { root + "/vdir" }
    var basePath: String { root + "/base" }
    var sentPath: String { root + "/sent" }

    /// The collection of a store file.
    public static func collection(of kind: FileKind) -> String {
        kind.slug ?? inboxCollection
    }

    struct Item {
        var collection: String
        var name: String
        var bytes: [UInt8]
        var item: DavItem
        var task: TaskItem
    }

    /// Brings the store and the vdir in step, both ways, holding the store's lock.
    public func reconcile() throws -> DavReport {
        try store.withLock { writer in try run(writer) }
    }

    /// The bridged files of `snapshot`.
    public func bridgedFiles(_ snapshot: StoreSnapshot) -> [TaskFile] {
        snapshot.files.filter(isBridged)
    }

    /// True when the file is bridged: the inbox unless `[dav] inbox = false`,
    /// a list when `[dav] lists` names it (or is absent), never the archive.
    public func isBridged(_ file: TaskFile) -> Bool {
        switch file.kind {
        case .inbox: return settings.inbox
        case .list: return settings.bridges(listNamed: file.displayName)
        case .archive: return false
        }
    }

    private func run(_ writer: StoreWriter) throws -> DavReport {
        var report = DavReport()
        let snapshot = try store.snapshot()
        if let (kind, _) = snapshot.broken.first {
            throw DavError.io(path: store.displayPath(kind), reason: "this store file cannot be read; fix it (tick shows why) before the bridge runs")
        }
        let bridged = bridgedFiles(snapshot)
        var kinds: [String: FileKind] = [:]
        var storeTasks: [UUID: (kind: FileKind, task: TaskItem)] = [:]
        for file in bridged {
            kinds[Self.collection(of: file.kind)] = file.kind
            for task in file.tasks { storeTasks[task.id] = (file.kind, task) }
        }
        var everywhere = Set<UUID>()
        var tombstones: [UUID: Date] = [:]
        for file in snapshot.files {
            for task in file.tasks { everywhere.insert(task.id) }
            for t in file.deleted { tombstones[t.id] = max(tombstones[t.id] ?? .distantPast, t.at) }
        }

        try makeCollections(bridged)

        var unreadable = Set<String>()
        var itemProblems: [String] = []
        let phone = scan(vdirPath, problems: &itemProblems, unreadable: &unreadable)
        // Each item's problem is said once (DavNotices), a rule tick keeps unread too.
        let phonePaths = phone.mapValues { vdirPath + "/" + $0.collection + "/" + $0.name }
        report.problems += DavNotices(root: root).fresh(
            itemProblems + DavRepeats.unreadRules(phone.map { (phonePaths[$0.key] ?? "", $0.value.task) }, timeZone: timeZone))
        var ignored = Set<String>()
        var ignoredProblems: [String] = []
        let base = scan(basePath, problems: &ignoredProblems, unreadable: &ignored)
        // What tick wrote in earlier passes and vdirsyncer may not have sent yet.
        let sent = scan(sentPath, problems: &ignoredProblems, unreadable: &ignored)
        // Items written or removed by this pass ("collection/name"): their base
        // copy stays the version both ends last agreed on, so a change the
        // server makes to them before the next pass is still merged against it.
        var touched = Set<String>()
        // Items that are still as tick wrote them: the new agreed version.
        var confirmed = Set<String>()
        func write(_ bytes: [UInt8], collection: String, name: String) throws {
            try self.write(bytes, to: vdirPath, collection: collection, name: name)
            try self.write(bytes, to: sentPath, collection: collection, name: name)
            touched.insert(collection + "/" + name)
        }
        func delete(collection: String, name: String) throws {
            try AtomicFile.remove(path: vdirPath + "/" + collection + "/" + name)
            try? FileManager.default.removeItem(atPath: sentPath + "/" + collection + "/" + name)
            touched.insert(collection + "/" + name)
        }

        // The store's changes, collected per file.
        var replace: [FileKind: [UUID: TaskItem]] = [:]
        var append: [FileKind: [TaskItem]] = [:]
        var remove: [FileKind: Set<UUID>] = [:]
        var tombstone: [FileKind: Set<UUID>] = [:]
        var completedRepeating: [FileKind: [UUID]] = [:]
        var unknownCollections = Set<String>()

        let ids = Set(storeTasks.keys).union(phone.keys).union(base.keys).sorted { $0.uuidString < $1.uuidString }
        for id in ids {
            let s = storeTasks[id]
            let v = phone[id]
            var b = base[id]
            if let st = sent[id] {
                if let v, v.bytes == st.bytes, v.collection == st.collection {
                    // Unchanged since tick wrote it: that is what both ends have now.
                    b = st
                } else if v == nil {
                    // Gone from the vdir: vdirsyncer only removes an item it has
                    // uploaded as tick wrote it, so that is what the other end deleted.
                    b = st
                } else if b == nil {
                    b = st
                }
                // Superseded after this pass: the vdir's item (or its absence) is
                // merged now, and what this pass writes is the new sent copy (a
                // stale copy in another collection would shadow it).
                confirmed.insert(st.collection + "/" + st.name)
            }
            if let b, v == nil, unreadable.contains(b.collection + "/" + b.name) { continue }
            if let v, kinds[v.collection] == nil, b == nil || b?.collection != v.collection {
                // A collection that is no bridged list (made on the phone, or not in [dav] lists).
                if s == nil && !everywhere.contains(id) { unknownCollections.insert(v.collection) }
                continue
            }
            switch (s, v) {
            case let (s?, v0?):
                // A repeating item whose date the phone moved forward: a completion (DavRepeats).
                let v = b.flatMap { DavRepeats.completedOccurrence(phone: v0.task, base: $0.task, store: s.task, at: stamp(of: v0), timeZone: timeZone) }
                    .map { Item(collection: v0.collection, name: v0.name, bytes: v0.bytes, item: v0.item, task: $0) } ?? v0
                let phoneTime = stamp(of: v)
                let phoneChanged = b == nil || b?.bytes != v.bytes || b?.collection != v.collection
                if phoneChanged { report.received += 1 }
                var result = s.task
                for field in DavMapping.fields where !field.equal(v.task, result) {
                    var takePhone: Bool
                    if let b {
                        let phoneSide = !field.equal(v.task, b.task)
                        let storeSide = !field.equal(s.task, b.task)
                        if phoneSide && !storeSide {
                            takePhone = true
                        } else if !phoneSide {
                            takePhone = false
                        } else {
                            takePhone = phoneTime > field.changeTime(of: s.task, against: v.task)
                            report.overridden.append(FieldOverride(task: id, field: field.key))
                        }
                    } else {
                        takePhone = phoneTime > field.changeTime(of: s.task, against: v.task)
                    }
                    guard takePhone else { continue }
                    let keys = field.changeKeys(from: result, to: v.task)
                    if field.key == "state", v.task.state == .done, result.state != .done, result.repeatRule != nil {
                        completedRepeating[s.kind, default: []].append(id)
                    }
                    field.copy(&result, v.task)
                    for key in keys {
                        let at = TaskChange.stamp(now: phoneTime, after: s.task.changeTime(key))
                        result.changed[key] = at
                        if result.modifiedAt < at { result.modifiedAt = at }
                    }
                }
                // Which collection: a move on one side, or the later move.
                let storeCollection = Self.collection(of: s.kind)
                var targetKind = s.kind
                var target = storeCollection
                if v.collection != storeCollection {
                    let phoneMoved = b.map { $0.collection != v.collection } ?? true
                    let storeMoved = b.map { $0.collection != storeCollection } ?? true
                    let phoneWins = phoneMoved && !storeMoved || phoneMoved == storeMoved && phoneTime > s.task.listTime
                    if phoneWins, let kind = kinds[v.collection] {
                        targetKind = kind
                        target = v.collection
                        result.changed["list"] = TaskChange.stamp(now: phoneTime, after: s.task.listTime)
                        if result.modifiedAt < phoneTime { result.modifiedAt = phoneTime }
                    }
                }
                if targetKind != s.kind {
                    remove[s.kind, default: []].insert(id)
                    append[targetKind, default: []].append(result)
                    report.moved += 1
                    report.merged += 1
                    if let i = completedRepeating[s.kind]?.firstIndex(of: id) {
                        completedRepeating[s.kind]?.remove(at: i)
                        completedRepeating[targetKind, default: []].append(id)
                    }
                } else if !result.sameContent(as: s.task) {
                    replace[s.kind, default: [:]][id] = result
                    report.merged += 1
                }
                let bytes = DavMapping.patch(v.item, from: v0.task, to: result, now: now)
                if target != v.collection {
                    try write(bytes, collection: target, name: v.name)
                    try delete(collection: v.collection, name: v.name)
                    report.sent += 1
                } else if bytes != v.bytes {
                    try write(bytes, collection: target, name: v.name)
                    report.sent += 1
                }
            case let (s?, nil):
                let collection = Self.collection(of: s.kind)
                if let b {
                    report.received += 1
                    if DavMapping.same(s.task, b.task) && b.collection == collection {
                        // Deleted on the other end, unchanged here: deleted.
                        tombstone[s.kind, default: []].insert(id)
                        report.deleted += 1
                        report.merged += 1
                    } else {
                        // Changed here since: kept, and sent again (its other lines too).
                        let bytes = DavMapping.patch(b.item, from: b.task, to: s.task, now: now)
                        try write(bytes, collection: collection, name: b.name)
                        report.sent += 1
                    }
                } else if !unreadable.contains(collection + "/" + Self.fileName(for: s.task)) {
                    try write(DavMapping.newItem(for: s.task, now: now), collection: collection, name: Self.fileName(for: s.task))
                    report.sent += 1
                }
            case let (nil, v?):
                let phoneTime = stamp(of: v)
                if let b, b.bytes == v.bytes, b.collection == v.collection {
                    // Removed from the bridge in tick (deleted, archived, moved to a list not bridged).
                    try delete(collection: v.collection, name: v.name)
                    report.sent += 1
                    continue
                }
                report.received += 1
                if everywhere.contains(id) {
                    // In a file that is not bridged (or the archive): left alone.
                    continue
                }
                if let at = tombstones[id], at >= phoneTime {
                    try delete(collection: v.collection, name: v.name)
                    report.sent += 1
                    continue
                }
                guard let kind = kinds[v.collection] else { continue }
                var task = v.task
                task.modifiedAt = max(phoneTime, task.createdAt)
                task.changed = [:]
                task.needsFill = false
                append[kind, default: []].append(task)
                report.added += 1
                report.merged += 1
            case (nil, nil):
                break
            }
        }
        for c in unknownCollections.sorted() {
            report.problems.append("\(vdirPath)/\(c): not a bridged list; its items are not synced (add the list in tick, or to [dav] lists)")
        }

        // Store writes: additions and changes first, removals last (a move is
        // never a moment with the task in no file).
        var occurrences: [(FileKind, TaskItem)] = []
        let firstPass = Set(replace.keys).union(append.keys).union(completedRepeating.keys).sorted()
        for kind in firstPass {
            try writer.update(kind, create: nil, stampChanges: false) { file in
                for (i, task) in file.tasks.enumerated() {
                    if let new = replace[kind]?[task.id] { file.tasks[i] = new }
                }
                for task in append[kind] ?? [] where file.index(of: task.id) == nil {
                    file.tasks.append(task)
                    file.deleted.removeAll { $0.id == task.id }
                }
                let next = DavRepeats.insertNext(into: &file, ids: completedRepeating[kind] ?? [], paths: phonePaths, now: now,
                                                 timeZone: timeZone, existsElsewhere: { everywhere.contains($0) })
                occurrences += next.created.map { (kind, $0) }
                report.problems += next.problems
            }
        }
        let secondPass = Set(remove.keys).union(tombstone.keys).sorted()
        for kind in secondPass {
            try writer.update(kind, create: nil, stampChanges: false) { file in
                let gone = (remove[kind] ?? []).union(tombstone[kind] ?? [])
                file.tasks.removeAll { gone.contains($0.id) }
                let deleted = Array(tombstone[kind] ?? []).sorted { $0.uuidString < $1.uuidString }
                if !deleted.isEmpty { file.recordDeletion(of: deleted, at: now) }
            }
        }
        for (kind, task) in occurrences {
            try write(DavMapping.newItem(for: task, now: now), collection: Self.collection(of: kind), name: Self.fileName(for: task))
            report.sent += 1
        }

        try updateBase(collections: Set(kinds.keys), touched: touched)
        for path in confirmed where !touched.contains(path) {
            try? FileManager.default.removeItem(atPath: sentPath + "/" + path)
        }
        return report
    }

    /// Makes the vdir's collections of the bridged lists (what `vdirsyncer
    /// discover` creates on the server), without touching any item.
    public func prepareCollections() throws {
        try makeCollections(bridgedFiles(try store.snapshot()))
    }

    /// Collections: a directory per bridged file, with its display name.
    private func makeCollections(_ bridged: [TaskFile]) throws {
        for file in bridged {
            let dir = vdirPath + "/" + Self.collection(of: file.kind)
            try makeDirectory(dir)
            let name = file.kind == .inbox ? settings.inboxName : file.displayName
            try writeIfChanged(Array(name.utf8), to: dir + "/displayname")
            if let color = file.color { try writeIfChanged(Array(color.utf8), to: dir + "/color") }
        }
    }

    /// The file name of a new item: the task's id.
    static func fileName(for task: TaskItem) -> String { task.id.lowercased + ".ics" }

    /// When the other end changed an item: its LAST-MODIFIED, unless missing or
    /// in the future, then now (the time tick first saw the change).
    private func stamp(of v: Item) -> Date {
        guard let t = v.item.lastModified(timeZone: timeZone), t <= now else { return now }
        return t
    }

    /// Reads every `.ics` item of every collection under `dir`, by task id.
    /// Items that cannot be read are reported (when `report` is given) and skipped.
    private func scan(_ dir: String, problems: inout [String], unreadable: inout Set<String>) -> [UUID: Item] {
        var result: [UUID: Item] = [:]
        let fm = FileManager.default
        guard let collections = try? fm.contentsOfDirectory(atPath: dir) else { return [:] }
        for collection in collections.sorted() where !collection.hasPrefix(".") {
            guard let names = try? fm.contentsOfDirectory(atPath: dir + "/" + collection) else { continue }
            for name in names.sorted() where Self.isItemName(name) {
                let path = dir + "/" + collection + "/" + name
                do {
                    guard let data = fm.contents(atPath: path) else { throw DavError.io(path: path, reason: "cannot be read") }
                    let bytes = [UInt8](data)
                    let item = try DavItem(bytes: bytes, path: path)
                    let task = try item.task(path: path, now: now, timeZone: timeZone)
                    if let other = result[task.id] {
                        problems.append("\(path): the same UID as \(dir)/\(other.collection)/\(other.name); skipped")
                        continue
                    }
                    result[task.id] = Item(collection: collection, name: name, bytes: bytes, item: item, task: task)
                } catch {
                    unreadable.insert(collection + "/" + name)
                    problems.append((error as? DavError)?.errorDescription ?? "\(path): \(error)")
                }
            }
        }
        return result
    }

    private func write(_ bytes: [UInt8], to root: String, collection: String, name: String) throws {
        let dir = root + "/" + collection
        try makeDirectory(dir)
        try AtomicFile.write(bytes, to: dir + "/" + name, mode: nil, durable: false)
    }

    private func makeDirectory(_ dir: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        } catch {
            throw DavError.io(path: dir, reason: "cannot create the directory: \(error.localizedDescription)")
        }
    }

    private func writeIfChanged(_ bytes: [UInt8], to path: String) throws {
        if let data = FileManager.default.contents(atPath: path), [UInt8](data) == bytes { return }
        try AtomicFile.write(bytes, to: path, mode: nil, durable: false)
    }

    /// Makes `base/` a copy of the bridged collections of the vdir, except for
    /// the items this pass wrote or removed (`touched`), whose base copies stay.
    private func updateBase(collections: Set<String>, touched: Set<String>) throws {
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
                guard let data = fm.contents(atPath: from + "/" + name) else { continue }
                try writeIfChanged([UInt8](data), to: to + "/" + name)
            }
            for name in (try? fm.contentsOfDirectory(atPath: to)) ?? [] where !names.contains(name) && !touched.contains(collection + "/" + name) {
                try? fm.removeItem(atPath: to + "/" + name)
            }
        }
    }
}
