import FoundationEssentials
import Glibc

/// `tick dav sync`: `vdirsyncer sync` (the server's changes come down), one
/// pass of the bridge (merged both ways), and, when that changed items,
/// `vdirsyncer sync` again (they go up).
///
/// Collection by collection, nothing leaves the bridge stuck: a calendar
/// emptied on the server is applied as the deletes it is, one tick emptied
/// (its list removed, its last task deleted) is emptied on the server, a
/// vdir collection that was lost is fetched again, a calendar that vanished
/// from the server is reported with the command that restores it, and a
/// collection that fails never stops the others.
public struct DavSync: Sendable {
    public let bridge: DavBridge
    /// The vdirsyncer config (``DavSetup/configPath(environment:)``).
    public let configPath: String
    /// The environment vdirsyncer runs with (the tools' variables of the
    /// command's: the password command needs `HOME`, `PATH`, the D-Bus session).
    public let environment: [String: String]
    /// The clock for the second pass (after the network).
    public let clock: @Sendable () -> Date
    /// Waits before retries after a dropped connection (tests: none).
    public var backoff: [TimeInterval] = [1, 3]

    public init(bridge: DavBridge, configPath: String, environment: [String: String], clock: @escaping @Sendable () -> Date) {
        self.bridge = bridge
        self.configPath = configPath
        self.environment = ChildEnvironment.forTools(from: environment)
        self.clock = clock
    }

    /// The same sync with another config (setup's trial copy); `environment` as it is.
    init(bridge: DavBridge, configPath: String, environment: [String: String], clock: @escaping @Sendable () -> Date, backoff: [TimeInterval]) {
        self.bridge = bridge
        self.configPath = configPath
        self.environment = environment
        self.clock = clock
        self.backoff = backoff
    }

    var root: String { bridge.root }

    /// vdirsyncer with this sync's config.
    public var vdirsyncer: Vdirsyncer {
        Vdirsyncer(program: bridge.settings.vdirsyncer, configPath: configPath, root: root, environment: environment, backoff: backoff)
    }

    /// True when vdirsyncer can be started (`tick dav setup` asks; a sync
    /// learns it from its first run instead of starting vdirsyncer once more).
    public func vdirsyncerInstalled() -> Bool { vdirsyncer.installed() }

    /// The collections of the bridged lists now.
    public func bridgedCollections() throws -> [String] {
        try bridge.store.snapshot().files.filter(bridge.isBridged).map { DavBridge.collection(of: $0.kind) }.sorted()
    }

    /// Discovers the collections (creating the bridged ones on the server,
    /// without a question), then sends their display names: a new calendar
    /// has its name from its first sync. Returns the collections that had
    /// synced before and had to be created again (they vanished from the server).
    @discardableResult
    public func discover(collections: [String]) throws(DavError) -> [String] {
        let v = vdirsyncer
        let synced = Set(collections.filter(v.hasStatus))
        let found = try v.runRetrying(["discover", "tick"])
        guard found.succeeded else { throw DavError.vdirsyncerFailed(step: "discover", message: found.output) }
        let created = found.createdOnServer
        // A new calendar: metasync with no record takes the server's default
        // name ("b wins"); tick's name is written back and sent at once.
        try metasync(created: Set(created))
        if !created.isEmpty {
            try? bridge.prepareCollections()
            try metasync(created: Set(created))
        }
        return created.filter { synced.contains($0) }
    }

    /// `vdirsyncer metasync` (display names, colours); a collection that
    /// fails here fails its sync too, where it is reported.
    ///
    /// A display name it brings down for a calendar that had metadata synced
    /// before is a rename made on the server side (another machine's `tick
    /// lists rename`, or the phone's): recorded for the pass, which renames
    /// the list (a rename travels; vdirsyncer's rule for a conflict, the
    /// server wins, decides between two renames, and every machine takes its
    /// result). A calendar with no metadata record yet takes the server's
    /// default name here, which is no rename (tick writes its own back); so
    /// does one discover just `created` on the server again.
    func metasync(created: Set<String> = []) throws(DavError) {
        let v = vdirsyncer
        let before = collectionNames()
        let known = Set(before.keys.filter { !created.contains($0) && FileManager.default.fileExists(atPath: v.statusDirectory + "/" + $0 + ".metadata") })
        let outcome = try v.runRetrying(["metasync", "tick"])
        if !outcome.succeeded, outcome.failures.isEmpty {
            throw DavError.vdirsyncerFailed(step: "metasync", message: outcome.output)
        }
        for (c, name) in collectionNames() where known.contains(c) && before[c] != name {
            try? bridge.noteServerRename(c, to: name)
        }
    }

    /// Brings vdirsyncer's record in line with what tick has and the server
    /// holds, starting vdirsyncer only when something asks for it:
    /// `discover` (then `metasync`) when tick's bridged lists changed, when
    /// `force`, or once ``DavSettings/discover`` has passed since the last
    /// one (a calendar made on the phone or by another machine is found
    /// then); `metasync` alone when tick renamed or recoloured a list. The
    /// collections that vanished from the server are set aside.
    private func prepare(_ state: inout DavState, collections: [String], force: Bool, accepted: Set<String>) throws(DavError) {
        let now = clock()
        let due = state.discovered.map { now.timeIntervalSince($0) >= bridge.settings.discover || now < $0 } ?? true
        if force || due || state.collections != collections {
            let recreated = try discover(collections: collections)
            state.collections = collections
            state.discovered = now
            var vanished = Set(state.vanished ?? [])
            // A calendar the user accepts as emptied is emptied here too, not set aside again.
            vanished.formUnion(recreated.filter { !accepted.contains($0) })
            state.vanished = vanished.isEmpty ? nil : vanished.sorted()
        } else if metadataFingerprint() != state.metadata {
            try metasync()
        }
        state.metadata = metadataFingerprint()
    }

    /// The vdir's display names and colours, as one string.
    func metadataFingerprint() -> String {
        let fm = FileManager.default
        return bridge.vdirCollections().map { c -> String in
            let dir = bridge.vdirPath + "/" + c + "/"
            let name = fm.contents(atPath: dir + "displayname").map { String(decoding: $0, as: UTF8.self) } ?? ""
            let color = fm.contents(atPath: dir + "color").map { String(decoding: $0, as: UTF8.self) } ?? ""
            return [c, name, color].joined(separator: "\u{1F}")
        }.joined(separator: "\u{1E}")
    }

    /// What one round of `vdirsyncer sync` did, per collection.
    struct Round {
        var uploaded = 0
        var downloaded = 0
        /// Collections that could not be synced, with what to tell the user.
        var problems: [String: String] = [:]
        /// Collections found vanished on the server.
        var vanished: [String] = []
        /// Collections emptied on the server together with others (a wipe, likely).
        var wiped: [String] = []
        /// Collections emptied on the server by another tick machine's `tick
        /// lists rm` (``DavBridge/removalMark``).
        var removedElsewhere: [String] = []
    }

    /// The output of one calendar's run when every calendar run alone lost
    /// the connection (after the retries), else nil.
    static func serverDown(_ alone: [String: Vdirsyncer.Outcome]) -> String? {
        guard !alone.isEmpty, alone.values.allSatisfy({ !$0.succeeded && Vdirsyncer.dropped($0) }) else { return nil }
        return alone.sorted { $0.key < $1.key }.first?.value.output
    }

    /// Syncs `collections`: all in one run; when that run fails, every
    /// collection of the round again on its own before anything is decided
    /// (vdirsyncer can cut a collection's sync short, with no error of its
    /// own, when another collection of the run fails), deciding what an
    /// emptied side means. A collection emptied on either side is
    /// force-deleted only once every other collection of the round has
    /// synced without error: a task that left one calendar for another is a
    /// move in flight until its new calendar is up, never a delete.
    /// A server that cannot be reached fails the whole round, once.
    func syncRound(_ collections: [String], removed: Set<String>, accepted: Set<String> = []) throws(DavError) -> Round {
        var round = Round()
        guard !collections.isEmpty else { return round }
        let v = vdirsyncer
        let all = try v.runRetrying(["sync"] + collections.map { "tick/" + $0 })
        round.uploaded += all.uploaded
        round.downloaded += all.downloaded
        if all.succeeded { return round }
        let failures = all.failures
        if failures.isEmpty {
            // A failure of the whole run (the connection, the configuration).
            guard Vdirsyncer.Failure(all.output) == .needsDiscover else {
                throw DavError.vdirsyncerFailed(step: "sync", message: all.output)
            }
            try discover(collections: collections)
        } else if Vdirsyncer.dropped(all), Set(failures.keys).isSuperset(of: collections) {
            // Every calendar lost the connection, after the retries: the server is down.
            throw DavError.vdirsyncerFailed(step: "sync", message: all.output)
        }
        let bridged = try? bridge.store.snapshot()
        var alone: [String: Vdirsyncer.Outcome] = [:]
        for c in collections { alone[c] = try v.runRetrying(["sync", "tick/" + c]) }
        if let down = Self.serverDown(alone) {
            // Every calendar, run alone, could not reach the server (the
            // first run's lines did not name each one): the server is down.
            throw DavError.vdirsyncerFailed(step: "sync", message: down)
        }
        var emptiedOnServer = alone.filter { !$0.value.succeeded && Vdirsyncer.Failure($0.value.failures[$0.key] ?? $0.value.output) == .emptiedOnServer }.map(\.key).sorted()
        if !emptiedOnServer.isEmpty {
            // A calendar another tick machine's `tick lists rm` emptied says so in its name.
            let removedElsewhere = try removalMarked(emptiedOnServer)
            emptiedOnServer.removeAll(where: removedElsewhere.contains)
            round.removedElsewhere = removedElsewhere.sorted()
        }
        // Several calendars emptied at once, and no removal to explain them,
        // is no phone deleting its last task: the server lost them (a wipe);
        // nothing is deleted in tick.
        let wiped = emptiedOnServer.count > 1 ? Set(emptiedOnServer).subtracting(accepted) : []
        // Emptyings to apply with --force-delete once the others are through.
        var emptyings: [String] = []
        for c in collections {
            guard var outcome = alone[c] else { continue }
            var forgot = false
            while !outcome.succeeded {
                let message = outcome.failures[c] ?? outcome.output
                switch Vdirsyncer.Failure(message) {
                case .emptiedOnServer where !wiped.contains(c):
                    // The phone deleted every item: the deletes come down (an
                    // item tick changed since is sent again), after the others.
                    emptyings.append(c)
                case .emptiedHere where !forgot:
                    if removed.contains(c) || !holdsTasks(c, bridged) {
                        // tick emptied it (its list removed, its last task deleted).
                        emptyings.append(c)
                    } else {
                        // The vdir lost it while the store has tasks: fetch it again.
                        forgot = true
                        v.forget(c)
                        outcome = try v.runRetrying(["sync", "tick/" + c])
                        continue
                    }
                case .emptiedOnServer:
                    round.wiped.append(c)
                case .vanished:
                    round.vanished.append(c)
                case .needsDiscover where !forgot:
                    forgot = true
                    try discover(collections: collections)
                    outcome = try v.runRetrying(["sync", "tick/" + c])
                    continue
                default:
                    round.problems[c] = DavError.reason(message)
                }
                break
            }
            round.uploaded += outcome.uploaded
            round.downloaded += outcome.downloaded
        }
        let othersFailed = !round.problems.isEmpty
        for c in emptyings {
            guard !othersFailed else {
                round.problems[c] = "its emptying waits until the other calendars have synced (another calendar failed; a task leaving this one may be on its way to another)"
                continue
            }
            let outcome = try v.runRetrying(["sync", "--force-delete", "tick/" + c])
            if !outcome.succeeded { round.problems[c] = DavError.reason(outcome.failures[c] ?? outcome.output) }
            round.uploaded += outcome.uploaded
            round.downloaded += outcome.downloaded
        }
        return round
    }

    /// Of `collections` (emptied on the server), those whose display name on
    /// the server carries ``DavBridge/removalMark``: another tick machine's
    /// `tick lists rm` emptied them (``markRemoved(_:)``), no wipe. Their
    /// names come down with one `vdirsyncer metasync` (no rename: the pass
    /// writes the list's name back while the list is here).
    private func removalMarked(_ collections: [String]) throws(DavError) -> Set<String> {
        _ = try vdirsyncer.runRetrying(["metasync"] + collections.map { "tick/" + $0 })
        let names = collectionNames()
        return Set(collections.filter { names[$0].map(DavBridge.isRemovalMarked) ?? false })
    }

    /// Lists whose calendars another tick machine's `tick lists rm` emptied
    /// (``Round/removedElsewhere``), once the pass applied its deletes: a
    /// list left empty is removed here too (the removal travels; undone with
    /// the sync's undo) and its calendar detached; a list still holding tasks
    /// (changed here after the removal, kept and sent again) lives on, and its
    /// name goes back to the server.
    private func followRemovals(_ collections: [String], report: inout DavReport, state: inout DavState) throws {
        guard !collections.isEmpty else { return }
        let snapshot = try bridge.store.snapshot()
        for c in collections {
            guard let file = bridge.bridgedFiles(snapshot).first(where: { DavBridge.collection(of: $0.kind) == c }), file.kind != .inbox else { continue }
            if file.tasks.isEmpty {
                let removed = try bridge.store.withLock { writer -> Bool in
                    guard let current = try bridge.store.read(file.kind)?.file, current.tasks.isEmpty else { return false }
                    try writer.remove(file.kind)
                    return true
                }
                guard removed else { continue }
                report.removedElsewhere.append(c)
                detach(c, &state)
            } else {
                let path = bridge.vdirPath + "/" + c + "/displayname"
                try AtomicFile.write(Array(file.displayName.utf8), to: path, mode: nil, durable: false)
                _ = try? vdirsyncer.runRetrying(["metasync", "tick/" + c])
            }
        }
    }

    /// Renames the calendar of a list removed here, now emptied on the
    /// server, to its name with ``DavBridge/removalMark`` (a failure leaves
    /// the name: another machine then takes an emptying with others for a wipe).
    private func markRemoved(_ c: String) {
        let path = bridge.vdirPath + "/" + c + "/displayname"
        let name = collectionNames()[c] ?? c
        guard !DavBridge.isRemovalMarked(name), (try? AtomicFile.write(Array((name + DavBridge.removalMark).utf8), to: path, mode: nil, durable: false)) != nil else { return }
        _ = try? vdirsyncer.runRetrying(["metasync", "tick/" + c])
    }

    /// A fresh store has no inbox file until its first task: the bridged
    /// inbox gets an empty one (its calendar syncs, the phone's tasks land in it).
    func ensureInbox() throws {
        guard bridge.settings.inbox, try bridge.store.read(.inbox) == nil else { return }
        let now = clock()
        try bridge.store.withLock { writer in
            try writer.update(.inbox, create: { TaskFile.empty(.inbox, name: nil, now: now) }, stampChanges: false) { _ in }
        }
    }

    /// True when the store holds a bridged task in `collection`.
    private func holdsTasks(_ collection: String, _ snapshot: StoreSnapshot?) -> Bool {
        guard let snapshot else { return true }
        return snapshot.files.contains { bridge.isBridged($0) && DavBridge.collection(of: $0.kind) == collection && !$0.tasks.isEmpty }
    }

    /// The whole sync, under the bridge's lock (`waiting` is called when
    /// another sync holds it, before this one waits for it). Records the
    /// outcome in `state.json` either way.
    ///
    /// `discovering`: ask the server for its calendars now, whenever the last
    /// discovery was (`tick dav sync --discover`).
    ///
    /// `accepting`: calendars tick reported as emptied on the server together
    /// with others, whose emptying the user confirms (`tick dav sync
    /// --accept-empty`): their tasks are deleted in tick too.
    ///
    /// Undo: what the run changes in the store (the phone's deletes,
    /// completions, edits, moves and adds, the lists its calendars make) is
    /// one entry of the store's undo journal (``Store/journal``: `tick dav
    /// sync`'s, `tick watch`'s), started when the run starts (``entry(at:)``),
    /// so each sync of a long-lived watcher is an entry of its own and `tick
    /// undo` reverts it as it reverts `tick dav sync`'s. A run that changed
    /// nothing in the store adds no entry.
    public func run(accepting accepted: Set<String> = [], discovering: Bool = false, waiting: () -> Void = {}) throws -> DavReport {
        try entry(at: clock()).synced(accepting: accepted, discovering: discovering, waiting: waiting)
    }

    /// This sync, writing the store through a journal session of its own
    /// started at `now` (``JournalSession/restarted(at:)`` of the store's;
    /// none when the store records no journal).
    func entry(at now: Date) -> DavSync {
        guard let session = bridge.store.journal else { return self }
        let store = bridge.store.with(journal: session.restarted(at: now))
        let journaled = DavBridge(store: store, settings: bridge.settings, root: bridge.root, now: bridge.now, timeZone: bridge.timeZone, fields: bridge.fields)
        return DavSync(bridge: journaled, configPath: configPath, environment: environment, clock: clock, backoff: backoff)
    }

    /// ``run(accepting:discovering:waiting:)`` in the store (and journal session) this sync has.
    private func synced(accepting accepted: Set<String>, discovering: Bool, waiting: () -> Void) throws -> DavReport {
        guard FileManager.default.fileExists(atPath: configPath) else { throw DavError.notSetUp(configPath: configPath) }
        let lock = try DavLock(root: root, waiting: waiting)
        defer { lock.release() }
        var state = DavState.load(root: root) ?? DavState()
        // Items a probe held when a sync stopped go back first.
        try recoverProbes()
        if !accepted.isEmpty {
            state.emptied = state.emptied?.filter { !accepted.contains($0) }
            state.vanished = state.vanished?.filter { !accepted.contains($0) }
        }
        do {
            // The server's changes come down first, into a vdir tick has not
            // changed since its last pass: vdirsyncer has no conflict to resolve
            // (its "b wins" would keep the hash of tick's copy in its status, and
            // a merge equal to that copy would then never be uploaded).
            try ensureInbox()
            try bridge.prepareCollections()
            let removed = Set(state.removed ?? [])
            let current = try bridgedCollections()
            let collections = Set(current).union(removed.filter { FileManager.default.fileExists(atPath: bridge.vdirPath + "/" + $0) }).sorted()
            try prepare(&state, collections: collections, force: discovering || !accepted.isEmpty, accepted: accepted)
            // With the calendars made elsewhere, which discover put in the vdir.
            let calendars = Set(collections).union(bridge.vdirCollections()).sorted()
            var probed = Round()
            for c in Set(state.vanished ?? []).union(state.emptied ?? []).sorted() where calendars.contains(c) {
                // Set aside (gone from the server, or wiped): once the server
                // holds items there again (another machine restored it, the
                // phone added one), it syncs, with no command here. While it
                // is still empty vdirsyncer refuses, and it stays aside.
                // A wiped one is probed without sending (probeWiped): while
                // the server holds nothing there it stays aside, whatever this
                // machine put there since; joining it would let those items
                // hide the wipe from the other machines, which would then take
                // every item it lost for the phone's deletes.
                let probe: Vdirsyncer.Outcome
                if (state.emptied ?? []).contains(c) {
                    let fetch = try probeWiped(c)
                    probed.downloaded += fetch.outcome.downloaded
                    guard fetch.outcome.succeeded, fetch.fetched else { continue }
                    probe = try join(c)
                } else {
                    probe = try vdirsyncer.runRetrying(["sync", "tick/" + c])
                }
                probed.uploaded += probe.uploaded
                probed.downloaded += probe.downloaded
                if probe.succeeded { state.unsetAside(c) }
            }
            let aside = Set(state.vanished ?? []).union(state.emptied ?? [])
            let live = calendars.filter { !aside.contains($0) }
            var down = try syncRound(live, removed: removed, accepted: accepted)
            down.uploaded += probed.uploaded
            down.downloaded += probed.downloaded
            let report = try DavBridge(store: bridge.store, settings: bridge.settings, root: root, now: clock(), timeZone: bridge.timeZone, fields: bridge.fields).reconcile()
            var result = report
            // Calendars the pass made lists of came from the server: no change
            // of tick's lists to discover again.
            let adopted = try bridgedCollections()
            if Set(adopted).isSubset(of: calendars), !Set(adopted).isSubset(of: current) {
                state.collections = Set(state.collections).union(adopted).sorted()
            }
            try followRemovals(down.removedElsewhere.filter { down.problems[$0] == nil }, report: &result, state: &state)
            let stillLive = live.filter { !down.vanished.contains($0) && !down.wiped.contains($0) && down.problems[$0] == nil }
            if report.sent > 0 || !removed.isEmpty {
                let up = try syncRound(stillLive, removed: removed, accepted: accepted)
                down.uploaded += up.uploaded
                down.downloaded += up.downloaded
                down.vanished += up.vanished
                down.wiped += up.wiped
                down.problems.merge(up.problems) { a, _ in a }
            }
            // Counts say what went over the wire.
            result.sent = down.uploaded
            // A removed list's calendar, emptied on the server: detached.
            for c in removed.sorted() where down.problems[c] == nil && !current.contains(c) {
                if !adopted.contains(c), !bridge.hasItems(collection: c) { markRemoved(c) }
                detach(c, &state)
            }
            // A list made again under the removed one's calendar: bridged as usual.
            state.removed = state.removed?.filter { !(current.contains($0) && down.problems[$0] == nil) }
            if state.removed?.isEmpty == true { state.removed = nil }
            var newlyVanished = Set(state.vanished ?? [])
            newlyVanished.formUnion(down.vanished.filter { !removed.contains($0) })
            state.vanished = newlyVanished.isEmpty ? nil : newlyVanished.sorted()
            var emptied = Set(state.emptied ?? [])
            emptied.formUnion(down.wiped.filter { !removed.contains($0) })
            state.emptied = emptied.isEmpty ? nil : emptied.sorted()
            let names = collectionNames()
            for c in (state.vanished ?? []) + (state.emptied ?? []) where !current.contains(c) {
                // No bridged list has this calendar (removed in tick, here or
                // on another machine): nothing to restore, nothing to delete.
                detach(c, &state)
            }
            for c in (state.vanished ?? []) {
                // Each warning names commands that work for this calendar.
                let confirm = c == DavBridge.inboxCollection
                    ? "`tick dav sync --accept-empty \(c)` to delete its tasks in tick too"
                    : "`tick lists rm \(Self.quoted(names[c] ?? c))` to confirm the removal"
                result.problems.append("calendar \(names[c].map { "\"\($0)\" " } ?? "")(\(c)) is gone from the server; nothing was deleted in tick; "
                    + "run `tick dav restore \(c)` to send tick's copy again, or \(confirm); the other lists sync as before")
            }
            for c in (state.emptied ?? []) {
                result.problems.append("calendar \(names[c].map { "\"\($0)\" " } ?? "")(\(c)) was emptied on the server together with others (a wiped server?); nothing was deleted in tick; "
                    + "run `tick dav restore \(c)` to send tick's copy again, or `tick dav sync --accept-empty \(c)` to delete its tasks in tick too; the other lists sync as before")
            }
            let synced = stillLive.filter { down.problems[$0] == nil }
            for (c, why) in down.problems.sorted(by: { $0.key < $1.key }) {
                let others = synced.isEmpty ? (why.hasSuffix("no calendar synced") ? "" : "no calendar synced; ") : "synced: " + synced.joined(separator: ", ") + "; "
                result.problems.append("calendar \(names[c].map { "\"\($0)\" " } ?? "")(\(c)) did not sync: \(why); " + others + "run `tick dav sync` again")
            }
            let now = clock()
            if down.problems.isEmpty {
                state.lastSuccess = now
                state.lastError = nil
            }
            if !down.problems.isEmpty || !(state.vanished ?? []).isEmpty || !(state.emptied ?? []).isEmpty {
                // A calendar that did not sync or is set aside (gone, wiped) is a failure:
                // an error exit, and `tick status` says why until it is dealt with.
                state.lastFailure = now
                state.lastError = result.problems.first
            }
            try? state.save(root: root)
            return result
        } catch {
            state.lastFailure = clock()
            state.lastError = (error as? LocalizedError)?.errorDescription ?? "\(error)"
            try? state.save(root: root)
            throw error
        }
    }

    /// A wiped calendar the server holds items in again (``probeWiped(_:)``
    /// fetched them, and put back this machine's items beside them), joined
    /// as `tick dav restore` joins one: vdirsyncer forgets the calendar and
    /// syncs it again (nothing is deleted; this machine's items, the wipe
    /// lost them, are sent again), and the bridge merges it field by field by
    /// change time (``DavBridge/forgetAgreed(_:)``). A delete made since on
    /// another tick machine is made again there (its tombstone is later than
    /// the item); a phone's delete made in between is not known and the item
    /// stays.
    private func join(_ c: String) throws(DavError) -> Vdirsyncer.Outcome {
        vdirsyncer.forget(c)
        bridge.forgetAgreed(c)
        return try vdirsyncer.runRetrying(["sync", "tick/" + c])
    }

    /// Stops bridging `collection`, whose list is gone from the store: its
    /// vdir copy and vdirsyncer's record go (the calendar stays on the server).
    private func detach(_ c: String, _ state: inout DavState) {
        try? FileManager.default.removeItem(atPath: bridge.vdirPath + "/" + c)
        vdirsyncer.forget(c)
        state.removed = state.removed?.filter { $0 != c }
        if state.removed?.isEmpty == true { state.removed = nil }
        state.unsetAside(c)
    }

    /// Restores the calendars of `collections` on the server from tick's
    /// copy (after they vanished, or were wiped): vdirsyncer forgets them,
    /// discover creates them again, and the sync sends every item.
    /// A name that is no bridged list's calendar is refused and named in the
    /// report's problems; the others are restored (all refused: an error).
    public func restore(_ collections: [String], waiting: () -> Void = {}) throws -> DavReport {
        var refused: [String] = []
        do {
            let lock = try DavLock(root: root, waiting: waiting)
            defer { lock.release() }
            var state = DavState.load(root: root) ?? DavState()
            // Before forgetting: a stopped probe's record would come back over it.
            try recoverProbes()
            let known = Set(try bridgedCollections())
            refused = collections.filter { !known.contains($0) }
            let collections = collections.filter(known.contains)
            if collections.isEmpty, let first = refused.first { throw DavError.unknownCollection(first, known: known.sorted()) }
            for c in collections {
                vdirsyncer.forget(c)
                // The server may hold another machine's restored copy: merged by change time.
                bridge.forgetAgreed(c)
                state.unsetAside(c)
            }
            state.collections = []
            try state.save(root: root)
        }
        var report = try run(waiting: waiting)
        let known = (try? bridgedCollections()) ?? []
        for c in refused {
            report.problems.append(DavError.unknownCollection(c, known: known).errorDescription ?? c)
        }
        report.refused = refused
        return report
    }

    /// A list name as a shell word.
    static func quoted(_ name: String) -> String {
        name.allSatisfy { $0.isLetter || $0.isNumber || "-_.".contains($0) } ? name : ProcessRunner.shellQuote(name)
    }

    /// Display names of the vdir's collections.
    private func collectionNames() -> [String: String] {
        var out: [String: String] = [:]
        for c in (try? FileManager.default.contentsOfDirectory(atPath: bridge.vdirPath)) ?? [] {
            if let data = FileManager.default.contents(atPath: bridge.vdirPath + "/" + c + "/displayname") {
                out[c] = String(decoding: data, as: UTF8.self).trimmingWhitespaceAndNewlines()
            }
        }
        return out
    }
}
