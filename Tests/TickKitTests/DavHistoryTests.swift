import Foundation
import Testing
@testable import TickKit

/// A property test of the CalDAV bridge over random histories (issue 26):
/// tick edits through the store (as the CLI makes them, stamped by the
/// store's clock) and phone edits of the vdir's .ics files (as vdirsyncer
/// delivers them, LAST-MODIFIED from the same clock), with random passes of
/// the bridge. After every pass, and after a final one, the store and the
/// vdir hold the same tasks, each field with the later change of either side
/// (a phone change is as late as its item's LAST-MODIFIED, Docs/DAV.md),
/// deletes win or lose as Docs/DAV.md says, and every phone item still there
/// keeps its unknown lines byte for byte. A failure names its seed and step.
@Suite struct DavHistoryTests {
    static let t0 = Timestamp.parse("2026-11-21T09:00:00Z")!
    static let collections = ["inbox", "work", "home"]
    let utc = Zone(named: "UTC")!

    /// The mapped fields the history changes.
    struct Fields: Equatable, CustomStringConvertible {
        var title: String
        var due: TaskDate?
        /// completedAt when done.
        var done: Date?
        var list: String
        var description: String { "\(title) due=\(due.map { "\($0)" } ?? "-") done=\(done.map(Timestamp.format) ?? "-") list=\(list)" }
    }

    static func kind(_ collection: String) -> FileKind { collection == "inbox" ? .inbox : .list(slug: collection) }

    static func due(step: Int) -> TaskDate {
        // Unique per step (steps stay below 336).
        .day(LocalDate(year: 2027, month: 1 + (step / 28) % 12, day: 1 + step % 28)!)
    }

    /// The unknown lines a phone item carries (kept verbatim by tick).
    static func extras(_ n: Int) -> [String] {
        [
            "X-APPLE-SORT-ORDER:\(744_891_000 + n)\r\nPERCENT-COMPLETE:0\r\nLOCATION:Shelf \(n)\r\n"
                + "RELATED-TO;RELTYPE=PARENT:5A5A5A5A-0000-4000-8000-\(String(format: "%012d", n))\r\n"
                + "X-SOMETHING-LONG:\(String(repeating: "a", count: 60))\(n)\r\n \(String(repeating: "b", count: 40))\r\n",
            "BEGIN:VALARM\r\nACTION:AUDIO\r\nTRIGGER:-PT\(n % 50 + 1)M\r\nX-WR-ALARMUID:\(n)\r\nEND:VALARM\r\n",
        ]
    }

    final class History {
        let seed: UInt64
        var rng: MergeRandom
        let fixture: DavBridgeTests.Fixture
        var step = 0
        var trace: [String] = []

        /// What both sides held after the last pass.
        var agreed: [UUID: Fields] = [:]
        /// The store's side: its tasks, when each field last changed since the last pass, deletions.
        var tick: [UUID: Fields] = [:]
        var tickTimes: [UUID: [String: Date]] = [:]
        var tombstones: [UUID: Date] = [:]
        /// The phone's side: its items, their LAST-MODIFIED, which were touched since the last pass.
        var phone: [UUID: Fields] = [:]
        var lastModified: [UUID: Date] = [:]
        var touched = Set<UUID>()
        /// The unknown lines of the items the phone made.
        var extras: [UUID: [String]] = [:]

        init(seed: UInt64) throws {
            self.seed = seed
            rng = MergeRandom(seed: seed)
            fixture = try DavBridgeTests.Fixture()
            try fixture.put(.inbox, name: nil, [])
            try fixture.put(.list(slug: "work"), name: "Work", [])
            try fixture.put(.list(slug: "home"), name: "Home", [])
        }

        var now: Date { DavHistoryTests.t0.addingTimeInterval(Double(step) * 60) }
        func store() -> Store { fixture.store(at: now) }
        func log(_ s: String) { trace.append("step \(step): \(s)") }
        var context: String { "seed \(seed), step \(step)\n" + trace.suffix(40).joined(separator: "\n") }

        // MARK: tick's edits, as the commands make them

        func tickAdd() throws {
            let id = rng.uuid()
            let list = rng.pick(DavHistoryTests.collections)
            var task = TaskItem(id: id, title: "tick \(step)", createdAt: now, modifiedAt: now)
            if rng.chance(50) { task.due = DavHistoryTests.due(step: step) }
            try store().withLock { w in
                try w.update(DavHistoryTests.kind(list), create: nil) { $0.tasks.append(task) }
            }
            tick[id] = Fields(title: task.title, due: task.due, done: nil, list: list)
            log("tick add \(id.lowercased.prefix(8)) to \(list)")
        }

        func tickEdit(_ id: UUID, field: String, _ change: (inout TaskFile, Int) throws -> Void) throws {
            guard let f = tick[id] else { return }
            try store().withLock { w in
                try w.update(DavHistoryTests.kind(f.list)) { file in
                    if let i = file.index(of: id) { try change(&file, i) }
                }
            }
            tickTimes[id, default: [:]][field] = now
        }

        func tickStep() throws {
            let ids = tick.keys.sorted { $0.uuidString < $1.uuidString }
            let op = rng.int(100)
            if ids.isEmpty || op < 15 { return try tickAdd() }
            let id = rng.pick(ids)
            let p = id.lowercased.prefix(8)
            switch op {
            case ..<40:
                let title = "tick \(step)"
                try tickEdit(id, field: "title") { file, i in file.tasks[i].title = title }
                tick[id]?.title = title
                log("tick retitle \(p) \(title)")
            case ..<65:
                let due = DavHistoryTests.due(step: step)
                try tickEdit(id, field: "due") { file, i in file.tasks[i].due = due }
                tick[id]?.due = due
                log("tick due \(p) \(due)")
            case ..<75:
                guard tick[id]?.done == nil else { return }
                let at = now, tz = Zone(named: "UTC")!
                try tickEdit(id, field: "done") { file, _ in _ = try file.complete(taskID: id, at: at, timeZone: tz) }
                tick[id]?.done = now
                log("tick done \(p)")
            case ..<85:
                guard let f = tick[id] else { return }
                let target = rng.pick(DavHistoryTests.collections.filter { $0 != f.list })
                let at = now
                try store().withLock { w in
                    guard var task = try store().read(DavHistoryTests.kind(f.list))?.file.tasks.first(where: { $0.id == id }) else { return }
                    task.stamp("list", at: at)
                    task.changed["order"] = nil
                    task.modifiedAt = max(task.modifiedAt, at)
                    try w.update(DavHistoryTests.kind(target)) { file in
                        file.tasks.append(task)
                        file.deleted.removeAll { $0.id == id }
                    }
                    try w.update(DavHistoryTests.kind(f.list)) { $0.tasks.removeAll { $0.id == id } }
                }
                tick[id]?.list = target
                tickTimes[id, default: [:]]["list"] = now
                log("tick move \(p) to \(target)")
            default:
                guard let f = tick[id] else { return }
                let at = now
                try store().withLock { w in
                    try w.update(DavHistoryTests.kind(f.list)) { file in
                        file.tasks.removeAll { $0.id == id }
                        file.recordDeletion(of: [id], at: at)
                    }
                }
                tick[id] = nil
                tombstones[id] = now
                log("tick delete \(p)")
            }
        }

        // MARK: the phone's edits, as vdirsyncer delivers them

        func path(_ collection: String, _ name: String) -> String { fixture.vdir + "/" + collection + "/" + name }

        /// The phone's item for `id`: its collection, file name and text.
        func item(_ id: UUID) -> (collection: String, name: String, text: String)? {
            for c in DavHistoryTests.collections {
                for name in fixture.items(c) {
                    guard let text = fixture.item(c, name) else { continue }
                    if text.contains("UID:" + id.lowercased + "\r\n") || text.contains("UID:" + id.uuidString + "\r\n") { return (c, name, text) }
                }
            }
            return nil
        }

        /// `text` with the VTODO's lines named `name` replaced by `with` (added before END:VTODO when absent).
        static func replacing(_ text: String, _ prefixes: [String], with new: [String]) -> String {
            var lines = text.components(separatedBy: "\r\n")
            var at: Int?
            var i = 0
            while i < lines.count {
                if prefixes.contains(where: { lines[i].hasPrefix($0) }) {
                    if at == nil { at = i }
                    lines.remove(at: i)
                } else {
                    i += 1
                }
            }
            let place = at ?? lines.firstIndex(of: "END:VTODO") ?? lines.count
            lines.insert(contentsOf: new, at: place)
            return lines.joined(separator: "\r\n")
        }

        func phoneWrite(_ id: UUID, _ collection: String, _ name: String, _ text: String) throws {
            let stamped = Self.replacing(text, ["LAST-MODIFIED:"], with: ["LAST-MODIFIED:" + ICalendarCodec.stamp(now)])
            try fixture.putItem(collection, name, stamped)
            lastModified[id] = now
            touched.insert(id)
        }

        func phoneAdd() throws {
            let id = rng.uuid()
            let list = rng.pick(DavHistoryTests.collections)
            let n = step + 1000 * Int(seed % 97)
            let blocks = DavHistoryTests.extras(n)
            let stamp = ICalendarCodec.stamp(now)
            let due: TaskDate? = rng.chance(50) ? DavHistoryTests.due(step: step) : nil
            var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Apple Inc.//iOS 17.0//EN\r\nBEGIN:VTODO\r\n"
            text += "UID:\(id.uuidString)\r\nCREATED:\(stamp)\r\nDTSTAMP:\(stamp)\r\nLAST-MODIFIED:\(stamp)\r\nSUMMARY:phone \(step)\r\n"
            text += blocks[0]
            if case .day(let d)? = due { text += "DUE;VALUE=DATE:\(ICalendarCodec.basic(d))\r\n" }
            text += "STATUS:NEEDS-ACTION\r\n"
            text += "BEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:Reminder\r\nTRIGGER;VALUE=DATE-TIME:20271201T080000Z\r\nEND:VALARM\r\n"
            text += blocks[1]
            text += "END:VTODO\r\nEND:VCALENDAR\r\n"
            try fixture.putItem(list, "phone-\(id.uuidString).ics", text)
            phone[id] = Fields(title: "phone \(step)", due: due, done: nil, list: list)
            lastModified[id] = now
            touched.insert(id)
            extras[id] = blocks
            log("phone add \(id.lowercased.prefix(8)) to \(list)")
        }

        func phoneStep() throws {
            let ids = phone.keys.sorted { $0.uuidString < $1.uuidString }
            let op = rng.int(100)
            if ids.isEmpty || op < 15 { return try phoneAdd() }
            let id = rng.pick(ids)
            let p = id.lowercased.prefix(8)
            guard let item = item(id) else {
                Issue.record("the phone's item \(p) is missing from the vdir; \(context)")
                return
            }
            switch op {
            case ..<40:
                let title = "phone \(step)"
                try phoneWrite(id, item.collection, item.name, Self.replacing(item.text, ["SUMMARY:"], with: ["SUMMARY:" + title]))
                phone[id]?.title = title
                log("phone retitle \(p) \(title)")
            case ..<65:
                let due = DavHistoryTests.due(step: step)
                guard case .day(let d) = due else { return }
                try phoneWrite(id, item.collection, item.name, Self.replacing(item.text, ["DUE:", "DUE;"], with: ["DUE;VALUE=DATE:" + ICalendarCodec.basic(d)]))
                phone[id]?.due = due
                log("phone due \(p) \(due)")
            case ..<75:
                guard phone[id]?.done == nil else { return }
                let text = Self.replacing(item.text, ["STATUS:", "COMPLETED:"], with: ["STATUS:COMPLETED", "COMPLETED:" + ICalendarCodec.stamp(now)])
                try phoneWrite(id, item.collection, item.name, text)
                phone[id]?.done = now
                log("phone done \(p)")
            case ..<85:
                let target = rng.pick(DavHistoryTests.collections.filter { $0 != item.collection })
                try fixture.removeItem(item.collection, item.name)
                try phoneWrite(id, target, item.name, item.text)
                phone[id]?.list = target
                log("phone move \(p) to \(target)")
            default:
                try fixture.removeItem(item.collection, item.name)
                phone[id] = nil
                lastModified[id] = nil
                extras[id] = nil
                touched.remove(id)
                log("phone delete \(p)")
            }
        }

        // MARK: a pass of the bridge, and the oracle

        /// What a pass must leave, by Docs/DAV.md's rules.
        func expected() -> [UUID: Fields] {
            var next: [UUID: Fields] = [:]
            let ids = Set(agreed.keys).union(tick.keys).union(phone.keys)
            for id in ids {
                let a = agreed[id], t = tick[id], p = phone[id]
                switch (t, p) {
                case let (t?, p?):
                    guard let a else {
                        Issue.record("\(id) is new on both sides; \(context)")
                        continue
                    }
                    // Per field: the side that changed it; both: the later change
                    // (the phone's is as late as its item's LAST-MODIFIED).
                    let phoneTime = lastModified[id] ?? .distantPast
                    func later(_ key: String, _ tc: Bool, _ pc: Bool) -> Bool {
                        pc && (!tc || phoneTime > (tickTimes[id]?[key] ?? .distantPast))
                    }
                    var r = t
                    if later("title", t.title != a.title, p.title != a.title) { r.title = p.title }
                    if later("due", t.due != a.due, p.due != a.due) { r.due = p.due }
                    if later("done", t.done != a.done, p.done != a.done) { r.done = p.done }
                    if later("list", t.list != a.list, p.list != a.list) { r.list = p.list }
                    next[id] = r
                case let (t?, nil):
                    // New in tick: sent. Deleted on the phone: deleted, unless changed in
                    // tick since the last pass (the delete's time is unknown: the task is
                    // kept and sent again, Docs/DAV.md).
                    if a == nil || tickTimes[id] != nil { next[id] = t }
                case let (nil, p?):
                    // New on the phone: added. Deleted in tick: the item goes, unless the
                    // phone changed it after the deletion (then it comes back as the phone has it).
                    if a == nil {
                        next[id] = p
                    } else if touched.contains(id), let deleted = tombstones[id], let l = lastModified[id], l > deleted {
                        next[id] = p
                    }
                case (nil, nil):
                    break
                }
            }
            return next
        }

        func storeFields() throws -> [UUID: Fields] {
            var out: [UUID: Fields] = [:]
            for file in try store().snapshot().files {
                let c = DavBridge.collection(of: file.kind)
                for t in file.tasks {
                    if out[t.id] != nil { Issue.record("\(t.id) is in two store files; \(context)") }
                    out[t.id] = Fields(title: t.title, due: t.due, done: t.state == .done ? t.completedAt : nil, list: c)
                }
            }
            return out
        }

        func vdirFields() throws -> [UUID: (fields: Fields, text: String)] {
            var out: [UUID: (Fields, String)] = [:]
            for c in DavHistoryTests.collections {
                for name in fixture.items(c) {
                    let text = fixture.item(c, name) ?? ""
                    let t = try DavItem(bytes: Array(text.utf8), path: name).task(path: name, now: now, timeZone: Zone(named: "UTC")!)
                    if out[t.id] != nil { Issue.record("\(t.id) has two items in the vdir; \(context)") }
                    out[t.id] = (Fields(title: t.title, due: t.due, done: t.state == .done ? t.completedAt : nil, list: c), text)
                }
            }
            return out
        }

        func sync() throws {
            let next = expected()
            log("sync")
            let report = try fixture.bridge(at: now).reconcile()
            // As DavSync runs: the run is a success, and what the pass wrote is
            // confirmed as the new base before the server's next changes come
            // down (here the vdir is the server's side: every upload went).
            var state = DavState.load(root: fixture.dav) ?? DavState()
            state.lastSuccess = now
            try state.save(root: fixture.dav)
            try fixture.bridge(at: now).prepareCollections()
            #expect(report.problems.isEmpty, "\(report.problems); \(context)")
            check(next)
            agreed = next
            tick = next
            phone = next
            tickTimes = [:]
            tombstones = [:]
            lastModified = [:]
            touched = []
            extras = extras.filter { next[$0.key] != nil }
        }

        func check(_ next: [UUID: Fields]) {
            do {
                let inStore = try storeFields()
                let inVdir = try vdirFields()
                for id in Set(next.keys).union(inStore.keys).union(inVdir.keys).sorted(by: { $0.uuidString < $1.uuidString }) {
                    #expect(inStore[id] == next[id], "store \(id.lowercased.prefix(8)): \(inStore[id].map(\.description) ?? "none"), expected \(next[id].map(\.description) ?? "none"); \(context)")
                    #expect(inVdir[id]?.fields == next[id], "vdir \(id.lowercased.prefix(8)): \(inVdir[id].map(\.fields.description) ?? "none"), expected \(next[id].map(\.description) ?? "none"); \(context)")
                }
                // Nothing the phone wrote is lost: its unknown lines, byte for byte.
                for (id, blocks) in extras where next[id] != nil {
                    let text = inVdir[id]?.text ?? ""
                    for block in blocks {
                        #expect(text.contains(block), "item \(id.lowercased.prefix(8)) lost \(block.debugDescription):\n\(text)\n\(context)")
                    }
                }
                // No tombstone for a live task (another machine's merge would delete it).
                for file in try store().snapshot().files {
                    for t in file.deleted where inStore[t.id] != nil {
                        Issue.record("a tombstone for the live task \(t.id.lowercased.prefix(8)) in \(file.kind); \(context)")
                    }
                }
            } catch {
                Issue.record("\(error); \(context)")
            }
        }

        func run(steps: Int) throws {
            for _ in 0..<steps {
                step += 1
                let r = rng.int(100)
                if r < 15 { try sync() } else if r < 58 { try tickStep() } else { try phoneStep() }
            }
            step += 1
            try sync()
            // Converged: another pass finds nothing to do.
            step += 1
            let again = try fixture.bridge(at: now).reconcile()
            #expect(again == DavReport(), "a pass after the last changed things: \(again); \(context)")
        }
    }

    @Test(arguments: [1, 2, 3, 4, 26, 1026] as [UInt64])
    func randomHistoriesConvergeAndLoseNothing(seed: UInt64) throws {
        let h = try History(seed: seed)
        defer { try? FileManager.default.removeItem(atPath: h.fixture.dir) }
        try h.run(steps: 60)
        #expect(!h.agreed.isEmpty, "seed \(seed): the history ends with tasks")
    }

    /// `TICK_DAV_ONE_HISTORIES` sets how many more histories run (default
    /// 1,000, the number issue 44 asks of every CI run).
    static var histories: UInt64 { UInt64(ProcessInfo.processInfo.environment["TICK_DAV_ONE_HISTORIES"] ?? "") ?? 1000 }

    @Test func aThousandHistoriesConvergeAndLoseNothing() throws {
        for seed in 2000..<(2000 + Self.histories) {
            let h = try History(seed: seed)
            defer { try? FileManager.default.removeItem(atPath: h.fixture.dir) }
            try h.run(steps: 60)
        }
    }
}
