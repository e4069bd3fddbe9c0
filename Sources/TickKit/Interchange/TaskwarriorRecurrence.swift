import FoundationEssentials
import Glibc

/// Recurrence between tick's `repeat` rules and Taskwarrior's `recur`.
///
/// Taskwarrior 2.6 repeats by a duration from the due date (`daily`,
/// `weekdays`, `weekly`, `monthly`, `yearly`, `2w`, `3mo`, ...) and only a
/// task with a due date: `task import` crashes (SIGSEGV) on a `recur` without
/// `due`, and on a value it has no word for (`mon,thu`, `annually`). So export
/// writes `recur` only for an open task with a due date whose rule Taskwarrior
/// can say exactly; every other rule goes in `tickrepeat` (an orphan UDA to
/// Taskwarrior, kept by it and read back by tick).
///
/// Taskwarrior turns a recurring task into a template (`status: recurring`)
/// and instances (`parent: <template uuid>`). On import, a template and its
/// pending instance become one tick task with the template's id (the id tick
/// exported) and creation time, and the instance's other fields (its due
/// date, state, wait); completed instances are imported as done tasks without
/// a rule. A template without a pending instance is imported as it is (its
/// `status: recurring` and `mask` kept, and written back with its `recur`).
/// Export writes a repeating task as such a series, template and one instance
/// (``TaskwarriorCodec/records(for:project:context:)``). What a joined series
/// had that tick would not write the same (the instance's uuid and `imask`,
/// the template's `mask` and `due`) is kept in `x-taskwarrior-tick-series`
/// and written back, so that `task import` into the same data updates the
/// series instead of making its instances again.
enum TaskwarriorRecurrence {
    /// The key (after `x-taskwarrior-`) that keeps a series' parts: an object with
    /// `instance` (uuid), `imask`, `mask` and `due`, each only when it is not what tick
    /// writes by itself. Not a Taskwarrior attribute, never exported as one.
    static let seriesKey = "tick-series"
    /// The task's unknown key that holds it (`x-taskwarrior-tick-series`).
    static let extraKey = TaskwarriorCodec.prefix + seriesKey

    /// The parts a task keeps of its series (``seriesKey``), by name; empty for none.
    static func keptParts(of task: TaskItem) -> [String: JSONNode] {
        guard case .object(let parts)? = task.extra.first(where: { $0.key == extraKey })?.value.kind else { return [:] }
        return Dictionary(parts.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    /// The uuid of the instance tick writes for the series `template` when it kept none.
    static func instanceID(forTemplate template: UUID) -> UUID {
        UUID(name: "tick-taskwarrior-instance:" + template.lowercased)
    }

    /// Taskwarrior's `recur` for a tick rule, or nil when it has no exact word for it.
    static func taskwarriorRecur(for rule: String) -> String? {
        guard let parsed = try? RecurrenceRule.parse(rule) else { return nil }
        switch parsed.kind {
        case .every(1, .day): return "daily"
        case .every(1, .week): return "weekly"
        case .every(1, .month): return "monthly"
        case .every(1, .year): return "yearly"
        case .every(let n, .day): return "\(n)d"
        case .every(let n, .week): return "\(n)w"
        case .every(let n, .month): return "\(n)mo"
        case .every(let n, .year): return "\(n)y"
        case .onWeekdays(let days) where days == [1, 2, 3, 4, 5]: return "weekdays"
        case .onWeekdays, .afterCompletion: return nil
        }
    }

    /// tick's rule for a Taskwarrior `recur`, or nil when tick has none.
    static func tickRule(forTaskwarrior recur: String) -> String? {
        let word = recur.lowercased().trimmingWhitespace()
        let named: [String: String] = [
            "daily": "daily", "day": "daily", "weekdays": "weekdays", "weekly": "weekly", "week": "weekly",
            "monthly": "monthly", "month": "monthly", "yearly": "yearly", "year": "yearly", "annual": "yearly", "annually": "yearly",
            "biweekly": "every 2w", "fortnight": "every 2w", "bimonthly": "every 2m", "quarterly": "every 3m",
            "semiannual": "every 6m", "biannual": "every 2y", "biyearly": "every 2y",
        ]
        if let rule = named[word] { return rule }
        // N + unit: 2d, 3 days, 2w, 2wk, 3mo, 3months, 2y, 1yr, 2q.
        let digits = word.prefix { $0.isASCII && $0.isNumber }
        guard let n = Int(digits), n >= 1 else { return nil }
        let unit = word.dropFirst(digits.count).trimmingWhitespace()
        let units: [String: (Int, String)] = [
            "d": (1, "d"), "day": (1, "d"), "days": (1, "d"),
            "w": (1, "w"), "wk": (1, "w"), "wks": (1, "w"), "week": (1, "w"), "weeks": (1, "w"),
            "mo": (1, "m"), "mos": (1, "m"), "mth": (1, "m"), "mths": (1, "m"), "month": (1, "m"), "months": (1, "m"),
            "q": (3, "m"), "qtr": (3, "m"), "qtrs": (3, "m"), "quarter": (3, "m"), "quarters": (3, "m"),
            "y": (1, "y"), "yr": (1, "y"), "yrs": (1, "y"), "year": (1, "y"), "years": (1, "y"),
        ]
        guard let (factor, u) = units[unit], n * factor <= RecurrenceRule.maxCount else { return nil }
        let rule = "every \(n * factor)\(u)"
        return (try? RecurrenceRule.parse(rule)) == nil ? nil : rule
    }

    /// One record of a Taskwarrior file and the line it starts on.
    typealias Record = (node: JSONNode, line: Int)

    /// Joins each recurring template with its pending instance into one
    /// record (the template's uuid, the instance's fields), drops the other
    /// pending instances of the series, and strips `recur` from completed
    /// instances. Records outside a series pass unchanged, in order.
    static func joinSeries(_ records: [Record]) -> [Record] {
        func members(_ node: JSONNode) -> [JSONMember]? {
            if case .object(let ms) = node.kind { return ms }
            return nil
        }
        func string(_ ms: [JSONMember], _ key: String) -> String? {
            if case .string(let s)? = ms.first(where: { $0.key == key })?.value.kind { return s }
            return nil
        }
        var templates: [String: Int] = [:]
        for (i, record) in records.enumerated() {
            guard let ms = members(record.node), string(ms, "status") == "recurring", let uuid = string(ms, "uuid") else { continue }
            templates[uuid.lowercased()] = i
        }
        guard !templates.isEmpty else { return records }
        // The current instance of each series: the pending (or waiting) one due first.
        var current: [String: Int] = [:]
        for (i, record) in records.enumerated() {
            guard let ms = members(record.node), let parent = string(ms, "parent")?.lowercased(), templates[parent] != nil,
                  ["pending", "waiting"].contains(string(ms, "status") ?? "pending") else { continue }
            if let j = current[parent], let other = members(records[j].node),
               (string(other, "due") ?? "") <= (string(ms, "due") ?? "") { continue }
            current[parent] = i
        }
        let seriesKeys: Set<String> = ["parent", "imask", "mask", "rtype", "uuid", "id", "urgency"]
        var out: [Record] = []
        for record in records {
            guard let ms = members(record.node) else {
                out.append(record)
                continue
            }
            if let parent = string(ms, "parent")?.lowercased(), templates[parent] != nil {
                let status = string(ms, "status") ?? "pending"
                if status == "completed" {
                    // A past occurrence: a done task, not another series.
                    out.append((JSONNode(.object(ms.filter { $0.key != "recur" })), record.line))
                } else if status == "deleted" {
                    out.append(record)
                }
                // Pending instances are folded into their template below.
                continue
            }
            guard string(ms, "status") == "recurring", let uuid = string(ms, "uuid") else {
                out.append(record)
                continue
            }
            guard let c = current[uuid.lowercased()], let instance = members(records[c].node) else {
                // No pending instance (none was made yet): the template itself, as it is.
                out.append(record)
                continue
            }
            // The series' id and creation time; the current occurrence's state and dates.
            var joined = ms.filter { $0.key == "uuid" || $0.key == "entry" }
            joined += instance.filter { !seriesKeys.contains($0.key) && $0.key != "entry" }
            // What an export needs to update this series in Taskwarrior rather than add to it.
            var kept: [JSONMember] = []
            if let made = string(instance, "uuid").flatMap(UUID.init(uuidString:)), let series = UUID(uuidString: uuid),
               made != instanceID(forTemplate: series) {
                kept.append(JSONMember("instance", .string(made.lowercased)))
            }
            if let imask = instance.first(where: { $0.key == "imask" })?.value, case .number(let n) = imask.kind, Double(n) != 0 {
                kept.append(JSONMember("imask", JSONNode(.number(n))))
            }
            if let mask = string(ms, "mask"), mask != "-" { kept.append(JSONMember("mask", .string(mask))) }
            if let due = string(ms, "due"), due != string(instance, "due") { kept.append(JSONMember("due", .string(due))) }
            if !kept.isEmpty { joined.append(JSONMember(seriesKey, .object(kept))) }
            // The template's rule and dates where the instance lacks them.
            for m in ms where !seriesKeys.contains(m.key) && m.key != "status" && !joined.contains(where: { $0.key == m.key }) {
                joined.append(m)
            }
            out.append((JSONNode(.object(joined)), records[c].line))
        }
        return out
    }
}
