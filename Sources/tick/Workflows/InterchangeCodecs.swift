import ArgumentParser
import FoundationEssentials
import TickKit

extension InterchangeFormat {
    /// Reads an import in this format: CSV and todo.txt record by record,
    /// the others (whole documents) read whole, up to the size limit.
    /// `badRecord` gets each malformed todo.txt line or CSV row: it throws to
    /// stop the import (the default), or returns to skip the record; in the
    /// other formats the first malformed record stops the import.
    func decode(
        from reader: ImportReader, context: InterchangeContext,
        badRecord: (ImportError) throws(ImportError) -> Void = { error throws(ImportError) in throw error }
    ) throws -> [TaskFile] {
        switch self {
        case .csv: return try CSVCodec.decode(from: reader, context: context, badRecord: badRecord)
        case .todotxt: return try TodoTxtCodec.decode(from: reader, context: context, badRecord: badRecord)
        default: return try decode(try reader.readAll(), context: context)
        }
    }

    /// Whether a malformed record can be skipped (the rest imported): todo.txt lines and CSV rows.
    var skipsBadRecords: Bool { self == .todotxt || self == .csv }

    /// Reads an import file in this format.
    func decode(_ bytes: [UInt8], context: InterchangeContext) throws -> [TaskFile] {
        switch self {
        case .json:
            let files = try JSONExport.decode(bytes, path: context.path, fallbackDate: context.now)
            // Records of other formats are checked by their codecs, with their line.
            for file in files {
                for task in file.tasks {
                    if let problem = TextRules.importProblem(title: task.title, notes: task.notes, list: file.name) {
                        throw ImportError(path: context.path, line: nil, message: "task \(task.id.lowercased) in \(file.kind.relativePath): \(problem)")
                    }
                }
            }
            return files
        case .markdown: throw CLIError("markdown is an export format only; import a json export instead", status: .usage)
        case .taskwarrior: return try TaskwarriorCodec.decode(bytes, context: context)
        case .todotxt: return try TodoTxtCodec.decode(bytes, context: context)
        case .ics: return try ICalendarCodec.decode(bytes, context: context)
        case .csv: return try CSVCodec.decode(bytes, context: context)
        }
    }

    /// Writes files in this format.
    func encode(_ files: [TaskFile], context: InterchangeContext) -> [UInt8] {
        switch self {
        case .json: return JSONExport.encode(files, exportedAt: context.now)
        case .markdown: return Array(MarkdownExport.render(files, timeZone: context.timeZone).utf8)
        case .taskwarrior: return TaskwarriorCodec.encode(files, context: context)
        case .todotxt: return TodoTxtCodec.encode(files, context: context)
        case .ics: return ICalendarCodec.encode(files, context: context)
        case .csv: return CSVCodec.encode(files, context: context)
        }
    }
}

extension InterchangeFormat: ExpressibleByArgument {
    /// `--format` takes every name of the one alias table (``InterchangeFormat/names``).
    public init?(argument: String) {
        self.init(name: argument)
    }
}
