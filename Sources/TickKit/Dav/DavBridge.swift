import FoundationEssentials
import Glibc

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
    public let timeZone: Zone
    /// The fields declared in config.toml: each goes to the phone as an `X-TICK-FIELD` (``DavMapping/fields(_:)``).
    public let fields: UserFields

    /// The inbox's collection (the slug `inbox` is reserved, so no list has it).
    public static let inboxCollection = "inbox"

    public init(store: Store, settings: DavSettings, root: String, now: Date, timeZone: Zone, fields: UserFields = UserFields()) {
        self.fields = fields
        self.store = store
        self.settings = settings
        self.root = root
        self.now = now
        self.timeZone = timeZone
    }

    public var vdirPath: String { root + "/vdir" }

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
        /// "collection/name".
        var key: String { collection + "/" + name }
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
        var snapshot = try store.snapshot()
        if let (kind, _) = snapshot.broken.first {
            throw DavError.io(path: store.displayPath(kind), reason: "this store file cannot be read; fix it (tick shows why) before the bridge runs")
        }
        // Calendars found in the vdir that are no list yet become lists.
        var revivedLists: [String: Date] = [:]
        if try adoptCollections(snapshot, writer: writer, report: &report, revived: &revivedLists) { snapshot = try store.snapshot() }
        // Lists renamed on the other end (another machine, the phone) take the name.
        report.renamedLists = try adoptRenames(snapshot, writer: writer, report: &report)
        if !report.renamedLists.isEmpty { snapshot = try store.snapshot() }
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
        // Tasks deleted with their list (`tick lists rm` keeps no tombstone) count as deleted then.
        let removedTasks = Self.readRemovedTasks(root: root).filter { !everywhere.contains($0.key) }
        for (id, at) in removedTasks { tombstones[id] = max(tombstones[id] ?? .distantPast, at) }
        // When the last pass ran: a field the store changed after it was changed here.
        let lastPass = readLastPass()
        // Lists removed in tick (`tick lists rm`) whose collections are still in the vdir.
        let removedLists = removedCollections(snapshot)
        for c in removedLists { _ = try removalTime(c) }
        // A list that is back (`tick undo` of its removal) has no removal any more.
        for c in kinds.keys { try? FileManager.default.removeItem(atPath: basePath + "/" + c + "/" + Self.removedMarker) }
        // Tasks deleted here because they vanished from the server (when is unknown).
        var deletedElsewhere = readDeletedElsewhere()
        // Their last versions here (a copy that comes back is merged with it).
        var deletedVersions = readDeletedVersions()
        // Of those, the ones that came back in this pass: their tombstones go.
        var revived = Set<UUID>()

        try makeCollections(bridged)

        var unreadable = Set<String>()
        var itemProblems: [String] = []
        var duplicates: [Item] = []
        var phone = scan(vdirPath, problems: &itemProblems, unreadable: &unreadable, duplicates: &duplicates)
        // Each item's problem is said once (DavNotices), a rule tick keeps unread too.
        let phonePaths = phone.mapValues { vdirPath + "/" + $0.collection + "/" + $0.name }
        report.problems += DavNotices(root: root).fresh(
            itemProblems + DavRepeats.unreadRules(phone.map { (phonePaths[$0.key] ?? "", $0.value.task) }, timeZone: timeZone))
        let base = baseItems(matching: phone)
        // What tick wrote in earlier passes and vdirsyncer may not have sent yet.
        let sent = rawItems(sentPath).parsed(under: sentPath, bridge: self)
        // Items written or removed by this pass ("collection/name"): their base
        // copy stays the version both ends last agreed on, so a change the
        // server makes to them before the next pass is still merged against it.
        var touched = Set<String>()
        // Items that are still as tick wrote them: the new agreed version.
        var confirmed = Set<String>()
        // Collections this pass removed items from.
        var removedFrom = Set<String>()
        func write(_ bytes: [UInt8], collection: String, name: String) throws {
            try self.write(bytes, to: vdirPath, collection: collection, name: name)
            try self.write(bytes, to: sentPath, collection: collection, name: name)
            touched.insert(collection + "/" + name)
        }
        func delete(collection: String, name: String) throws {
            try AtomicFile.remove(path: vdirPath + "/" + collection + "/" + name)
            try? FileManager.default.removeItem(atPath: sentPath + "/" + collection + "/" + name)
            touched.insert(collection + "/" + name)
            removedFrom.insert(collection)
        }

        // One UID in two places (a move on both sides, or a move racing a
        // delete that vdirsyncer undid): one copy stays, the others go.
        for (id, copies) in Dictionary(grouping: duplicates + duplicates.compactMap { phone[$0.task.id] }, by: { $0.task.id }) {
            var unique: [String: Item] = [:]
            for c in copies { unique[c.key] = c }
            let all = unique.values.sorted { $0.key < $1.key }
            let resolved = try resolveDuplicate(all, base: base[id], write: { bytes, item in
                try write(bytes, collection: item.collection, name: item.name)
            }, delete: { item in
                try delete(collection: item.collection, name: item.name)
            })
            phone[id] = resolved.item
            report.sent += resolved.sent
        }

        // The store's changes, collected per file.
        var replace: [FileKind: [UUID: TaskItem]] = [:]
        var append: [FileKind: [TaskItem]] = [:]
        var remove: [FileKind: Set<UUID>] = [:]
        var tombstone: [FileKind: Set<UUID>] = [:]
        var completedRepeating: [FileKind: [UUID]] = [:]
        var unknownCollections = Set<String>()

        let ids = Set(storeTasks.keys).union(phone.keys).union(base.items.keys).sorted { $0.uuidString < $1.uuidString }
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
            if let v, removedLists.contains(v.collection), s == nil {
                // The list was removed in tick (and no other end changed an
                // item there since: that brings the list back, adoptCollections):
                // its items go with it. A task the store holds elsewhere (one
                // another end moved there) is merged below, field by field,
                // and goes back where the store has it.
                try delete(collection: v.collection, name: v.name)
                report.sent += 1
                continue
            }
            if let v, kinds[v.collection] == nil, !removedLists.contains(v.collection), b == nil || b?.collection != v.collection {
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
                let merged = mergeFields(store: s.task, item: v, base: b, lastPass: lastPass)
                var result = merged.task
                report.overridden += merged.overridden.map { FieldOverride(task: id, field: $0) }
                if merged.completesRepeating {
                    completedRepeating[s.kind, default: []].append(id)
                }
                // Which collection: a move on one side, or the later move.
                let storeCollection = Self.collection(of: s.kind)
                var targetKind = s.kind
                var target = storeCollection
                if v.collection != storeCollection {
                    // A move into a list removed here afterwards (and back because
                    // of a later change there) was undone by the removal.
                    let movedBeforeRemoval = revivedLists[v.collection].map { phoneTime <= $0 } ?? false
                    let phoneMoved = b.map { $0.collection != v.collection } ?? true
                    let storeMoved = b.map { $0.collection != storeCollection } ?? true
                    let phoneWins = !movedBeforeRemoval && (phoneMoved && !storeMoved || phoneMoved == storeMoved && phoneTime > s.task.listTime)
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
                let bytes = DavMapping.patch(v.item, from: v0.task, to: result, now: lastModified(result), declared: fields, touch: target != v.collection)
                if target != v.collection {
                    try write(bytes, collection: target, name: v.name)
                    try delete(collection: v.collection, name: v.name)
                    report.sent += 1
                } else if bytes != v.bytes {
                    try write(Self.revised(bytes, replacing: v.bytes), collection: target, name: v.name)
                    report.sent += 1
                }
            case let (s?, nil):
                let collection = Self.collection(of: s.kind)
                if let b {
                    // Deleted on the other end (the phone or another machine).
                    // tick cannot know when. A task changed here since the last
                    // pass that saw it may have been changed after the delete:
                    // it is kept and sent again (the other end weighs its
                    // LAST-MODIFIED against its delete's real time), as
                    // Syncthing keeps a conflicting version. One unchanged here goes.
                    report.received += 1
                    if changedHere(s.task, kind: s.kind, since: b, lastPass: lastPass) {
                        // Touched: a change (even one back to the same value) is newer than the copy that vanished.
                        let bytes = DavMapping.patch(b.item, from: b.task, to: s.task, now: lastModified(s.task), declared: fields, touch: true)
                        try write(bytes, collection: collection, name: b.collection == collection ? b.name : Self.fileName(for: s.task))
                        report.kept.append(id)
                        report.sent += 1
                    } else {
                        tombstone[s.kind, default: []].insert(id)
                        deletedElsewhere.insert(id)
                        deletedVersions[id] = s.task
                        report.deleted += 1
                        report.merged += 1
                    }
                } else if !unreadable.contains(collection + "/" + Self.fileName(for: s.task)) {
                    try write(DavMapping.newItem(for: s.task, now: lastModified(s.task), declared: fields), collection: collection, name: Self.fileName(for: s.task))
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
                if let b, removedLists.contains(b.collection), phoneTime <= (try removalTime(b.collection)) {
                    // Its list was removed in tick after the other end moved it
                    // out (a later move brings it into the list it went to).
                    try delete(collection: v.collection, name: v.name)
                    report.sent += 1
                    continue
                }
                var kept: TaskItem?
                if deletedElsewhere.remove(id) != nil {
                    // Deleted here because it vanished from the server (a
                    // delete of unknown time), and now back: another end kept
                    // it (changed after the delete, or restored a wiped
                    // calendar with its copy) or it was a move in flight. Its
                    // LAST-MODIFIED says nothing about the delete: a copy
                    // another machine kept may be older than the version that
                    // vanished and still hold a change made after the delete.
                    // It is merged with that version field by field, by time.
                    revived.insert(id)
                    kept = deletedVersions.removeValue(forKey: id)
                } else if let at = tombstones[id], at >= phoneTime {
                    try delete(collection: v.collection, name: v.name)
                    report.sent += 1
                    continue
                }
                guard let kind = kinds[v.collection] else { continue }
                var task: TaskItem
                if let kept {
                    task = mergeFields(store: kept, item: v, base: nil, lastPass: lastPass).task
                    // A field of this machine's won: the other end gets the merged task.
                    if DavMapping.fields(fields).contains(where: { !$0.equal(task, v.task) }) {
                        let bytes = DavMapping.patch(v.item, from: v.task, to: task, now: lastModified(task), declared: fields, touch: true)
                        try write(Self.revised(bytes, replacing: v.bytes), collection: v.collection, name: v.name)
                        report.sent += 1
                    }
                } else {
                    task = v.task
                    task.modifiedAt = max(phoneTime, task.createdAt)
                    task.changed = [:]
                    task.needsFill = false
                }
                append[kind, default: []].append(task)
                report.added += 1
                report.merged += 1
            case (nil, nil):
                break
            }
        }
        for c in unknownCollections.sorted() where !removedLists.contains(c) {
            report.problems.append("\(vdirPath)/\(c): not a bridged list; its items are not synced (add the list in tick, or to [dav] lists)")
        }

        // Store writes: additions and changes first, removals last (a move is
        // never a moment with the task in no file).
        var occurrences: [(FileKind, TaskItem)] = []
        let firstPass = Set(replace.keys).union(append.keys).union(completedRepeating.keys).sorted()
        for kind in firstPass {
            try writer.update(kind, create: createInbox(kind), stampChanges: false) { file in
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
        // A task taken back (or added back by a later change on the other end)
        // leaves no tombstone in any file: a store merge would delete it again.
        let back = revived.union(append.values.joined().map(\.id))
        let mourned = snapshot.files.filter { f in f.deleted.contains { back.contains($0.id) } }.map(\.kind)
        let secondPass = Set(remove.keys).union(tombstone.keys).union(mourned).sorted()
        for kind in secondPass {
            try writer.update(kind, create: createInbox(kind), stampChanges: false) { file in
                let gone = (remove[kind] ?? []).union(tombstone[kind] ?? [])
                file.tasks.removeAll { gone.contains($0.id) }
                file.deleted.removeAll { back.contains($0.id) }
                let deleted = Array(tombstone[kind] ?? []).sorted { $0.uuidString < $1.uuidString }
                if !deleted.isEmpty { file.recordDeletion(of: deleted, at: now) }
            }
        }
        for (kind, task) in occurrences {
            try write(DavMapping.newItem(for: task, now: now, declared: fields), collection: Self.collection(of: kind), name: Self.fileName(for: task))
            report.sent += 1
        }

        var scanned: [String: [UInt8]] = [:]
        for item in phone.values { scanned[item.key] = item.bytes }
        for item in duplicates { scanned[item.key] = item.bytes }
        try updateBase(collections: Set(kinds.keys).union(removedLists), touched: touched, scanned: scanned, base: base.raw)
        for path in confirmed where !touched.contains(path) {
            try? FileManager.default.removeItem(atPath: sentPath + "/" + path)
        }
        report.removedLists = removedLists.sorted()
        report.emptied = removedFrom.filter { !hasItems(collection: $0) }.sorted()
        if report.sent > 0 { try recordPass() }
        // Forgotten once the store holds no trace of them (a merge brought them back, or the tombstone expired).
        // A list's task is forgotten once no item of it is left (its delete went up).
        // Kept while an item of it may still arrive (a move in flight, a copy
        // another machine kept and sent again): 30 days.
        try Self.writeRemovedTasks(removedTasks.filter { now.timeIntervalSince($0.value) < Self.removalMemory }, root: root)
        try Self.writeRemovedLists(Self.readRemovedLists(root: root).filter { c, at in kinds[c] == nil && now.timeIntervalSince(at) < Self.removalMemory }, root: root)
        let deletedNow = Set(tombstone.values.joined())
        let stillDeleted = deletedElsewhere.filter { tombstones[$0] != nil || deletedNow.contains($0) }
        try writeDeletedElsewhere(stillDeleted)
        try writeDeletedVersions(deletedVersions.filter { stillDeleted.contains($0.key) })
        try writeLastPass()
        return report
    }

    /// The LAST-MODIFIED tick writes: when the task last changed (not when the
    /// pass ran), so another machine weighs its own changes against the time
    /// this one's were made, not the time they were sent (Docs/DAV.md).
    func lastModified(_ task: TaskItem) -> Date {
        min(now, task.modifiedAt)
    }

    /// Makes the inbox file when a fresh store has none yet.
    private func createInbox(_ kind: FileKind) -> (() -> TaskFile)? {
        guard kind == .inbox else { return nil }
        let now = self.now
        return { TaskFile.empty(.inbox, name: nil, now: now) }
    }

    /// The file name of a new item: the task's id.
    static func fileName(for task: TaskItem) -> String { task.id.lowercased + ".ics" }

    /// When the other end changed an item: its LAST-MODIFIED, unless missing or
    /// in the future, then now (the time tick first saw the change).
    func stamp(of v: Item) -> Date {
        guard let t = v.item.lastModified(timeZone: timeZone), t <= now else { return now }
        return t
    }

    /// Reads every `.ics` item of every collection under `dir`, by task id.
    /// Items that cannot be read are reported (when `report` is given) and skipped.
    /// A second item with a UID already found goes to `duplicates`.
    private func scan(_ dir: String, problems: inout [String], unreadable: inout Set<String>, duplicates: inout [Item]) -> [UUID: Item] {
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
                    let task = try item.task(path: path, now: now, timeZone: timeZone, fields: fields)
                    if result[task.id] != nil {
                        duplicates.append(Item(collection: collection, name: name, bytes: bytes, item: item, task: task))
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
}
