import FoundationEssentials
import Glibc

/// The bridge's collections (Docs/DAV.md, "Every task calendar"): one per
/// bridged list, matched by the collection's path, which is the list's slug
/// (fixed when the list is made; the inbox's is `inbox`), never by display name.
extension DavBridge {
    /// Before a sync: confirms what the last run uploaded (``confirmUploaded()``)
    /// and makes the vdir's collections of the bridged lists (what `vdirsyncer
    /// discover` creates on the server), without touching any item.
    public func prepareCollections() throws {
        try confirmUploaded()
        try makeCollections(bridgedFiles(try store.snapshot()))
    }

    /// Collections: a directory per bridged file, with its display name
    /// (a list's is left as it is while a rename made on the server side
    /// waits for the pass to take it: ``serverRenames()``).
    func makeCollections(_ bridged: [TaskFile]) throws {
        let pending = serverRenames()
        for file in bridged {
            let c = Self.collection(of: file.kind)
            let dir = vdirPath + "/" + c
            try makeDirectory(dir)
            let name = file.kind == .inbox ? settings.inboxName : file.displayName
            if file.kind == .inbox || pending[c] == nil { try writeIfChanged(Array(name.utf8), to: dir + "/displayname") }
            if let color = file.color { try writeIfChanged(Array(color.utf8), to: dir + "/color") }
        }
    }

    /// The collection directories of the vdir (hidden names left out).
    func vdirCollections() -> [String] {
        let fm = FileManager.default
        let names = (try? fm.contentsOfDirectory(atPath: vdirPath)) ?? []
        return names.filter { name in
            return !name.hasPrefix(".") && PathStat.isDirectory(vdirPath + "/" + name) == true
        }.sorted()
    }

    /// Collections of lists removed in tick: bridged once (their base copy is
    /// still there), no list file has their slug now, and they are still in
    /// the vdir. Their items are deleted; they are never taken for new calendars.
    /// So is a calendar of a list removed here recently (``readRemovedLists(root:)``)
    /// that came back to the vdir after it was detached.
    func removedCollections(_ snapshot: StoreSnapshot) -> Set<String> {
        let fm = FileManager.default
        let known = Set(snapshot.files.map { Self.collection(of: $0.kind) })
        let based = Set(((try? fm.contentsOfDirectory(atPath: basePath)) ?? []).filter { !$0.hasPrefix(".") })
        let recorded = Self.readRemovedLists(root: root)
        return Set(vdirCollections().filter { (based.contains($0) || recorded[$0] != nil) && !known.contains($0) && $0 != Self.inboxCollection })
    }

    /// The file in `base/<collection>/` that says when the bridge first saw its list removed.
    static let removedMarker = ".removed"

    /// What a removed list's calendar is called once `tick lists rm` emptied
    /// it on the server ("Work (removed in tick)"): the phone shows why it is
    /// empty, and another tick machine that finds it emptied together with
    /// other calendars knows a removal, not a wipe, emptied it.
    static let removalMark = " (removed in tick)"

    /// True when `name` is a removed list's calendar's (``removalMark``).
    static func isRemovalMarked(_ name: String) -> Bool { name.hasSuffix(removalMark) }

    /// `name` without ``removalMark``.
    static func unmarked(_ name: String) -> String {
        isRemovalMarked(name) ? String(name.dropLast(removalMark.count)) : name
    }

    /// When the bridge first saw the list of `collection` removed (recorded then).
    func removalTime(_ collection: String) throws -> Date {
        let path = basePath + "/" + collection + "/" + Self.removedMarker
        if let data = FileManager.default.contents(atPath: path), let at = Timestamp.parse(String(decoding: data, as: UTF8.self)) { return at }
        let at = Self.readRemovedLists(root: root)[collection] ?? now
        try makeDirectory(basePath + "/" + collection)
        try AtomicFile.write(Array(Timestamp.format(at).utf8), to: path, mode: nil, durable: false)
        return at
    }

    /// True when an item of a removed list's collection was added or changed
    /// by another end after the removal was seen (its LAST-MODIFIED is later).
    func changedSinceRemoval(_ collection: String) -> Bool {
        let path = basePath + "/" + collection + "/" + Self.removedMarker
        guard let at = FileManager.default.contents(atPath: path).flatMap({ Timestamp.parse(String(decoding: $0, as: UTF8.self)) })
                ?? Self.readRemovedLists(root: root)[collection] else { return false }
        let fm = FileManager.default
        for name in (try? fm.contentsOfDirectory(atPath: vdirPath + "/" + collection)) ?? [] where Self.isItemName(name) {
            guard let bytes = fm.contents(atPath: vdirPath + "/" + collection + "/" + name).map({ [UInt8]($0) }) else { continue }
            if let base = fm.contents(atPath: basePath + "/" + collection + "/" + name), [UInt8](base) == bytes { continue }
            guard let item = try? DavItem(bytes: bytes, path: name), let lm = item.lastModified(timeZone: timeZone) else { continue }
            if lm > at { return true }
        }
        return false
    }

    /// Calendars of the vdir that are no list yet (made on the phone, or by
    /// another machine) become lists, made as `tick lists add` makes them but
    /// with the collection's path as the slug and its display name as the name
    /// (made unique when another list has it). The inbox's collection makes the
    /// inbox file when there is none. Not: a calendar with no task yet, a
    /// collection whose list was removed in tick, a path that cannot be a
    /// slug, a name `[dav] lists` leaves out.
    /// Returns true when it made a file.
    /// `revived`: lists that come back (another end changed an item there
    /// after `tick lists rm`), with when they were removed: what the other end
    /// did there before that stays removed.
    func adoptCollections(_ snapshot: StoreSnapshot, writer: StoreWriter, report: inout DavReport, revived: inout [String: Date]) throws -> Bool {
        let fm = FileManager.default
        let existing = Set(snapshot.files.map { Self.collection(of: $0.kind) })
        var removed = removedCollections(snapshot)
        for collection in removed.sorted() where changedSinceRemoval(collection) {
            // Another end put an item there after the list was removed here: the list comes back.
            revived[collection] = try removalTime(collection)
            removed.remove(collection)
            try? fm.removeItem(atPath: basePath + "/" + collection + "/" + Self.removedMarker)
        }
        let slugs = Set(((try? fm.contentsOfDirectory(atPath: store.location.root + "/lists")) ?? []).compactMap(Store.slug(ofListFileNamed:)))
        var lists = snapshot.listInfos
        var made = false
        for collection in vdirCollections() where !existing.contains(collection) && !removed.contains(collection) {
            if collection == Self.inboxCollection {
                guard settings.inbox else { continue }
                try writer.create(TaskFile.empty(.inbox, name: nil, now: now))
                made = true
                continue
            }
            // A calendar becomes a list once it holds a task: the empty
            // calendar `tick lists rm` leaves on the server is never taken back.
            guard Slug.isSafe(collection), !slugs.contains(collection), hasItems(collection: collection) else { continue }
            // A removed list's calendar the phone filled again is named as the list was.
            let shown = FileManager.default.contents(atPath: vdirPath + "/" + collection + "/displayname")
                .map { Self.unmarked(String(decoding: $0, as: UTF8.self).trimmingWhitespaceAndNewlines()) } ?? ""
            guard let name = Self.listName(shown.isEmpty ? collection : shown, collection: collection, lists: lists, slugs: slugs) else {
                report.problems.append("\(vdirPath)/\(collection): its name cannot be a list's name; its items are not synced (rename the calendar on the server)")
                continue
            }
            guard settings.bridges(listNamed: name) else { continue }
            let kind = FileKind.list(slug: collection)
            try writer.create(TaskFile.empty(kind, name: name, color: ColorCode.default(for: name), now: now))
            lists.append(ListInfo(kind: kind, id: UUID(), name: name, color: nil))
            report.newLists.append(collection)
            made = true
        }
        return made
    }

    /// A name for a list made from a calendar: its display name when no list
    /// has it, else the name with the collection's path ("Work (a1b2)").
    static func listName(_ shown: String, collection: String, lists: [ListInfo], slugs: Set<String>) -> String? {
        for candidate in [shown, "\(shown) (\(collection))", collection] {
            let resolver = ListResolver(lists: lists, existingSlugs: slugs, problems: [])
            if (try? resolver.slugForNewList(named: candidate)) != nil { return candidate }
        }
        return nil
    }

    /// Where a sync records the display names `vdirsyncer metasync` brought
    /// down from the server (``DavSync``), by collection, until the pass takes them.
    var serverRenamesPath: String { root + "/server-renames" }

    /// The names the server side gave calendars (another machine's `tick
    /// lists rename`, or the phone's) that the store has not taken yet.
    func serverRenames() -> [String: String] { Self.readRecord(serverRenamesPath) }

    func writeServerRenames(_ names: [String: String]) throws { try Self.writeRecord(names, to: serverRenamesPath) }

    /// Records that `vdirsyncer metasync` brought `name` down for
    /// `collection`, whose metadata had synced before: a rename made on the
    /// server side, for the next pass to take. The name another machine's
    /// `tick lists rm` gave the calendar (``removalMark``) is no rename.
    func noteServerRename(_ collection: String, to name: String) throws {
        guard collection != Self.inboxCollection, !name.isEmpty, !Self.isRemovalMarked(name) else { return }
        var renames = serverRenames()
        renames[collection] = name
        try writeServerRenames(renames)
    }

    /// Takes the names the server side gave the bridged lists' calendars, as
    /// `tick lists rename` would. A name another list has is reported and not
    /// taken (the store's name goes up again). Returns the collections renamed.
    func adoptRenames(_ snapshot: StoreSnapshot, writer: StoreWriter, report: inout DavReport) throws -> [String] {
        let pending = serverRenames()
        guard !pending.isEmpty else { return [] }
        var renamed: [String] = []
        let slugs = Set(snapshot.files.compactMap(\.kind.slug))
        for file in bridgedFiles(snapshot) where file.kind != .inbox {
            let c = Self.collection(of: file.kind)
            guard let name = pending[c], name != file.displayName else { continue }
            let others = snapshot.listInfos.filter { $0.kind != file.kind }
            let resolver = ListResolver(lists: others, existingSlugs: slugs, problems: [])
            guard name.lowercased() == file.displayName.lowercased() || (try? resolver.slugForNewList(named: name)) != nil else {
                report.problems.append("\(vdirPath)/\(c): renamed on the server to a name another list has; kept as it is here (rename one of them)")
                continue
            }
            let now = self.now
            try writer.update(file.kind) { f in
                f.name = name
                f.modifiedAt = now
            }
            renamed.append(c)
        }
        try writeServerRenames([:])
        return renamed
    }

    /// True when the vdir's collection holds an item.
    func hasItems(collection: String) -> Bool {
        !itemNames(collection: collection).isEmpty
    }

    /// The file names of the vdir collection's items, sorted.
    func itemNames(collection: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: vdirPath + "/" + collection)) ?? []).filter(Self.isItemName).sorted()
    }
}
