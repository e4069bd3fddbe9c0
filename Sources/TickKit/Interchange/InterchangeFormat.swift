import Foundation

/// The formats `tick import` and `tick export` speak.
public enum InterchangeFormat: String, Sendable, CaseIterable {
    case json, markdown, taskwarrior, todotxt, ics, csv

    /// The format a file name implies: `.json` is tick's own JSON unless the
    /// caller knows better, `.md` markdown, `.txt` todo.txt, `.ics` iCalendar,
    /// `.csv` CSV. Nil when the extension says nothing.
    public static func infer(fromPath path: String) -> InterchangeFormat? {
        let name = (path as NSString).lastPathComponent.lowercased()
        if name == "todo.txt" || name == "done.txt" || name.hasSuffix(".txt") { return .todotxt }
        switch (name as NSString).pathExtension {
        case "json": return .json
        case "md", "markdown": return .markdown
        case "ics", "ical", "ifb": return .ics
        case "csv": return .csv
        default: return nil
        }
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
    public var timeZone: TimeZone

    public init(path: String, now: Date, timeZone: TimeZone) {
        self.path = path
        self.now = now
        self.timeZone = timeZone
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
