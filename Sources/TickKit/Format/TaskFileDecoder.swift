import FoundationEssentials

/// Reads a store file (inbox or list) from its bytes, checking the schema.
///
/// Reading is tolerant of hand-made files: a missing version is read as the
/// current one, and missing ids and timestamps are derived so that the tasks
/// can be listed and addressed before tick first writes the file.
public struct TaskFileDecoder {
    private let bytes: [UInt8]
    private let path: String
    private let kind: FileKind
    private let fallbackDate: Date
    private let fields: JSONFieldReader

    /// - Parameters:
    ///   - path: the path shown in error messages.
    ///   - fallbackDate: used for missing timestamps (normally the file's mtime).
    public init(bytes: [UInt8], path: String, kind: FileKind, fallbackDate: Date) {
        self.bytes = bytes
        self.path = path
        self.kind = kind
        self.fallbackDate = fallbackDate
        self.fields = JSONFieldReader(bytes: bytes, path: path)
    }

    /// True when the text has something besides whitespace (fast for ASCII).
    static func hasVisibleText(_ s: String) -> Bool {
        for b in s.utf8 {
            switch b {
            case 0x20, 0x09, 0x0A, 0x0D: continue
            case 0x80...: return s.contains { !$0.isWhitespace }
            default: return true
            }
        }
        return false
    }

    static let fileKeys: Set<String> = ["version", "id", "name", "color", "createdAt", "modifiedAt", "tasks", "deleted"]
    /// The keys of a task tick reads (a `null` there is the key left out):
    /// the field table's, `id` and `changed`.
    static let taskKeys = Set(["id", "changed"] + TaskField.fileOrder)

    /// Decodes the file, or throws a ``FormatError`` with line and column.
    public func decode() throws(FormatError) -> TaskFile {
        let root: JSONNode
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw FormatError(path: path, location: SourceLocation(offset: error.offset, in: bytes), message: error.message)
        }
        return try decodeRoot(root)
    }

    /// Decodes an already parsed file object whose offsets point into ``bytes``.
    public func decode(root: JSONNode) throws(FormatError) -> TaskFile {
        try decodeRoot(root)
    }

    /// Decodes a single task object (as `tick edit` shows it), keeping its unknown keys.
    public func decodeTask() throws(FormatError) -> TaskItem {
        let root: JSONNode
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw FormatError(path: path, location: SourceLocation(offset: error.offset, in: bytes), message: error.message)
        }
        return try decodeTask(root, slug: kind.idSeed, occurrence: { _ in 0 })
    }

    private func decodeRoot(_ root: JSONNode) throws(FormatError) -> TaskFile {
        let members = try fields.members(of: root, what: "the file")
        let slugForIDs = kind.idSeed
        var version = TaskFile.currentVersion
        var id: UUID?
        var name: String?
        var color: String?
        var createdAt: Date?
        var modifiedAt: Date?
        var extra: [JSONMember] = []
        var taskNodes: [JSONNode] = []
        var deleted: [Tombstone] = []
        for m in members {
            let v = m.value
            // `null` for a known optional field means absent; unknown keys keep their null.
            if case .null = v.kind, Self.fileKeys.contains(m.key), m.key != "tasks" { continue }
            switch m.key {
            case "version":
                guard case .number(let text) = v.kind, let n = Int(text), n >= 1 else {
                    throw fields.error(at: v.offset, "\"version\" must be a positive integer")
                }
                guard n <= TaskFile.currentVersion else {
                    throw fields.error(at: v.offset, "this file has format version \(n), but this tick reads only up to version \(TaskFile.currentVersion); upgrade tick")
                }
                version = n
            case "id": id = try fields.uuid(v, key: "id")
            case "name":
                guard kind != .inbox else { extra.append(m); continue }
                let s = try fields.string(v, key: "name")
                guard Self.hasVisibleText(s) else {
                    throw fields.error(at: v.offset, "\"name\" must not be empty")
                }
                name = s
            case "color":
                guard kind != .inbox else { extra.append(m); continue }
                let s = try fields.string(v, key: "color")
                guard let c = ColorCode.normalize(s) else {
                    throw fields.error(at: v.offset, "\"color\" must be 6 hex digits like \"#3b82f6\" (found \"\(s)\")")
                }
                color = c
            case "createdAt": createdAt = try fields.timestamp(v, key: "createdAt")
            case "modifiedAt": modifiedAt = try fields.timestamp(v, key: "modifiedAt")
            case "tasks":
                guard case .array(let items) = v.kind else {
                    throw fields.error(at: v.offset, "\"tasks\" must be an array, found \(v.typeName)")
                }
                taskNodes = items
            case "deleted":
                deleted = try tombstones(v)
            default:
                extra.append(m)
            }
        }
        var needsFill = id == nil || createdAt == nil || modifiedAt == nil
        if kind != .inbox, name == nil {
            name = slugForIDs
        }
        var tasks: [TaskItem] = []
        tasks.reserveCapacity(taskNodes.count)
        // How many earlier tasks have each title: counted only once a task
        // without an id needs it (hand-made files), not for every file.
        var titleCounts: [String: Int]?
        var idOffsets: [UUID: Int] = [:]
        idOffsets.reserveCapacity(taskNodes.count)
        for node in taskNodes {
            let task = try decodeTask(node, slug: slugForIDs, occurrence: { title in
                if titleCounts == nil {
                    titleCounts = Dictionary(tasks.lazy.map { ($0.title, 1) }, uniquingKeysWith: +)
                }
                return titleCounts?[title] ?? 0
            })
            titleCounts?[task.title, default: 0] += 1
            if let previous = idOffsets[task.id] {
                let line = SourceLocation(offset: previous, in: bytes).line
                throw fields.error(at: node.offset, "duplicate task id \(task.id.lowercased) (also used by the task at line \(line))")
            }
            idOffsets[task.id] = node.offset
            if task.needsFill { needsFill = true }
            tasks.append(task)
        }
        return TaskFile(
            kind: kind,
            version: version,
            id: id ?? UUID(name: "tick-list:\(slugForIDs)"),
            name: name,
            color: color,
            createdAt: createdAt ?? fallbackDate,
            modifiedAt: modifiedAt ?? createdAt ?? fallbackDate,
            extra: extra,
            tasks: tasks,
            deleted: deleted,
            needsFill: needsFill
        )
    }

    private func tombstones(_ v: JSONNode) throws(FormatError) -> [Tombstone] {
        guard case .array(let items) = v.kind else {
            throw fields.error(at: v.offset, "\"deleted\" must be an array of {\"id\": ..., \"at\": ...} objects, found \(v.typeName)")
        }
        var out: [Tombstone] = []
        for item in items {
            let members = try fields.members(of: item, what: "a \"deleted\" entry")
            guard let idNode = members.first(where: { $0.key == "id" })?.value else {
                throw fields.error(at: item.offset, "a \"deleted\" entry needs an \"id\"")
            }
            guard let atNode = members.first(where: { $0.key == "at" })?.value else {
                throw fields.error(at: item.offset, "a \"deleted\" entry needs an \"at\" timestamp")
            }
            out.append(Tombstone(id: try fields.uuid(idNode, key: "id"), at: try fields.timestamp(atNode, key: "at")))
        }
        return out
    }

    /// `occurrence` tells how many earlier tasks of the file have a title
    /// (what a task without an id derives its id from).
    private func decodeTask(_ node: JSONNode, slug: String, occurrence: (String) -> Int) throws(FormatError) -> TaskItem {
        let members = try fields.members(of: node, what: "a task")
        var task = TaskItem(id: TaskItem.placeholderID, title: "", createdAt: fallbackDate, modifiedAt: fallbackDate)
        var hasID = false, hasTitle = false, hasCreated = false, hasModified = false
        for m in members {
            let v = m.value
            if case .null = v.kind, Self.taskKeys.contains(m.key) { continue }
            switch m.key {
            case "id":
                task.id = try fields.uuid(v, key: "id")
                hasID = true
            case "changed": task.changed = try changeTimes(v)
            default:
                guard let field = Self.fileFields[m.key] else {
                    task.extra.append(m)
                    continue
                }
                try field.coding.read(&task, v, fields)
                switch field.mark {
                case .title: hasTitle = true
                case .createdAt: hasCreated = true
                case .modifiedAt: hasModified = true
                case nil: break
                }
            }
        }
        guard hasTitle else {
            throw fields.error(at: node.offset, "a task needs a \"title\"")
        }
        if !hasID { task.id = UUID(name: "tick-task:\(slug)\n\(task.title)\n\(occurrence(task.title))") }
        if !hasModified { task.modifiedAt = task.createdAt }
        task.needsFill = !hasID || !hasCreated || !hasModified
        return task
    }

    /// The fields a decoder must know it has read: the title (required) and
    /// the timestamps (derived when missing).
    private enum Mark { case title, createdAt, modifiedAt }

    /// The table's fields by their file key (``TaskField/inFileOrder``).
    private static let fileFields: [String: (coding: FieldFileCoding, mark: Mark?)] = Dictionary(
        uniqueKeysWithValues: TaskField.inFileOrder.map { name, coding in
            let mark: Mark? = switch name {
            case "title": .title
            case "createdAt": .createdAt
            case "modifiedAt": .modifiedAt
            default: nil
            }
            return (name, (coding, mark))
        })

    /// `"changed": {"title": "2026-11-23T10:05:00Z", "+home": "…"}`: keys are
    /// field names, `list`, `order`, `+TAG` or unknown keys; values timestamps.
    private func changeTimes(_ v: JSONNode) throws(FormatError) -> [String: Date] {
        let members = try fields.members(of: v, what: "\"changed\"")
        var out: [String: Date] = [:]
        for m in members {
            guard !m.key.isEmpty, m.key != "+" else {
                throw fields.error(at: m.value.offset, "a \"changed\" key must name a field, \"list\", \"order\" or \"+TAG\"")
            }
            out[m.key] = try fields.timestamp(m.value, key: "changed.\(m.key)")
        }
        return out
    }
}
