import FoundationEssentials
import Glibc


/// Taskwarrior's `task export` / `task import` JSON (see Docs/INTERCHANGE.md).
///
/// Reads a JSON array of task objects or one object per line; writes a JSON
/// array, one task per line, that `task import` accepts.
public enum TaskwarriorCodec: InterchangeCodec {
    /// Prefix of the tick keys that keep Taskwarrior fields tick has no field for.
    static let prefix = "x-taskwarrior-"

    /// Fields handled on import; anything else is kept as `x-taskwarrior-<name>`.
    private static let mapped: Set<String> = Set([
        "uuid", "description", "project", "tags", "due", "scheduled", "wait", "status", "start",
        "entry", "modified", "end", "annotations", "priority", "recur", "id", "urgency",
        "tickremind", "tickrepeat", "depends",
    ] + ownTextAttributes.map(\.key))

    /// tick's own attributes that hold their value as text (`tickenergy`,
    /// `tickestimate`): each field of the table whose hook key is `tick` +
    /// its name and whose value is a CSV cell (``TaskField/cell``), which
    /// gives the text. A new field Taskwarrior has no attribute for goes so
    /// with no code here. `tickremind` (a Taskwarrior date) and `tickrepeat`
    /// (read with `recur`) are written and read by hand.
    static let ownTextAttributes: [(key: String, coding: FieldCellCoding)] = TaskField.all.compactMap { field in
        guard let key = field.hookKey, key == "tick" + field.name, let cell = field.cell,
              ![.instant, .dayOrTime, .day].contains(field.kind) else { return nil }
        return (key, cell)
    }

    // MARK: Decoding

    public static func decode(_ bytes: [UInt8], context: InterchangeContext) throws(ImportError) -> [TaskFile] {
        var records: [(node: JSONNode, line: Int)] = []
        var body = bytes
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body.removeFirst(3) }
        let firstByte = body.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        if firstByte == UInt8(ascii: "[") {
            let root: JSONNode
            do {
                root = try JSONParser.parse(body)
            } catch {
                throw ImportError(path: context.path, line: SourceLocation(offset: error.offset, in: body).line, message: error.message)
            }
            guard case .array(let items) = root.kind else {
                throw ImportError(path: context.path, line: 1, message: "expected a JSON array of tasks")
            }
            // Line numbers of the records in one pass (offsets only grow), not one scan per record.
            var line = 1
            var position = 0
            for item in items {
                let end = min(max(item.offset, position), body.count)
                while position < end {
                    if body[position] == 0x0A { line += 1 }
                    position += 1
                }
                records.append((item, line))
            }
        } else {
            // One JSON object per line (what `task export` wrote before 2.5, and `task export` with rc.json.array=off).
            var lineNumber = 0
            for rawLine in body.split(separator: 0x0A, omittingEmptySubsequences: false) {
                lineNumber += 1
                var line = Array(rawLine)
                while let last = line.last, [0x20, 0x09, 0x0D].contains(last) { line.removeLast() }
                while let last = line.last, last == UInt8(ascii: ",") { line.removeLast() }
                if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
                do {
                    records.append((try JSONParser.parse(line), lineNumber))
                } catch {
                    throw ImportError(path: context.path, line: lineNumber, message: error.message)
                }
            }
        }

        // A recurring template and its pending instance are one tick task.
        records = TaskwarriorRecurrence.joinSeries(records)
        var grouper = ImportGrouper(now: context.now, inboxID: UUID(name: "tick-list:inbox"), listIDPrefix: "tick-import-list:")
        for (node, line) in records {
            func fail(_ message: String) -> ImportError { ImportError(path: context.path, line: line, message: message) }
            guard case .object(let members) = node.kind else { throw fail("expected a task object, found \(node.typeName)") }
            var fields: [String: JSONNode] = [:]
            for m in members { fields[m.key] = m.value }
            func string(_ key: String) throws(ImportError) -> String? {
                guard let v = fields[key] else { return nil }
                switch v.kind {
                case .null: return nil
                case .string(let s): return s.isEmpty ? nil : s
                default: throw fail("\"\(key)\" must be a string, found \(v.typeName)")
                }
            }
            func date(_ key: String) throws(ImportError) -> Date? {
                guard let text = try string(key) else { return nil }
                guard let d = parseDate(text) else { throw fail("\"\(key)\" is not a Taskwarrior date (YYYYMMDDTHHMMSSZ): \"\(text)\"") }
                return d
            }

            let status = try string("status") ?? "pending"
            switch status {
            case "pending", "completed", "waiting", "recurring": break
            case "deleted": continue
            default: throw fail("unknown status \"\(status)\"")
            }
            guard let title = try string("description"), !title.allSatisfy(\.isWhitespace) else {
                throw fail("a task needs a \"description\"")
            }
            var extra: [JSONMember] = []
            let id: UUID
            if let text = try string("uuid") {
                guard let u = UUID(uuidString: text) else { throw fail("\"uuid\" is not a UUID: \"\(text)\"") }
                id = u
            } else {
                id = UUID(name: "tick-taskwarrior:\(try string("project") ?? "")\n\(title)\n\(try string("entry") ?? "")")
            }
            let entry = try date("entry") ?? context.now
            let modified = try date("modified") ?? entry
            var task = TaskItem(id: id, title: title, createdAt: entry, modifiedAt: modified)

            let start = try string("start")
            if let start {
                guard parseDate(start) != nil else { throw fail("\"start\" is not a Taskwarrior date: \"\(start)\"") }
            }
            switch status {
            case "completed":
                task.state = .done
                task.completedAt = try date("end") ?? modified
            default:
                task.state = start != nil ? .active : .open
                // `waiting` follows from `wait`, which is a field of its own.
                if status != "pending" && status != "waiting" { extra.append(JSONMember(prefix + "status", .string(status))) }
                if let end = try string("end") { extra.append(JSONMember(prefix + "end", .string(end))) }
            }
            // Export writes an active task's `start` as its `modifiedAt` when it keeps none:
            // that one is not kept, so tick's own export comes back unchanged.
            if let start, !(task.state == .active && parseDate(start) == modified) {
                extra.append(JSONMember(prefix + "start", .string(start)))
            }

            if let due = try date("due") {
                let day = LocalDate(date: due, timeZone: context.timeZone)
                task.due = day.startOfDay(in: context.timeZone) == due ? .day(day) : .time(due)
            }
            if let text = try string("scheduled") {
                guard let s = parseDate(text) else { throw fail("\"scheduled\" is not a Taskwarrior date: \"\(text)\"") }
                let day = LocalDate(date: s, timeZone: context.timeZone)
                task.scheduled = day
                if day.startOfDay(in: context.timeZone) != s { extra.append(JSONMember(prefix + "scheduled", .string(text))) }
            }
            if let text = try string("wait") {
                guard let wait = parseDate(text) else { throw fail("\"wait\" is not a Taskwarrior date: \"\(text)\"") }
                let day = LocalDate(date: wait, timeZone: context.timeZone)
                task.wait = day.startOfDay(in: context.timeZone) == wait ? .day(day) : .time(wait)
            }
            // Taskwarrior 2.6 writes `depends` as one comma-separated string, 3.x as an array.
            if let node = fields["depends"] {
                var texts: [String] = []
                switch node.kind {
                case .null: break
                case .string(let s): texts = s.split(separator: ",").map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
                case .array(let items):
                    for item in items {
                        guard case .string(let s) = item.kind else { throw fail("\"depends\" must hold UUID strings, found \(item.typeName)") }
                        texts.append(s)
                    }
                default: throw fail("\"depends\" must be a comma-separated string or an array of UUIDs, found \(node.typeName)")
                }
                for text in texts {
                    guard let dep = UUID(uuidString: text) else { throw fail("\"depends\" holds \"\(text)\", which is not a UUID") }
                    if dep != id { task.addDependency(dep) }
                }
            }
            if let remind = try date("tickremind") { task.remind = remind }
            for (key, coding) in ownTextAttributes {
                guard let text = try string(key) else { continue }
                if let problem = coding.read(&task, text, "\"\(key)\"") { throw fail(problem.message) }
            }
            // tick's own rule (`tickrepeat`) when Taskwarrior's `recur` still says the same.
            let recur = try string("recur")
            let tickRule = try string("tickrepeat")
            if let tickRule, (try? RecurrenceRule.parse(tickRule)) != nil,
               recur == nil || TaskwarriorRecurrence.taskwarriorRecur(for: tickRule) == recur {
                task.repeatRule = tickRule
            } else {
                if let tickRule { extra.append(JSONMember(prefix + "tickrepeat", .string(tickRule))) }
                if let recur {
                    if let rule = TaskwarriorRecurrence.tickRule(forTaskwarrior: recur) {
                        task.repeatRule = rule
                    } else {
                        // No tick word for it: kept, and written back while the task has a due date.
                        extra.append(JSONMember(prefix + "recur", .string(recur)))
                    }
                }
            }
            if let p = try string("priority") {
                // One reading of Taskwarrior's priorities (add, edit, filters, import).
                guard let priority = Priority.taskwarrior(p) else { throw fail("unknown priority \"\(p)\" (expected H, M or L)") }
                task.priority = priority
                // tick has no medium: M is kept for the way back.
                if ["m", "medium", "med"].contains(p.lowercased()) { extra.append(JSONMember(prefix + "priority", .string("M"))) }
            }
            if let tagsNode = fields["tags"] {
                switch tagsNode.kind {
                case .null: break
                case .array(let items):
                    for item in items {
                        guard case .string(let tag) = item.kind else { throw fail("\"tags\" must hold strings, found \(item.typeName)") }
                        if let problem = TagRules.problem(with: tag) { throw fail(problem) }
                        task.addTag(tag)
                    }
                case .string(let s):
                    // Some tools write tags as one comma-separated string.
                    for tag in s.split(separator: ",").map(String.init) where !tag.isEmpty {
                        if let problem = TagRules.problem(with: tag) { throw fail(problem) }
                        task.addTag(tag)
                    }
                default: throw fail("\"tags\" must be an array of strings, found \(tagsNode.typeName)")
                }
            }
            if let annNode = fields["annotations"], !isNull(annNode) {
                guard case .array(let items) = annNode.kind else {
                    throw fail("\"annotations\" must be an array, found \(annNode.typeName)")
                }
                var lines: [String] = []
                // An annotation is a dated notes line (`2026-11-24 11:00 TEXT`, ``Annotation``);
                // one dated before its task's `entry`, which Taskwarrior never makes, is an
                // undated notes line of tick's export again.
                for item in items {
                    guard case .object(let ms) = item.kind,
                          let d = ms.first(where: { $0.key == "description" }), case .string(let text) = d.value.kind
                    else { throw fail("each annotation needs a \"description\" string") }
                    var at: Date?
                    if let e = ms.first(where: { $0.key == "entry" }), case .string(let et) = e.value.kind {
                        guard let parsed = parseDate(et) else { throw fail("annotation \"entry\" is not a Taskwarrior date: \"\(et)\"") }
                        at = parsed
                    }
                    let oneLine = !text.isEmpty && !text.contains("\n")
                    if oneLine, ms.count == 2, let at, at < entry {
                        lines.append(text)
                        continue
                    }
                    if oneLine, let at {
                        lines.append(Annotation(at: at, text: text).line(in: context.timeZone))
                    } else {
                        lines.append(text)
                    }
                }
                if !lines.isEmpty {
                    let notes = lines.joined(separator: "\n")
                    task.notes = notes
                    // Kept when export would not write them back the same (Taskwarrior's own
                    // seconds, other keys, a line break in one).
                    if !sameAnnotations(annotations(for: notes, createdAt: entry, kept: nil, timeZone: context.timeZone), items) {
                        extra.append(JSONMember(prefix + "annotations", annNode))
                    }
                }
            }
            // Taskwarrior 2.6 exports a tag holding `:` (`k:v`) with a stray `"v": "x"` (its
            // internal `tag_k:v` attribute cut at the last colon): not data, so not kept.
            let strays = Set(task.tags.compactMap { t in t.lastIndex(of: ":").map { String(t[t.index(after: $0)...]) } })
            for m in members where !mapped.contains(m.key) {
                if strays.contains(m.key), case .string("x") = m.value.kind { continue }
                // A declared field's UDA is the field (typed when it comes back the same); any other is kept.
                if let field = context.fields[m.key], field.name == m.key, !isNull(m.value) {
                    extra.append(JSONMember(m.key, TaskwarriorUDA.stored(m.value, for: field, timeZone: context.timeZone)))
                } else {
                    extra.append(JSONMember(prefix + m.key, m.value))
                }
            }
            // A task exported from tick keeps its unknown keys when they come back verbatim.
            task.extra = extra.map { JSONMember($0.key, stripOffsets($0.value)) }
            let project = try string("project")
            if let problem = TextRules.importProblem(title: task.title, notes: task.notes, list: project) { throw fail(problem) }
            try ImportDateCheck.check(task, path: context.path, line: line)
            grouper.add(task, list: project)
        }
        return grouper.files
    }

    private static func isNull(_ node: JSONNode) -> Bool {
        if case .null = node.kind { return true }
        return false
    }

    /// `20261121T090000Z` (Taskwarrior's format); ISO 8601 forms are accepted too.
    static func parseDate(_ text: String) -> Date? {
        let b = Array(text.utf8)
        if b.count == 16, b[8] == UInt8(ascii: "T"), b[15] == UInt8(ascii: "Z") {
            let s = String(decoding: b[0..<4], as: UTF8.self) + "-" + String(decoding: b[4..<6], as: UTF8.self) + "-"
                + String(decoding: b[6..<8], as: UTF8.self) + "T" + String(decoding: b[9..<11], as: UTF8.self) + ":"
                + String(decoding: b[11..<13], as: UTF8.self) + ":" + String(decoding: b[13..<15], as: UTF8.self) + "Z"
            return Timestamp.parse(s)
        }
        if let epoch = Int(text), (9...11).contains(text.count) { return Date(timeIntervalSince1970: TimeInterval(epoch)) }
        return Timestamp.parse(text)
    }

    /// `20261121T090000Z`.
    static func formatDate(_ date: Date) -> String {
        let iso = Timestamp.format(date) // 2026-11-21T09:00:00Z
        return iso.filter { $0 != "-" && $0 != ":" }
    }

    private static func stripOffsets(_ node: JSONNode) -> JSONNode {
        switch node.kind {
        case .array(let items): return .array(items.map(stripOffsets))
        case .object(let ms): return .object(ms.map { JSONMember($0.key, stripOffsets($0.value)) })
        default: return JSONNode(node.kind)
        }
    }

    // MARK: Encoding

    public static func encode(_ files: [TaskFile], context: InterchangeContext) -> [UInt8] {
        var out: [UInt8] = Array("[\n".utf8)
        var first = true
        let chain = TaskwarriorChain(files.lazy.flatMap(\.tasks), removed: Set(files.flatMap { $0.deleted.map(\.id) }))
        for file in files {
            for task in file.tasks {
                for record in records(for: task, project: file.kind == .inbox ? nil : file.displayName, context: context, chain: chain) {
                    if !first { out.append(contentsOf: Array(",\n".utf8)) }
                    first = false
                    writeCompact(record, into: &out)
                }
            }
        }
        out.append(contentsOf: Array((first ? "]\n" : "\n]\n").utf8))
        return out
    }

    /// The Taskwarrior records of one task. A repeating open task that gets a `recur` is a
    /// series, as Taskwarrior keeps one: its template (the task's uuid, `status: recurring`,
    /// `mask: "-"`: the first instance is made) and that pending instance (`parent`,
    /// `imask: 0`, a uuid derived from the task's), so that `task import` makes no second
    /// instance. A series that came from Taskwarrior gets back its instance's uuid and
    /// `imask` and its template's `mask` and `due` (``TaskwarriorRecurrence/seriesKey``).
    /// A task completed in tick whose next occurrence is at hand, and that next
    /// occurrence, are parts of one series (``TaskwarriorChain``): the done one is a
    /// completed instance, the open one the pending instance of the first's template.
    /// Any other task is one record (``node(for:project:context:)``).
    static func records(for task: TaskItem, project: String?, context: InterchangeContext,
                        chain: TaskwarriorChain = TaskwarriorChain([])) -> [JSONNode] {
        let single = node(for: task, project: project, context: context)
        if chain.hasNext(task) { return [completedInstance(single, of: task, chain: chain)] }
        if chain.endsSeries(task), let ended = endedSeries(single, of: task, chain: chain) { return ended }
        guard case .object(let ms) = single.kind, ms.contains(where: { $0.key == "recur" }),
              let s = ms.firstIndex(where: { $0.key == "status" }), case .string(let status) = ms[s].value.kind,
              status == "pending" || status == "waiting"
        else { return [single] }
        // A later occurrence's template is its chain's first; what the first kept
        // from Taskwarrior (copied to each next occurrence) is the first's alone.
        let series = chain.seriesID(of: task) ?? task.id
        let kept = series == task.id ? TaskwarriorRecurrence.keptParts(of: task) : [:]
        func keptString(_ key: String) -> String? {
            if case .string(let text)? = kept[key]?.kind { return text }
            return nil
        }
        func replacing(_ members: [JSONMember], _ key: String, with value: JSONNode) -> [JSONMember] {
            members.map { $0.key == key ? JSONMember(key, value) : $0 }
        }
        var template = replacing(ms.filter { $0.key != "start" }, "status", with: .string("recurring"))
        if let due = keptString("due") { template = replacing(template, "due", with: .string(due)) }
        template += [JSONMember("mask", .string(keptString("mask") ?? "-")), JSONMember("rtype", .string("periodic"))]
        template = replacing(template, "uuid", with: .string(series.lowercased))
        var instance = replacing(ms, "uuid", with: .string(chain.instanceID(of: task).lowercased))
        var imask = JSONNode(.number("0"))
        if let n = kept["imask"], case .number = n.kind { imask = n }
        instance += [
            JSONMember("parent", .string(series.lowercased)), JSONMember("imask", imask), JSONMember("rtype", .string("periodic")),
        ]
        return [.object(template), .object(instance)]
    }

    /// A done occurrence that ends its series (no next one at hand), as the
    /// series' template, deleted (Taskwarrior's way to stop a series: it makes
    /// no more instances), and this occurrence as its completed instance; nil
    /// when Taskwarrior has no word for its rule or it has no due date.
    static func endedSeries(_ single: JSONNode, of task: TaskItem, chain: TaskwarriorChain) -> [JSONNode]? {
        let instance = completedInstance(single, of: task, chain: chain)
        guard case .object(let ms) = instance.kind, let recur = ms.first(where: { $0.key == "recur" }) else { return nil }
        let series = chain.seriesID(of: task) ?? task.id
        let parts: Set<String> = ["uuid", "status", "recur", "parent", "imask", "rtype"]
        let template = [JSONMember("uuid", .string(series.lowercased)), JSONMember("status", .string("deleted"))]
            + ms.filter { !parts.contains($0.key) }
            + [recur, JSONMember("mask", .string("+")), JSONMember("rtype", .string("periodic"))]
        return [.object(template), instance]
    }

    /// A done occurrence whose next one is at hand, as its series' completed
    /// instance (`parent`, `imask`, `recur`); as a plain completed task when
    /// Taskwarrior has no word for its rule or it has no due date (no series).
    static func completedInstance(_ single: JSONNode, of task: TaskItem, chain: TaskwarriorChain) -> JSONNode {
        guard case .object(var ms) = single.kind, task.due != nil,
              let rule = task.repeatRule, let recur = TaskwarriorRecurrence.taskwarriorRecur(for: rule) else { return single }
        let series = chain.seriesID(of: task) ?? task.id
        var imask = JSONNode(.number("0"))
        if series == task.id, let n = TaskwarriorRecurrence.keptParts(of: task)["imask"], case .number = n.kind { imask = n }
        ms = ms.map { $0.key == "uuid" ? JSONMember("uuid", .string(chain.instanceID(of: task).lowercased)) : $0 }
        if TaskwarriorRecurrence.tickRule(forTaskwarrior: recur) == rule { ms.removeAll { $0.key == "tickrepeat" } }
        ms += [
            JSONMember("recur", .string(recur)), JSONMember("parent", .string(series.lowercased)),
            JSONMember("imask", imask), JSONMember("rtype", .string("periodic")),
        ]
        return .object(ms)
    }

    /// The Taskwarrior object for one task (a hook's line; a series' instance, see ``records(for:project:context:)``).
    static func node(for task: TaskItem, project: String?, context: InterchangeContext) -> JSONNode {
        var kept: [String: JSONNode] = [:]
        for m in task.extra where m.key.hasPrefix(prefix) { kept[String(m.key.dropFirst(prefix.count))] = m.value }
        func keptString(_ key: String) -> String? {
            if case .string(let s)? = kept[key]?.kind { return s }
            return nil
        }
        var ms: [JSONMember] = []
        func put(_ key: String, _ value: String) { ms.append(JSONMember(key, .string(value))) }
        put("uuid", task.id.lowercased)
        put("description", task.title)
        switch task.state {
        case .done: put("status", "completed")
        case .open, .active:
            // `waiting` needs a wait date, and a template (`recurring`) its `recur`.
            let canRecur = task.due != nil
            let recurs = canRecur && (task.repeatRule.map { TaskwarriorRecurrence.taskwarriorRecur(for: $0) != nil } ?? (keptString("recur") != nil))
            if keptString("status") == "recurring", recurs {
                put("status", "recurring")
                if let mask = kept["mask"] { ms.append(JSONMember("mask", mask)) }
                if let rtype = kept["rtype"] { ms.append(JSONMember("rtype", rtype)) }
            } else if let wait = task.wait, waitInstant(wait, context) > context.now {
                put("status", "waiting")
            } else if task.wait == nil, keptString("status") == "waiting", keptString("wait") != nil {
                // A file from before `wait` was a field.
                put("status", "waiting")
            } else {
                put("status", "pending")
            }
        }
        if let project { put("project", project) }
        if !task.tags.isEmpty { ms.append(JSONMember("tags", .array(task.tags.map { .string($0) }))) }
        put("entry", formatDate(task.createdAt))
        put("modified", formatDate(task.modifiedAt))
        if task.state == .done {
            put("end", formatDate(task.completedAt ?? task.modifiedAt))
        } else if let end = keptString("end") {
            put("end", end)
        }
        if task.state == .active { put("start", keptString("start") ?? formatDate(task.modifiedAt)) }
        if let due = task.due {
            switch due {
            case .day(let d): put("due", formatDate(d.startOfDay(in: context.timeZone)))
            case .time(let t): put("due", formatDate(t))
            }
        }
        if let s = task.scheduled {
            if let original = keptString("scheduled"), let at = parseDate(original), LocalDate(date: at, timeZone: context.timeZone) == s {
                put("scheduled", original)
            } else {
                put("scheduled", formatDate(s.startOfDay(in: context.timeZone)))
            }
        }
        if let wait = task.wait {
            put("wait", formatDate(waitInstant(wait, context)))
        } else if let wait = keptString("wait") {
            // Files written before `wait` was a field kept it here.
            put("wait", wait)
        }
        if !task.depends.isEmpty { put("depends", task.depends.map(\.lowercased).joined(separator: ",")) }
        // Taskwarrior 2.6 crashes on a `recur` without `due` or one it has no word for:
        // such rules (and those of done tasks) go in `tickrepeat`.
        let canRecur = task.due != nil && task.state != .done
        if let rule = task.repeatRule {
            if canRecur, let recur = TaskwarriorRecurrence.taskwarriorRecur(for: rule) {
                put("recur", recur)
                if TaskwarriorRecurrence.tickRule(forTaskwarrior: recur) != rule { put("tickrepeat", rule) }
            } else {
                put("tickrepeat", rule)
            }
        } else if canRecur, let recur = keptString("recur") {
            put("recur", recur)
        }
        switch task.priority {
        case .must?: put("priority", keptString("priority") == "M" ? "M" : "H")
        case .flexible?: put("priority", "L")
        case nil: break
        }
        if let notes = task.notes {
            let anns = annotations(for: notes, createdAt: task.createdAt, kept: kept["annotations"], timeZone: context.timeZone)
            if !anns.isEmpty { ms.append(JSONMember("annotations", .array(anns))) }
        }
        if let r = task.remind { put("tickremind", formatDate(r)) }
        for (key, coding) in ownTextAttributes {
            let text = coding.write(task)
            if !text.isEmpty { put(key, text) }
        }
        let special: Set<String> = [
            "status", "start", "end", "scheduled", "wait", "depends", "priority", "annotations", "recur", "mask", "rtype",
            TaskwarriorRecurrence.seriesKey,
        ]
        // Declared fields as UDAs (a name of Taskwarrior's own is never declared).
        // A value Taskwarrior cannot hold as it is stays out (TaskwarriorUDA.holds).
        for (field, value) in context.fields.values(of: task)
        where !ms.contains(where: { $0.key == field.name }) && TaskwarriorUDA.holds(value, for: field) {
            ms.append(JSONMember(field.name, TaskwarriorUDA.attribute(value, for: field, timeZone: context.timeZone)))
        }
        for m in task.extra where m.key.hasPrefix(prefix) {
            let name = String(m.key.dropFirst(prefix.count))
            if special.contains(name) || name.isEmpty || ms.contains(where: { $0.key == name }) { continue }
            ms.append(JSONMember(name, m.value))
        }
        return .object(ms)
    }

    /// The annotations tick writes for `notes` (INTERCHANGE.md): one per non-empty line.
    /// A dated line (`YYYY-MM-DD HH:MM TEXT`, ``Annotation``) is TEXT at that minute, or at
    /// the exact time of a `kept` annotation (from Taskwarrior) of that text and minute. Any
    /// other line, and a dated one from before the task's `createdAt`, is the whole line dated
    /// just before `createdAt`, 1 s apart in order: Taskwarrior never makes an annotation
    /// older than its task, so import reads those back as the lines they were. Entries are
    /// distinct as Taskwarrior makes them (a second one of the same second is 1 s later).
    static func annotations(for notes: String, createdAt: Date, kept: JSONNode?, timeZone: Zone) -> [JSONNode] {
        var pool: [(text: String, entry: JSONNode, at: Date?)] = []
        if case .array(let items)? = kept?.kind {
            for item in items {
                if case .object(let a) = item.kind, let d = a.first(where: { $0.key == "description" }), case .string(let text) = d.value.kind,
                   let e = a.first(where: { $0.key == "entry" }) {
                    let at: Date? = if case .string(let et) = e.value.kind { parseDate(et) } else { nil }
                    pool.append((text, e.value, at))
                }
            }
        }
        func keptIndex(_ a: Annotation) -> Int? {
            pool.firstIndex { $0.text == a.text && $0.at.map { abs($0.timeIntervalSince(a.at)) < 60 } == true }
        }
        let lines = notes.split(separator: "\n", omittingEmptySubsequences: true)
        let dated: [Annotation?] = lines.map { line in
            guard let a = Annotation(line: line, in: timeZone), a.at >= createdAt || keptIndex(a) != nil else { return nil }
            return a
        }
        var plain = -dated.filter { $0 == nil }.count
        var used = Set<Int>()
        var anns: [JSONNode] = []
        for (line, annotation) in zip(lines, dated) {
            var text = String(line)
            var entry: JSONNode?
            var at = createdAt
            if let annotation {
                text = annotation.text
                if let i = keptIndex(annotation) { entry = pool.remove(at: i).entry } else { at = annotation.at }
            } else if let i = pool.firstIndex(where: { $0.text == text }) {
                entry = pool.remove(at: i).entry
            } else {
                at = createdAt.addingTimeInterval(TimeInterval(plain))
                plain += 1
            }
            if let kept = entry {
                if case .string(let et) = kept.kind, let d = parseDate(et) { used.insert(Int(d.timeIntervalSince1970)) }
            } else {
                var second = Int(at.timeIntervalSince1970.rounded(.down))
                while used.contains(second) { second += 1 }
                used.insert(second)
                entry = .string(formatDate(Date(timeIntervalSince1970: TimeInterval(second))))
            }
            anns.append(.object([JSONMember("entry", entry ?? .string(formatDate(at))), JSONMember("description", .string(text))]))
        }
        return anns
    }

    /// True when two lists of annotations hold the same entries and descriptions
    /// (any order, as Taskwarrior orders them by time) and nothing else.
    static func sameAnnotations(_ a: [JSONNode], _ b: [JSONNode]) -> Bool {
        func keys(_ items: [JSONNode]) -> [String]? {
            var out: [String] = []
            for item in items {
                guard case .object(let ms) = item.kind, ms.count == 2,
                      let e = ms.first(where: { $0.key == "entry" }), case .string(let et) = e.value.kind, let at = parseDate(et),
                      let d = ms.first(where: { $0.key == "description" }), case .string(let text) = d.value.kind
                else { return nil }
                out.append("\(Int(at.timeIntervalSince1970)) \(text)")
            }
            return out.sorted()
        }
        guard let x = keys(a), let y = keys(b) else { return false }
        return x == y
    }

    /// The moment a wait ends: a day waits until its start, local.
    static func waitInstant(_ wait: TaskDate, _ context: InterchangeContext) -> Date {
        switch wait {
        case .day(let d): return d.startOfDay(in: context.timeZone)
        case .time(let t): return t
        }
    }

    /// One-line JSON.
    static func writeCompact(_ node: JSONNode, into out: inout [UInt8]) {
        switch node.kind {
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                writeCompact(item, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let ms):
            out.append(UInt8(ascii: "{"))
            for (i, m) in ms.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSONWriter.writeString(m.key, into: &out)
                out.append(UInt8(ascii: ":"))
                writeCompact(m.value, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        default:
            JSONWriter.write(node, indent: 0, into: &out)
        }
    }
}
