import ArgumentParser
import TickKit

extension Tick {
    struct ListsShow: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Lists with counts of open, overdue and done tasks (the default).")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: JSONOption

        func run() throws {
            let context = try Context(global)
            let snapshot = try context.snapshot()
            let query = context.query
            struct Row { var file: TaskFile; var open: Int; var active: Int; var overdue: Int; var done: Int }
            let rows = snapshot.files.map { f in
                Row(file: f,
                    open: f.tasks.filter { $0.state == .open }.count,
                    active: f.tasks.filter { $0.state == .active }.count,
                    overdue: f.tasks.filter(query.isOverdue).count,
                    done: f.tasks.filter { $0.state == .done }.count)
            }
            let t = context.terminal
            if output.json {
                let nodes = rows.map { r in
                    JSONNode.object([
                        JSONMember("name", .string(r.file.displayName)),
                        JSONMember("file", .string(r.file.kind.relativePath)),
                        JSONMember("id", .string(r.file.id.lowercased)),
                        JSONMember("color", r.file.color.map { .string($0) } ?? JSONNode(.null)),
                        JSONMember("open", JSONOutput.number(r.open)),
                        JSONMember("active", JSONOutput.number(r.active)),
                        JSONMember("overdue", JSONOutput.number(r.overdue)),
                        JSONMember("done", JSONOutput.number(r.done)),
                    ])
                }
                // Unreadable files are listed too, with their error, so scripts notice.
                let broken = snapshot.broken.sorted { $0.key < $1.key }.map { kind, problem in
                    JSONNode.object([
                        JSONMember("name", kind == .inbox ? .string("Inbox") : JSONNode(.null)),
                        JSONMember("file", .string(kind.relativePath)),
                        JSONMember("error", .string(problem.summary)),
                    ])
                }
                t.outRaw(JSONOutput.string(.array(nodes + broken)))
                return
            }
            let nameWidth = max(rows.map(\.file.displayName.count).max() ?? 4, 4)
            t.out(t.dim("NAME".padding(toLength: nameWidth, withPad: " ", startingAt: 0) + "   OPEN  ACTIVE  OVERDUE   DONE  FILE"))
            for r in rows {
                let name = r.file.displayName.padding(toLength: nameWidth, withPad: " ", startingAt: 0)
                let overdue = r.overdue > 0 ? padText("!\(r.overdue)", 7) : pad(0, 7)
                t.out(t.colored(name, hex: r.file.color) + "  " + pad(r.open, 5) + "  " + pad(r.active, 6) + "  "
                    + (r.overdue > 0 ? t.boldRed(overdue) : overdue)
                    + "  " + pad(r.done, 5) + "  " + t.dim(r.file.kind.relativePath))
            }
            for p in snapshot.problems {
                t.out(t.boldRed("unreadable: ") + p.summary)
            }
        }

        private func pad(_ n: Int, _ width: Int) -> String { padText(String(n), width) }

        private func padText(_ s: String, _ width: Int) -> String {
            return String(repeating: " ", count: max(width - s.count, 0)) + s
        }
    }
}
