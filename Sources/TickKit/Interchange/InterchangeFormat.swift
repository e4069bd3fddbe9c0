import FoundationEssentials

/// The formats `tick import` and `tick export` speak.
public enum InterchangeFormat: String, Sendable, CaseIterable {
    case json, markdown, taskwarrior, todotxt, ics, csv

    /// The format a file name implies: `.json` is tick's own JSON unless the
    /// caller knows better, `.md` markdown, `.txt` todo.txt, `.ics` iCalendar,
    /// `.csv` CSV. Nil when the extension says nothing.
    public static func infer(fromPath path: String) -> InterchangeFormat? {
        let name = PathString.lastComponent(path).lowercased()
        if name == "todo.txt" || name == "done.txt" || name.hasSuffix(".txt") { return .todotxt }
        switch PathString.pathExtension(name) {
        case "json": return .json
        case "md", "markdown": return .markdown
        case "ics", "ical", "ifb": return .ics
        case "csv": return .csv
        default: return nil
        }
    }

    /// The names `--format` accepts, each with the format it means (the one alias table).
    public static let names: [(name: String, format: InterchangeFormat)] = [
        ("json", .json), ("tick", .json),
        ("markdown", .markdown), ("md", .markdown),
        ("taskwarrior", .taskwarrior), ("tw", .taskwarrior), ("task", .taskwarrior),
        ("todotxt", .todotxt), ("todo.txt", .todotxt), ("todo-txt", .todotxt), ("todo", .todotxt), ("txt", .todotxt),
        ("ics", .ics), ("ical", .ics), ("icalendar", .ics), ("ifb", .ics), ("vtodo", .ics),
        ("csv", .csv),
    ]

    /// The format a `--format` name means (case-insensitive: `todo.txt`, `ical`, `tw`, ...);
    /// nil for a name in no row of ``names``.
    public init?(name: String) {
        let folded = name.trimmingWhitespace().lowercased()
        guard let row = Self.names.first(where: { $0.name == folded }) else { return nil }
        self = row.format
    }

    /// How many leading bytes ``detect(_:path:)`` wants to see.
    public static let detectBytes = 4096

    /// The format of an import told from its first bytes, for a file whose name says
    /// nothing (or standard input): iCalendar (`BEGIN:VCALENDAR`), Taskwarrior JSON (an
    /// array, or objects with a `description`), tick JSON (an object), CSV (a header line
    /// with a `title` column), else todo.txt (lines of text). Text that is none of them
    /// (empty, binary, not UTF-8) is an error naming the formats and `--format`.
    public static func detect(_ head: ArraySlice<UInt8>, path: String) throws(ImportError) -> InterchangeFormat {
        var bytes = head
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        let blank: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]
        bytes = bytes.drop(while: { blank.contains($0) })
        let hint = "give --format json, taskwarrior, todotxt, ics or csv"
        guard let first = bytes.first else {
            throw ImportError(path: path, line: nil, message: "it is empty; there is nothing to import")
        }
        // Text, as far as it goes: a UTF-8 sequence cut by the end of the peek is not a fault.
        var text = bytes
        if head.count >= detectBytes {
            if let lastNewline = text.lastIndex(of: 0x0A) {
                text = text[..<lastNewline]
            } else {
                // One long line (JSON with no line breaks): the peek may end inside a
                // character; drop its unfinished bytes (at most 3, a UTF-8 sequence's rest).
                var cut = 0
                while cut < 3, let last = text.last, last & 0xC0 == 0x80 { text = text.dropLast(); cut += 1 }
                if let last = text.last, last & 0xC0 == 0xC0 { text = text.dropLast() }
            }
        }
        let control = text.contains { $0 < 0x20 && !blank.contains($0) || $0 == 0x7F }
        guard !control, let string = String(validating: text, as: UTF8.self) else {
            throw ImportError(path: path, line: nil, message: "cannot tell its format: it is not text (tick JSON, Taskwarrior JSON, todo.txt, iCalendar or CSV); \(hint)")
        }
        if string.prefix(15).uppercased() == "BEGIN:VCALENDAR" { return .ics }
        if first == UInt8(ascii: "[") { return .taskwarrior }
        if first == UInt8(ascii: "{") {
            return string.contains("\"description\"") && !string.contains("\"title\"") ? .taskwarrior : .json
        }
        let firstLine = string.prefix(while: { $0 != "\n" && $0 != "\r\n" })
        let columns = firstLine.split(separator: ",").map {
            $0.trimmingWhitespace().trimmingScalars(where: { $0 == "\"" }).lowercased()
        }
        if columns.count > 1, columns.contains("title") { return .csv }
        return .todotxt
    }
}

/// A malformed record in an import: where and what.
public struct ImportError: Error, LocalizedError, Sendable, Equatable {
    public var path: String
    /// 1-based line (or record) number, when known.
    public var line: Int?
    public var message: String

    public init(path: String, line: Int?, message: String) {
        self.path = path
        self.line = line
        self.message = message
    }

    public var errorDescription: String? { errorLine }
}

/// Everything a format needs besides the bytes.
public struct InterchangeContext: Sendable {
    /// Shown in errors.
    public var path: String
    public var now: Date
    public var timeZone: Zone
    /// The fields declared in config.toml: the formats carry them (Docs/FIELDS.md "Formats").
    public var fields: UserFields

    public init(path: String, now: Date, timeZone: Zone, fields: UserFields = UserFields()) {
        self.path = path
        self.now = now
        self.timeZone = timeZone
        self.fields = fields
    }
}

/// A format that can be read and written. Import returns whole files: the
/// inbox (kind `.inbox`) and lists (kind `.list(slug:)` with their `name`);
/// `ImportPlan` then matches lists by id or name and tasks by id.
public protocol InterchangeCodec {
    /// Reads all records or throws the first malformed one (all or nothing).
    static func decode(_ bytes: [UInt8], context: InterchangeContext) throws(ImportError) -> [TaskFile]
    /// Writes the files (inbox and lists) in this format.
    static func encode(_ files: [TaskFile], context: InterchangeContext) -> [UInt8]
}

extension ImportError: TickError {
    public var kind: FailureKind { .badData }
    public var fileLocation: String? { FileLocation(path: path, line: line).description }
    public var report: String { message + "; nothing was imported" }
}
