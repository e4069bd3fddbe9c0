import ArgumentParser
import TickKit

extension Tick {
    struct Show: TickCommand {
        static let facts = CommandFacts(takesIDs: true)
        static let configuration = CommandConfiguration.sub(CommandConfiguration(
            commandName: "show",
            abstract: "Show every field of a task.",
            discussion: "EXAMPLES\n  tick show 3\n  tick show 6f1c --json"))

        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: JSONOption

        @Argument(help: "The task: a short id or a prefix of its UUID (8 hex digits, or 4 with a digit and a letter).", completion: ShellCompletion.tasks)
        var id: String

        func run() throws {
            let context = try Context(global)
            let pager = context.startPager()
            defer { pager?.finish() }
            let loaded = try context.load()
            let item = try loaded.tasks.resolve(id)
            let t = context.terminal
            if let problem = loaded.broken[item.kind] {
                t.warn("\(problem.summary) (showing this task as it was when the file last parsed)")
            }
            if output.json {
                t.outRaw(JSONOutput.string(JSONOutput.node(for: item)))
                return
            }
            let task = item.task
            let dates = context.dates
            var rows: [(String, String)] = []
            rows.append(("id", (item.shortID.map { "\($0)  " } ?? "") + t.dim(task.id.lowercased)))
            rows.append(("list", "\(item.listName)  " + t.dim(item.kind.relativePath)))
            // Every field the table labels (TaskField.label), in its order; a
            // date or time by its label with the stored value dimmed.
            for field in TaskField.all {
                guard let label = field.label, let value = field.shown(task) else { continue }
                var text = value.text(dates: dates) + (value.stored.map { "  " + t.dim($0) } ?? "")
                switch field.name {
                case "due":
                    if context.query.isOverdue(task), case .date(let due) = value, let late = dates.overdueLabel(due) { text += "  " + t.boldRed("! " + late) }
                case "wait":
                    if context.query.isWaiting(task) { text += "  " + t.yellow("waiting: hidden from views until then") }
                case "depends":
                    // Ids only, each with its state: the titles are a `tick show` away.
                    let deps = task.depends.map { dep -> String in
                        guard let found = try? loaded.tasks.resolve(dep.lowercased) else {
                            return String(dep.lowercased.prefix(8)) + " (gone)"
                        }
                        return (found.shortID.map(String.init) ?? String(dep.lowercased.prefix(8))) + " (\(found.task.state.rawValue))"
                    }
                    text = deps.joined(separator: ", ") + (item.blocked ? "  " + t.yellow("blocked") : "")
                default:
                    break
                }
                rows.append((label, text))
            }
            // Declared fields (config.toml's [fields.NAME]) by their label; other keys as stored.
            let declared = try context.userFields()
            for member in task.extra {
                var bytes: [UInt8] = []
                JSONWriter.write(member.value, indent: 1, into: &bytes)
                let stored = String(decoding: bytes, as: UTF8.self)
                guard let field = declared[member.key], field.name == member.key else {
                    rows.append((member.key, stored))
                    continue
                }
                guard field.isWellTyped(member.value) else {
                    rows.append((field.displayName, stored + "  " + t.yellow("(not a \(field.kind.typeName); kept as it is)")))
                    continue
                }
                var text = ColumnRenderer.userValue(field, member.value, dates: dates)
                if case .date = field.kind, case .string(let s) = member.value.kind { text += "  " + t.dim(s) }
                rows.append((field.displayName, text))
            }
            t.out(t.bold(task.title))
            let width = rows.map(\.0.count).max() ?? 0
            for (key, value) in rows {
                t.out("  " + t.dim(key.paddedOrCut(toLength: width)) + "  " + value)
            }
            if let notes = task.notes {
                t.out("")
                // Real line breaks stay (CRLF too); out() shows every other control visibly.
                notes.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).forEach { t.out("  " + $0) }
            }
        }
    }
}
