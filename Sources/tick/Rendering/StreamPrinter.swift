import Foundation
import TickKit

/// Prints a view as TickKit streams it (``TaskIndex/stream(_:filter:matching:query:render:)``):
/// each task becomes its bytes (a row without its id column, or its JSON)
/// in one arena the moment it is read, and the arena is written out in the
/// view's order through a 64 KiB buffer. No array of tasks or of lines is
/// built; what stays in memory is the answer's bytes and a few words a task.
///
/// Output is byte for byte what ``TaskRenderer`` and ``JSONOutput`` write
/// for the same tasks (the id column is padded to the widest id shown, so
/// it is written last). Rows fitted to a terminal's width take the other path.
struct StreamPrinter {
    let terminal: Terminal
    let renderer: TaskRenderer

    /// Where a task's bytes are in the arena, and its row prefix's parts.
    struct Span {
        var start: Int32
        var idEnd: Int32
        var end: Int32
        var overdue: Bool
        var box: UInt8
    }

    private final class Arena {
        var bytes: [UInt8] = []
    }

    /// Streams `view` from the index and prints it: grouped under list
    /// headings, flat with the list on each row, or as a JSON array.
    /// Returns the number of tasks printed.
    @discardableResult
    func print(_ index: TaskIndex, _ view: TaskView, filter: TaskFilter, matching: ParsedFilter, query: TaskQuery,
               json: Bool, grouped: Bool, emptyMessage: String) throws -> Int {
        let arena = Arena()
        arena.bytes.reserveCapacity(1 << 16)
        let showList = !grouped
        let streamed = try index.stream(view, filter: filter, matching: matching, query: query) { item -> Span in
            let start = Int32(arena.bytes.count)
            if json {
                JSONWriter.write(JSONOutput.node(for: item), indent: 1, into: &arena.bytes)
                let end = Int32(arena.bytes.count)
                return Span(start: start, idEnd: start, end: end, overdue: false, box: 0)
            }
            if item.shortID == nil { arena.bytes.append(contentsOf: item.task.id.lowercased.utf8.prefix(8)) }
            let idEnd = Int32(arena.bytes.count)
            arena.bytes.append(contentsOf: Terminal.shown(renderer.body(item, showList: showList)).utf8)
            let box: UInt8 = switch item.task.state {
            case .open: item.blocked ? 1 : 0
            case .active: 2
            case .done: 3
            }
            return Span(start: start, idEnd: idEnd, end: Int32(arena.bytes.count), overdue: query.isOverdue(item.task), box: box)
        }
        var out = OutputBuffer()
        defer { out.flush() }
        let bytes = arena.bytes
        if json {
            if streamed.rows.isEmpty { out.append("[]\n"); return 0 }
            out.append("[\n")
            for (i, row) in streamed.rows.enumerated() {
                if i > 0 { out.append(",\n") }
                out.append("  ")
                out.append(bytes[Int(row.payload.start)..<Int(row.payload.end)])
            }
            out.append("\n]\n")
            return streamed.rows.count
        }
        if streamed.rows.isEmpty {
            out.append(Terminal.shown(terminal.dim(emptyMessage)) + "\n")
            return 0
        }
        let width = streamed.rows.reduce(1) { max($0, $1.shortID.map(Self.digits) ?? 8) }
        let marks = [" ", terminal.boldRed("!")].map { Array(Terminal.shown($0).utf8) }
        let boxes = ["[ ]", terminal.dim("[b]"), terminal.cyan("[>]"), terminal.dim("[x]")].map { Array(Terminal.shown($0).utf8) }
        // The dim style's opening and closing codes (empty without color), around a placeholder.
        let dimmed = Terminal.shown(terminal.dim("X")).utf8.split(separator: 0x58, omittingEmptySubsequences: false).map(Array.init)
        let counts = grouped ? streamed.counts() : []
        var group = -1
        var first = true
        var digits: [UInt8] = []
        for row in streamed.rows {
            if grouped, row.group != group {
                group = row.group
                guard group < streamed.lists.count else { continue }
                let list = streamed.lists[group]
                if !first { out.append("\n") }
                out.append(Terminal.shown(renderer.heading(list.name, count: counts[group], color: list.color)) + "\n")
            }
            if grouped, group >= streamed.lists.count { continue }
            first = false
            let span = row.payload
            out.append(marks[span.overdue ? 1 : 0])
            out.append(" ")
            out.append(dimmed[0])
            digits.removeAll(keepingCapacity: true)
            if let n = row.shortID { digits.append(contentsOf: String(n).utf8) } else {
                digits.append(contentsOf: bytes[Int(span.start)..<Int(span.idEnd)])
            }
            for _ in digits.count..<max(width, digits.count) { out.append(" ") }
            out.append(digits)
            out.append(dimmed.count > 1 ? dimmed[1] : [])
            out.append(" ")
            out.append(boxes[Int(span.box)])
            out.append(" ")
            out.append(bytes[Int(span.idEnd)..<Int(span.end)])
            out.append("\n")
        }
        return streamed.rows.count
    }

    static func digits(_ n: Int) -> Int {
        var n = n, d = 1
        while n >= 10 || n <= -10 { n /= 10; d += 1 }
        return n < 0 ? d + 1 : d
    }
}

/// Bytes for stdout, written 64 KiB at a time.
struct OutputBuffer {
    private var bytes: [UInt8] = []

    init() { bytes.reserveCapacity(1 << 16) }

    mutating func append(_ text: String) { append(text.utf8) }

    mutating func append<S: Sequence>(_ more: S) where S.Element == UInt8 {
        bytes.append(contentsOf: more)
        if bytes.count >= 1 << 16 { flush() }
    }

    mutating func flush() {
        guard !bytes.isEmpty else { return }
        bytes.withUnsafeBytes { FileHandle.standardOutput.write(Data($0)) }
        bytes.removeAll(keepingCapacity: true)
    }
}
