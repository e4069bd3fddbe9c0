import FoundationEssentials
import Glibc

/// The task fields the CalDAV bridge carries, each with the iCalendar
/// properties that hold it (Docs/DAV.md's mapping table), how to compare two
/// tasks' values, copy one side's value, and write its properties.
public struct DavField: Sendable {
    /// The `changed` key (``TaskChange``); `tags` and `depends` stand for their per-item keys.
    public let key: String
    /// The VTODO properties (names) that hold it; `VALARM` for the reminder.
    let properties: [String]
    let equal: @Sendable (TaskItem, TaskItem) -> Bool
    let copy: @Sendable (inout TaskItem, TaskItem) -> Void
    let lines: @Sendable (TaskItem) -> [String]

    /// The `changed` keys a change of this field from `old` to `new` stamps.
    func changeKeys(from old: TaskItem, to new: TaskItem) -> [String] {
        switch key {
        case "tags": return Set(old.tags).symmetricDifference(new.tags).map(TaskChange.tagKey).sorted()
        case "depends": return Set(old.depends).symmetricDifference(new.depends).map(TaskChange.dependencyKey).sorted()
        default: return [key]
        }
    }

    /// When `task` last changed this field (for tags and dependencies: the
    /// latest change of the items that differ from `other`).
    func changeTime(of task: TaskItem, against other: TaskItem) -> Date {
        let keys = changeKeys(from: other, to: task)
        return keys.map(task.changeTime).max() ?? task.changeTime(key)
    }

    /// True when `entry` (a VTODO property) belongs to this field.
    func owns(_ name: String, params: [String: String]) -> Bool {
        guard properties.contains(name) else { return false }
        if name == "RELATED-TO" { return params["RELTYPE"]?.uppercased() == "DEPENDS-ON" }
        // A declared field's property names it (``DavMapping/userFieldProperty``).
        if name == DavMapping.userFieldProperty { return params["NAME"] == key }
        return true
    }
}

/// The VTODO codec's field table: every task field a VTODO carries, in the
/// order an item writes them. One table for both writers of VTODOs: the
/// CalDAV bridge (``newItem(for:now:)``, ``patch(_:from:to:now:)``) and the
/// iCalendar export (``ICalendarCodec/encode(_:context:)``).
public enum DavMapping {
    private static func text(_ s: String?) -> String? { s.flatMap { $0.isEmpty ? nil : $0 } }

    /// The string an unknown key of `task` holds.
    static func stringExtra(_ task: TaskItem, _ key: String) -> String? {
        for m in task.extra where m.key == key {
            if case .string(let s) = m.value.kind { return s }
        }
        return nil
    }

    /// Every mapped field, in the order a new item writes them: those with
    /// properties of iCalendar's (and the slot and the reminder, spelled
    /// their own way), with tick's own properties (``ownProperties``) before the slot.
    public static let fields: [DavField] = {
        let slot = spelled.firstIndex { $0.key == "slot" } ?? spelled.endIndex
        return Array(spelled[..<slot]) + ownProperties.map(\.field) + Array(spelled[slot...])
    }()

    /// tick's own properties: each field of the table that no entry of
    /// ``spelled`` holds, a register whose value is a CSV cell
    /// (``TaskField/cell``), goes as `X-TICK-<NAME>` holding that text
    /// (`X-TICK-WAIT`, `X-TICK-ENERGY`, `X-TICK-ESTIMATE`). A new field goes
    /// so with no code here; the iCalendar reader reads them back by the same list.
    static let ownProperties: [(property: String, field: DavField, cell: FieldCellCoding)] = TaskField.all.compactMap { field in
        guard field.mergeRule == .register, let key = field.changeKey, let cell = field.cell,
              !spelled.contains(where: { $0.key == key }) else { return nil }
        let property = "X-TICK-" + field.name.uppercased()
        let dav = DavField(
            key: key, properties: [property], equal: { !field.differs($0, $1) },
            copy: { task, from in
                let before = task
                field.applyChange(&task, before, from)
            },
            lines: { task in
                let text = cell.write(task)
                return text.isEmpty ? [] : [property + ":" + ICalendarCodec.escape(text)]
            })
        return (property, dav, cell)
    }

    /// The fields a VTODO holds in properties of iCalendar's, or spells its own way.
    private static let spelled: [DavField] = [
        DavField(key: "title", properties: ["SUMMARY"], equal: { $0.title == $1.title }, copy: { $0.title = $1.title },
                 lines: { ["SUMMARY:" + ICalendarCodec.escape($0.title)] }),
        DavField(key: "notes", properties: ["DESCRIPTION"], equal: { text($0.notes) == text($1.notes) }, copy: { $0.notes = text($1.notes) },
                 lines: { t in text(t.notes).map { ["DESCRIPTION:" + ICalendarCodec.escape($0)] } ?? [] }),
        DavField(key: "scheduled", properties: ["DTSTART"], equal: { $0.scheduled == $1.scheduled }, copy: { $0.scheduled = $1.scheduled },
                 lines: { t in t.scheduled.map { ["DTSTART;VALUE=DATE:" + ICalendarCodec.basic($0)] } ?? [] }),
        DavField(key: "due", properties: ["DUE"], equal: { $0.due == $1.due }, copy: { $0.due = $1.due },
                 lines: { t in
                     switch t.due {
                     case .day(let d): return ["DUE;VALUE=DATE:" + ICalendarCodec.basic(d)]
                     case .time(let d): return ["DUE:" + ICalendarCodec.stamp(d)]
                     case nil: return []
                     }
                 }),
        DavField(key: "state", properties: ["STATUS", "COMPLETED"],
                 equal: { a, b in a.state == b.state && (a.state != .done || a.completedAt == nil || b.completedAt == nil || a.completedAt == b.completedAt) },
                 copy: { $0.state = $1.state; $0.completedAt = $1.state == .done ? $1.completedAt : nil },
                 lines: { t in
                     switch t.state {
                     case .open: return ["STATUS:NEEDS-ACTION"]
                     case .active: return ["STATUS:IN-PROCESS"]
                     case .done:
                         // A task that came CANCELLED (from a file or the phone) goes back so.
                         let status = stringExtra(t, ICalendarCodec.statusKey) == "CANCELLED" ? "CANCELLED" : "COMPLETED"
                         return ["STATUS:" + status, "COMPLETED:" + ICalendarCodec.stamp(t.completedAt ?? t.modifiedAt)]
                     }
                 }),
        DavField(key: "priority", properties: ["PRIORITY"], equal: { $0.priority == $1.priority }, copy: { $0.priority = $1.priority },
                 lines: { t in
                     guard let p = t.priority else { return [] }
                     // The number it came with (1–9), while it still says the same priority.
                     var n = p == .must ? 1 : 5
                     if let stored = stringExtra(t, ICalendarCodec.priorityKey).flatMap(Int.init), (stored <= 4) == (p == .must), (1...9).contains(stored) { n = stored }
                     return ["PRIORITY:\(n)"]
                 }),
        DavField(key: "tags", properties: ["CATEGORIES"], equal: { Set($0.tags) == Set($1.tags) }, copy: { $0.tags = $1.tags },
                 lines: { t in t.tags.isEmpty ? [] : ["CATEGORIES:" + t.tags.map(ICalendarCodec.escape).joined(separator: ",")] }),
        DavField(key: "repeat", properties: ["RRULE", "X-TICK-REPEAT"], equal: { RRuleMapping.sameRule($0.repeatRule, $1.repeatRule) },
                 copy: { $0.repeatRule = $1.repeatRule },
                 lines: { t in t.repeatRule.map(RRuleMapping.lines(for:)) ?? [] }),
        DavField(key: "depends", properties: ["RELATED-TO"], equal: { Set($0.depends) == Set($1.depends) }, copy: { $0.depends = $1.depends },
                 lines: { $0.depends.map { "RELATED-TO;RELTYPE=DEPENDS-ON:" + $0.lowercased } }),
        DavField(key: "slot", properties: ["X-TICK-SLOT"], equal: { $0.slot == $1.slot }, copy: { $0.slot = $1.slot },
                 lines: { t in t.slot.map { ["X-TICK-SLOT:\($0.startString)/\($0.minutes)"] } ?? [] }),
        DavField(key: "remind", properties: ["VALARM"], equal: { $0.remind == $1.remind }, copy: { $0.remind = $1.remind },
                 lines: { t in
                     guard let r = t.remind else { return [] }
                     return ["BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Reminder", "TRIGGER;VALUE=DATE-TIME:" + ICalendarCodec.stamp(r), "END:VALARM"]
                 }),
    ]

    /// The fields whose values differ between `a` and `b`.
    public static func differences(_ a: TaskItem, _ b: TaskItem, declared: UserFields = UserFields()) -> [DavField] {
        fields(declared).filter { !$0.equal(a, b) }
    }

    /// True when every mapped field is equal.
    public static func same(_ a: TaskItem, _ b: TaskItem, declared: UserFields = UserFields()) -> Bool {
        differences(a, b, declared: declared).isEmpty
    }

    /// The UID an item for `task` has: the one it came with, else its id.
    static func uid(of task: TaskItem) -> String {
        for m in task.extra where m.key == ICalendarCodec.uidKey {
            if case .string(let s) = m.value.kind, UUID(fastString: s) == task.id || UUID(name: "ical:" + s) == task.id { return s }
        }
        return task.id.lowercased
    }

    /// A new item for `task`.
    public static func newItem(for task: TaskItem, now: Date, declared: UserFields = UserFields()) -> [UInt8] {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//tick//tick//EN", "BEGIN:VTODO", "UID:" + uid(of: task),
                     "DTSTAMP:" + ICalendarCodec.stamp(now), "CREATED:" + ICalendarCodec.stamp(task.createdAt),
                     "LAST-MODIFIED:" + ICalendarCodec.stamp(now)]
        for field in fields(declared) { lines += field.lines(task) }
        lines += ["END:VTODO", "END:VCALENDAR"]
        return Array(lines.map(ICalendarCodec.fold).joined().utf8)
    }

    /// True when `item` carries `rule` the way tick wrote it before rules went
    /// out as RRULEs (an `X-TICK-REPEAT` alone, without the RRULE it was
    /// written with) although RFC 5545 can express it: such an item is
    /// rewritten once so that phones see the rule (Docs/DAV.md).
    static func needsRRule(_ item: DavItem, rule: String?) -> Bool {
        guard let rule, RRuleMapping.rrule(forTickRule: rule) != nil else { return false }
        let props = item.todoProperties
        guard !props.contains(where: { $0.name == "RRULE" }), let repeatLine = props.first(where: { $0.name == "X-TICK-REPEAT" }) else { return false }
        return repeatLine.params[RRuleMapping.rruleParameter] == nil
    }

    /// `item` changed to describe `task`: the properties of the fields that
    /// differ from `old` (the task the item describes now) are replaced in
    /// place (new ones go before `END:VTODO`), LAST-MODIFIED and DTSTAMP are
    /// set to `now`, and every other line is kept as it was, folding included.
    /// Returns the item's bytes unchanged when no mapped field differs, unless
    /// `touch` (a move to another calendar: the copy written there is a change
    /// with its time, so no end takes it for an older copy).
    public static func patch(_ item: DavItem, from old: TaskItem, to task: TaskItem, now: Date, declared: UserFields = UserFields(),
                             touch: Bool = false) -> [UInt8] {
        var changed = differences(old, task, declared: declared)
        if !changed.contains(where: { $0.key == "repeat" }), needsRRule(item, rule: task.repeatRule), let field = fields.first(where: { $0.key == "repeat" }) {
            changed.append(field)
        }
        guard !changed.isEmpty || touch else { return item.bytes }
        let entries = item.entries
        func raw(_ lines: [String]) -> String {
            let text = lines.map(ICalendarCodec.fold).joined()
            return item.lineEnd == "\r\n" ? text : text.replacingAll("\r\n", with: item.lineEnd)
        }
        func entry(_ raw: String) -> DavItem.Entry {
            DavItem.Entry(raw: raw, name: "", params: [:], value: "", path: ["VCALENDAR", "VTODO"], line: 0)
        }
        let todo = ["VCALENDAR", "VTODO"]
        // Marks: entries to drop, and text to put at an index.
        var drop = Set<Int>()
        var insert: [Int: String] = [:]
        guard let end = entries.lastIndex(where: { $0.name == "END" && $0.path == ["VCALENDAR"] && $0.value.uppercased() == "VTODO" }) else { return item.bytes }
        var atEnd = ""
        for field in changed {
            var first: Int?
            if field.key == "remind" {
                // The first alarm with a trigger is the one tick reads; others are kept.
                let alarm = item.alarmRanges.first { range in entries[range].contains { $0.name == "TRIGGER" } }
                if let alarm, let r = task.remind {
                    // Moved: only its TRIGGER is replaced (and an ACKNOWLEDGED of the old
                    // time dropped, so the new one rings); its UID, X-WR-ALARMUID, ACTION
                    // and every other line stay as the phone wrote them.
                    let own = ["VCALENDAR", "VTODO", "VALARM"]
                    for i in alarm where entries[i].path == own && (entries[i].name == "TRIGGER" || entries[i].name == "ACKNOWLEDGED") {
                        if entries[i].name == "TRIGGER", first == nil { first = i }
                        drop.insert(i)
                    }
                    if let first { insert[first, default: ""] += raw(["TRIGGER;VALUE=DATE-TIME:" + ICalendarCodec.stamp(r)]) }
                    continue
                }
                if let alarm {
                    first = alarm.lowerBound
                    for i in alarm { drop.insert(i) }
                }
            } else {
                for (i, e) in entries.enumerated() where e.path == todo && e.name != "BEGIN" && e.name != "END" && field.owns(e.name, params: e.params) {
                    if first == nil { first = i }
                    drop.insert(i)
                }
            }
            let text = raw(field.lines(task))
            guard !text.isEmpty else { continue }
            if let first { insert[first, default: ""] += text } else { atEnd += text }
        }
        for (i, e) in entries.enumerated() where e.path == todo && (e.name == "LAST-MODIFIED" || e.name == "DTSTAMP") {
            drop.insert(i)
            insert[i, default: ""] += raw([e.name + ":" + ICalendarCodec.stamp(now)])
        }
        if !entries.contains(where: { $0.path == todo && $0.name == "LAST-MODIFIED" }) {
            atEnd = raw(["LAST-MODIFIED:" + ICalendarCodec.stamp(now)]) + atEnd
        }
        var out: [DavItem.Entry] = []
        for (i, e) in entries.enumerated() {
            if i == end, !atEnd.isEmpty { out.append(entry(atEnd)) }
            if let text = insert[i] { out.append(entry(text)) }
            if !drop.contains(i) { out.append(e) }
        }
        return Array(out.map(\.raw).joined().utf8)
    }
}
