import FoundationEssentials
import Glibc
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
        var block: Int32
        var start: Int32
        var idEnd: Int32
        var end: Int32
        var shortID: Int32
        var overdue: Bool
        var box: UInt8
    }

    /// The answer's bytes in blocks of 1 MiB that are never moved or copied
    /// as they fill (a growing array would hold its old and new storage at once).
    private final class Arena {
        static let blockSize = 1 << 20
        var blocks: [[UInt8]] = []
        var current: [UInt8] = []

        init() { current.reserveCapacity(Self.blockSize) }

        /// Appends one task's bytes (`write` appends them and returns the
        /// offset of its mark, the end of the id) and returns its block and
        /// its start, mark and end in the block.
        func add(_ write: (inout [UInt8]) -> Int) -> (block: Int32, start: Int32, mark: Int32, end: Int32) {
            let start = current.count
            let mark = write(&current)
            if current.count > Self.blockSize, start > 0 {
                // Past the block: the row moves to a new one (never split).
                let row = Array(current[start...])
                current.removeSubrange(start...)
                blocks.append(current)
                current = []
                current.reserveCapacity(max(Self.blockSize, row.count))
                current.append(contentsOf: row)
                return (Int32(blocks.count), 0, Int32(mark - start), Int32(current.count))
            }
            return (Int32(blocks.count), Int32(start), Int32(mark), Int32(current.count))
        }

        func seal() {
            if !current.isEmpty { blocks.append(current) }
            current = []
        }
    }

    /// Streams `view` from the index and prints it (sorted by `sort` and cut
    /// to `limit` rows when given): grouped under list headings, flat with the
    /// list on each row, or as a JSON array.
    /// Returns the number of tasks printed.
    @discardableResult
    func print(_ index: TaskIndex, _ view: TaskView, filter: TaskFilter, matching: ParsedFilter, query: TaskQuery,
               sort: TaskSort? = nil, limit: Int? = nil,
               json: Bool, grouped: Bool, emptyMessage: @autoclosure () throws -> String) throws -> Int {
        try print(json: json, grouped: grouped, emptyMessage: try emptyMessage()) { render in
            try index.stream(view, filter: filter, matching: matching, query: query, sort: sort, limit: limit, render: render)
        }
    }

    /// Prints what `source` streams (``TaskIndex/stream(_:filter:matching:query:render:)``
    /// or ``TaskIndex/streamSearch(_:filter:list:query:render:)``, given the render closure).
    @discardableResult
    func print(json: Bool, grouped: Bool, emptyMessage: @autoclosure () throws -> String,
               _ source: ((ListedTask) throws -> Span) throws -> StreamedView<Span>) throws -> Int {
        let query = renderer.query
        let arena = Arena()
        let showList = !grouped
        let streamed = try source { item -> Span in
            let short = Int32(clamping: item.shortID ?? -1)
            if json {
                let at = arena.add { bytes in
                    let start = bytes.count
                    JSONWriter.write(JSONOutput.node(for: item), indent: 1, into: &bytes)
                    return start
                }
                return Span(block: at.block, start: at.start, idEnd: at.start, end: at.end, shortID: short, overdue: false, box: 0)
            }
            let at = arena.add { bytes in
                if item.shortID == nil { bytes.append(contentsOf: item.task.id.lowercased.utf8.prefix(8)) }
                let mark = bytes.count
                renderer.appendBody(item, showList: showList, to: &bytes)
                return mark
            }
            let box: UInt8 = switch item.task.state {
            case .open: item.blocked ? 1 : 0
            case .active: 2
            case .done: 3
            }
            return Span(block: at.block, start: at.start, idEnd: at.mark, end: at.end, shortID: short, overdue: query.isOverdue(item.task), box: box)
        }
        arena.seal()
        let blocks = arena.blocks
        var out = OutputBuffer()
        defer { out.flush() }
        if json {
            if streamed.isEmpty { out.append("[]\n"); return 0 }
            out.append("[\n")
            for (i, row) in streamed.enumerated() {
                if i > 0 { out.append(",\n") }
                out.append("  ")
                let span = row.payload
                out.append(blocks[Int(span.block)][Int(span.start)..<Int(span.end)])
            }
            out.append("\n]\n")
            return streamed.count
        }
        if streamed.isEmpty {
            out.append(Terminal.shown(terminal.dim(try emptyMessage())) + "\n")
            return 0
        }
        let width = streamed.reduce(1) { max($0, $1.payload.shortID < 0 ? 8 : Self.digits(Int($1.payload.shortID))) }
        let marks = [" ", terminal.boldRed("!")].map { Array(Terminal.shown($0).utf8) }
        let boxes = ["[ ]", terminal.dim("[b]"), terminal.cyan("[>]"), terminal.dim("[x]")].map { Array(Terminal.shown($0).utf8) }
        // The dim style's opening and closing codes (empty without color), around a placeholder.
        let dimmed = Terminal.shown(terminal.dim("X")).utf8.split(separator: 0x58, omittingEmptySubsequences: false).map(Array.init)
        let counts = grouped ? streamed.counts() : []
        var group = -1
        var first = true
        var digits: [UInt8] = []
        for row in streamed {
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
            let block = blocks[Int(span.block)]
            if span.shortID >= 0 { digits.append(contentsOf: String(span.shortID).utf8) } else {
                digits.append(contentsOf: block[Int(span.start)..<Int(span.idEnd)])
            }
            for _ in digits.count..<max(width, digits.count) { out.append(" ") }
            out.append(digits)
            out.append(dimmed.count > 1 ? dimmed[1] : [])
            out.append(" ")
            out.append(boxes[Int(span.box)])
            out.append(" ")
            out.append(block[Int(span.idEnd)..<Int(span.end)])
            out.append("\n")
        }
        return streamed.count
    }

    /// Decimal digits of a short id (never negative).
    static func digits(_ n: Int) -> Int {
        var n = n, d = 1
        while n >= 10 { n /= 10; d += 1 }
        return d
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
        StandardStream.writeOut(bytes)
        bytes.removeAll(keepingCapacity: true)
    }
}
