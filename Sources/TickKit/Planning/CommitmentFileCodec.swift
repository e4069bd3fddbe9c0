import FoundationEssentials
import Glibc

/// Reads and writes `blocks.json`, checking its schema like the task files:
/// errors carry file:line:column, unknown keys are kept, the written form is canonical.
public enum CommitmentFileCodec {
    static let fileKeys: Set<String> = ["version", "blocks"]
    static let blockKeys: Set<String> = ["id", "title", "date", "days", "start", "end", "createdAt", "modifiedAt"]

    /// The canonical bytes.
    public static func encode(_ file: CommitmentFile) -> [UInt8] {
        JSONWriter.write(node(for: file))
    }

    /// The canonical JSON tree: `version`, unknown keys, `blocks`.
    public static func node(for file: CommitmentFile) -> JSONNode {
        var m = [JSONMember("version", JSONNode(.number(String(file.version))))]
        m.append(contentsOf: file.extra)
        m.append(JSONMember("blocks", .array(file.blocks.map(node(for:)))))
        return .object(m)
    }

    /// One commitment: `id`, `title`, `date` or `days`, `start`, `end`, `createdAt`, `modifiedAt`, unknown keys.
    public static func node(for block: Commitment) -> JSONNode {
        var m: [JSONMember] = [
            JSONMember("id", .string(block.id.lowercased)),
            JSONMember("title", .string(block.title)),
        ]
        switch block.recurrence {
        case .once(let date): m.append(JSONMember("date", .string(date.iso)))
        case .weekly(let days): m.append(JSONMember("days", .array(days.map { .string(Commitment.weekdayNames[$0 - 1]) })))
        }
        m.append(JSONMember("start", .string(block.start.description)))
        m.append(JSONMember("end", .string(block.end.description)))
        m.append(JSONMember("createdAt", .string(Timestamp.format(block.createdAt))))
        m.append(JSONMember("modifiedAt", .string(Timestamp.format(block.modifiedAt))))
        m.append(contentsOf: block.extra)
        return .object(m)
    }

    /// Decodes the file; `path` is shown in errors, `fallbackDate` fills missing timestamps.
    public static func decode(_ bytes: [UInt8], path: String, fallbackDate: Date) throws(FormatError) -> CommitmentFile {
        let root: JSONNode
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw FormatError(path: path, location: SourceLocation(offset: error.offset, in: bytes), message: error.message)
        }
        return try Reader(fields: JSONFieldReader(bytes: bytes, path: path), fallbackDate: fallbackDate).file(root)
    }

    /// Decodes a file object that sits inside a bigger document (an export).
    public static func decode(root: JSONNode, bytes: [UInt8], path: String, fallbackDate: Date) throws(FormatError) -> CommitmentFile {
        try Reader(fields: JSONFieldReader(bytes: bytes, path: path), fallbackDate: fallbackDate).file(root)
    }

    private struct Reader {
        let fields: JSONFieldReader
        let fallbackDate: Date

        func time(_ v: JSONNode, key: String) throws(FormatError) -> ClockTime {
            let s = try fields.string(v, key: key)
            guard s.count == 5, let t = ClockTime(parsing: s) else {
                throw fields.error(at: v.offset, "\"\(key)\" must be a wall-clock time like \"09:30\" (found \"\(s)\")")
            }
            return t
        }

        func file(_ root: JSONNode) throws(FormatError) -> CommitmentFile {
            var file = CommitmentFile()
            var blockNodes: [JSONNode] = []
            for m in try fields.members(of: root, what: "blocks.json") {
                let v = m.value
                switch m.key {
                case "version":
                    guard case .number(let text) = v.kind, let n = Int(text), n >= 1 else {
                        throw fields.error(at: v.offset, "\"version\" must be a positive integer")
                    }
                    guard n <= CommitmentFile.currentVersion else {
                        throw fields.error(at: v.offset, "this file has format version \(n), but this tick reads only up to version \(CommitmentFile.currentVersion); upgrade tick")
                    }
                    file.version = n
                case "blocks":
                    guard case .array(let items) = v.kind else {
                        throw fields.error(at: v.offset, "\"blocks\" must be an array, found \(v.typeName)")
                    }
                    blockNodes = items
                default:
                    file.extra.append(m)
                }
            }
            var titleCounts: [String: Int] = [:]
            var seen: [UUID: Int] = [:]
            for node in blockNodes {
                let block = try self.block(node, titleCounts: &titleCounts)
                if let previous = seen[block.id] {
                    let line = SourceLocation(offset: previous, in: fields.bytes).line
                    throw fields.error(at: node.offset, "duplicate block id \(block.id.lowercased) (also used by the block at line \(line))")
                }
                seen[block.id] = node.offset
                file.blocks.append(block)
            }
            return file
        }

        func block(_ node: JSONNode, titleCounts: inout [String: Int]) throws(FormatError) -> Commitment {
            var id: UUID?
            var title: String?
            var date: LocalDate?
            var days: [Int]?
            var start: ClockTime?
            var end: ClockTime?
            var endOffset = node.offset
            var createdAt: Date?
            var modifiedAt: Date?
            var extra: [JSONMember] = []
            for m in try fields.members(of: node, what: "a block") {
                let v = m.value
                if case .null = v.kind, CommitmentFileCodec.blockKeys.contains(m.key) { continue }
                switch m.key {
                case "id": id = try fields.uuid(v, key: "id")
                case "title":
                    let s = try fields.string(v, key: "title")
                    guard TaskFileDecoder.hasVisibleText(s) else { throw fields.error(at: v.offset, "\"title\" must not be empty") }
                    title = s
                case "date":
                    let s = try fields.string(v, key: "date")
                    guard let d = LocalDate(iso: s) else {
                        throw fields.error(at: v.offset, "\"date\" must be a date like \"2026-11-24\" (found \"\(s)\")")
                    }
                    date = d
                case "days":
                    guard case .array(let items) = v.kind, !items.isEmpty else {
                        throw fields.error(at: v.offset, "\"days\" must be a non-empty array of weekdays like [\"mon\", \"wed\"]")
                    }
                    var set = Set<Int>()
                    for item in items {
                        guard case .string(let s) = item.kind, let i = Commitment.weekdayNames.firstIndex(of: s.lowercased()) else {
                            throw fields.error(at: item.offset, "each of \"days\" must be one of \(Commitment.weekdayNames.joined(separator: ", "))")
                        }
                        set.insert(i + 1)
                    }
                    days = set.sorted()
                case "start": start = try time(v, key: "start")
                case "end":
                    end = try time(v, key: "end")
                    endOffset = v.offset
                case "createdAt": createdAt = try fields.timestamp(v, key: "createdAt")
                case "modifiedAt": modifiedAt = try fields.timestamp(v, key: "modifiedAt")
                default: extra.append(m)
                }
            }
            guard let title else { throw fields.error(at: node.offset, "a block needs a \"title\"") }
            guard let start, let end else { throw fields.error(at: node.offset, "a block needs a \"start\" and an \"end\" like \"09:00\" and \"09:15\"") }
            guard start.minutes < 1440, end > start else {
                throw fields.error(at: endOffset, "\"end\" (\(end)) must be later than \"start\" (\(start)) on the same day")
            }
            let recurrence: Commitment.Recurrence
            switch (date, days) {
            case (let d?, nil): recurrence = .once(d)
            case (nil, let w?): recurrence = .weekly(w)
            case (nil, nil): throw fields.error(at: node.offset, "a block needs a \"date\" (one-off) or \"days\" (weekly)")
            case (_?, _?): throw fields.error(at: node.offset, "a block has either a \"date\" (one-off) or \"days\" (weekly), not both")
            }
            let n = titleCounts[title, default: 0]
            titleCounts[title] = n + 1
            let created = createdAt ?? fallbackDate
            return Commitment(id: id ?? UUID(name: "tick-block:\(title)\n\(n)"), title: title, recurrence: recurrence,
                              start: start, end: end, createdAt: created, modifiedAt: modifiedAt ?? created, extra: extra)
        }
    }
}
