import ArgumentParser
import TickKit

extension Tick {
    struct ListsShow: TickCommand {
        static let facts = CommandFacts.reads
        static let configuration = CommandConfiguration.sub(CommandConfiguration(
            commandName: "show",
            abstract: "Lists with counts of open, overdue and done tasks (the default)."))

        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: JSONOption

        func run() throws {
            let context = try Context(global)
            let loaded = try context.load()
            let counts = try loaded.index.counts(query: context.query)
            var byKind: [FileKind: (open: Int, active: Int, overdue: Int, done: Int)] = [:]
            for c in counts { byKind[c.list.kind] = (c.open, c.active, c.overdue, c.done) }
            struct Row { var file: ListInfo; var open: Int; var active: Int; var overdue: Int; var done: Int; var error: FormatError? }
            let rows = loaded.listInfos.map { info in
                let c = byKind[info.kind] ?? (0, 0, 0, 0)
                return Row(file: info, open: c.open, active: c.active, overdue: c.overdue, done: c.done, error: loaded.broken[info.kind])
            }
            let t = context.terminal
            if output.json {
                let nodes = rows.map { r in
                    JSONNode.object([
                        JSONMember("name", .string(r.file.name)),
                        JSONMember("file", .string(r.file.kind.relativePath)),
                        JSONMember("id", .string(r.file.id.lowercased)),
                        JSONMember("color", r.file.color.map { .string($0) } ?? JSONNode(.null)),
                        JSONMember("open", JSONOutput.number(r.open)),
                        JSONMember("active", JSONOutput.number(r.active)),
                        JSONMember("overdue", JSONOutput.number(r.overdue)),
                        JSONMember("done", JSONOutput.number(r.done)),
                        // Unreadable files carry their error; counts are then those of the last readable version.
                        JSONMember("error", r.error.map { .string($0.summary) } ?? JSONNode(.null)),
                    ])
                }
                t.outRaw(JSONOutput.string(.array(nodes)))
                return
            }
            // Terminal cells, not characters: a CJK or emoji name is wider than its length.
            let names = rows.map { TextRules.visible($0.file.name) }
            let nameWidth = max(names.map(CellWidth.of).max() ?? 4, 4)
            t.out(t.dim(CellWidth.padded("NAME", to: nameWidth) + "   OPEN  ACTIVE  OVERDUE   DONE  FILE"))
            for (r, shown) in zip(rows, names) {
                let name = CellWidth.padded(shown, to: nameWidth)
                let overdue = r.overdue > 0 ? padText("!\(r.overdue)", 7) : pad(0, 7)
                t.out(t.colored(name, hex: r.file.color) + "  " + pad(r.open, 5) + "  " + pad(r.active, 6) + "  "
                    + (r.overdue > 0 ? t.boldRed(overdue) : overdue)
                    + "  " + pad(r.done, 5) + "  " + t.dim(r.file.kind.relativePath))
            }
            for p in loaded.broken.sorted(by: { $0.key < $1.key }).map(\.value) {
                t.out(t.boldRed("unreadable: ") + p.summary)
            }
        }

        private func pad(_ n: Int, _ width: Int) -> String { padText(String(n), width) }

        private func padText(_ s: String, _ width: Int) -> String {
            return String(repeating: " ", count: max(width - s.count, 0)) + s
        }
    }
}
