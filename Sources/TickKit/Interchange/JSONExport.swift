import FoundationEssentials
import Glibc

/// tick's own full-fidelity export: every file, exactly as its format holds it.
///
/// ```json
/// {
///   "tickExport": 1,
///   "exportedAt": "2026-11-21T09:00:00Z",
///   "files": [
///     { "path": "inbox.json", "content": { ...the file... } },
///     { "path": "lists/work.json", "content": { ... } }
///   ]
/// }
/// ```
public enum JSONExport {
    /// The export document for some files.
    public static func encode(_ files: [TaskFile], exportedAt: Date) -> [UInt8] {
        let entries = files.map { file in
            JSONNode.object([
                JSONMember("path", .string(file.kind.relativePath)),
                JSONMember("content", TaskFileEncoder.node(for: file)),
            ])
        }
        return JSONWriter.write(.object([
            JSONMember("tickExport", JSONNode(.number("1"))),
            JSONMember("exportedAt", .string(Timestamp.format(exportedAt))),
            JSONMember("files", .array(entries)),
        ]))
    }

    /// Reads an export, or a single inbox or list file. Errors carry line and column.
    public static func decode(_ bytes: [UInt8], path: String, fallbackDate: Date) throws(FormatError) -> [TaskFile] {
        let root: JSONNode
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw FormatError(path: path, location: SourceLocation(offset: error.offset, in: bytes), message: error.message)
        }
        func fail(_ offset: Int, _ message: String) -> FormatError {
            FormatError(path: path, location: offset >= 0 ? SourceLocation(offset: offset, in: bytes) : nil, message: message)
        }
        guard case .object(let top) = root.kind else { throw fail(root.offset, "an import must be a JSON object, found \(root.typeName)") }
        guard let filesMember = top.first(where: { $0.key == "files" }), top.contains(where: { $0.key == "tickExport" }) else {
            // A single store file: a list when it has a name, else the inbox.
            guard top.contains(where: { $0.key == "tasks" }) else {
                throw fail(root.offset, "this is neither a tick export (no \"tickExport\" and \"files\") nor a list file (no \"tasks\")")
            }
            let isList = top.contains { $0.key == "name" }
            let name = top.first { $0.key == "name" }.flatMap { m -> String? in
                if case .string(let s) = m.value.kind { return s }
                return nil
            }
            let kind: FileKind = isList ? .list(slug: Slug.make(from: name ?? "list")) : .inbox
            return [try TaskFileDecoder(bytes: bytes, path: path, kind: kind, fallbackDate: fallbackDate).decode()]
        }
        guard case .array(let entries) = filesMember.value.kind else { throw fail(filesMember.value.offset, "\"files\" must be an array") }
        var files: [TaskFile] = []
        for entry in entries {
            guard case .object(let members) = entry.kind,
                  let pathNode = members.first(where: { $0.key == "path" }), case .string(let relative) = pathNode.value.kind,
                  let content = members.first(where: { $0.key == "content" })
            else { throw fail(entry.offset, "each entry of \"files\" needs a \"path\" string and a \"content\" object") }
            let kind: FileKind
            if relative == "inbox.json" {
                kind = .inbox
            } else if relative.hasPrefix("lists/"), let slug = Store.slug(ofListFileNamed: String(relative.dropFirst(6))) {
                kind = .list(slug: slug)
            } else {
                throw fail(pathNode.value.offset, "\"\(relative)\" is not inbox.json or lists/<slug>.json")
            }
            // Decode the content in place so errors point into the import file.
            let decoder = EmbeddedDecoder(bytes: bytes, path: path, kind: kind, fallbackDate: fallbackDate)
            files.append(try decoder.decode(content.value))
        }
        return files
    }
}

/// Decodes a file object that sits inside a bigger document.
struct EmbeddedDecoder {
    let bytes: [UInt8]
    let path: String
    let kind: FileKind
    let fallbackDate: Date

    func decode(_ node: JSONNode) throws(FormatError) -> TaskFile {
        // Re-serializing would lose positions, so decode from the original
        // bytes' slice: the node's offsets are relative to the whole document.
        try TaskFileDecoder(bytes: bytes, path: path, kind: kind, fallbackDate: fallbackDate).decode(root: node)
    }
}
