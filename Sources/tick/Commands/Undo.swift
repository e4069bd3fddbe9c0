import ArgumentParser
import FoundationEssentials
import Glibc
import TickKit

extension Tick {
    struct Undo: TickCommand {
        static let facts = CommandFacts(writes: true, runsHooks: false)
        static let configuration = CommandConfiguration.sub(CommandConfiguration(
            commandName: "undo",
            abstract: "Undo the last changes tick made to this store on this machine.",
            discussion: """
            Every command that changes tasks or lists (add, edit, start, done, reopen, \
            rm, mv, reorder, lists add/rename/rm, import, ...) records the before and \
            after images of what it changed in a journal on this machine \
            ($XDG_STATE_HOME/tick/<store-key>/undo.jsonl, the last 100 changes). \
            `tick undo` puts the before images back, task by task, so changes made \
            since to other tasks, even in the same file, are kept.

            If a task has changed since by another route (a hand edit, git pull, \
            Syncthing, another machine), undo refuses (exit status 1) and says which task and what \
            changed; --force puts the old state back anyway. A list file that was \
            deleted and created again is never overwritten.

            Undo is not undoable: `tick undo` twice undoes the last two changes. \
            The journal never leaves this machine: a change made on another machine \
            cannot be undone here.

            EXAMPLES
              tick undo              undo the last change
              tick undo 3            undo the last three changes, newest first
              tick undo --list       show what undo would revert, newest first
              tick undo --list 5 --json
              tick undo --force      undo even though the task was edited since
            """))

        @OptionGroup var global: GlobalOptions

        @Argument(help: "How many changes to undo (with --list: how many to show).")
        var count: Int?

        @Flag(name: .long, help: "Only show what would be undone, newest first.")
        var list = false

        @Flag(name: .long, help: "Undo even when tasks or lists have changed since by another route.")
        var force = false

        @OptionGroup var output: JSONOption

        func validate() throws {
            if let count, count < 1 { throw ValidationError("the count must be 1 or more") }
        }

        func run() throws {
            let context = try Context(global)
            let ids = try? context.load().index
            if list {
                let journal = UndoJournal(location: context.store.location)
                let pending = UndoJournal.undoable(try read(journal, context: context).entries)
                show(Array(pending.prefix(count ?? pending.count)), context: context, ids: ids)
                return
            }
            let n = count ?? 1
            let outcome = try UndoRun(store: context.store, force: force).undo(count: n)
            outcome.warnings.forEach(context.terminal.warn)
            let undone = outcome.undone
            let after = try? context.resyncIDs()
            if output.json {
                context.terminal.outRaw(JSONOutput.string(.array(undone.enumerated().map { node(for: $1, number: $0 + 1, ids: after) })))
            } else {
                UndoText.lines(undone, terminal: context.terminal, ids: after).forEach(context.terminal.out)
            }
            if let failure = outcome.failure {
                throw UndoText.error(failure, undone: undone.count, requested: n, ids: ids)
            }
        }

        /// The journal's entries; unreadable lines are reported on stderr and skipped.
        func read(_ journal: UndoJournal, context: Context) throws -> UndoJournal.Contents {
            let contents = try journal.read()
            contents.warnings.forEach(context.terminal.warn)
            return contents
        }

        func show(_ entries: [JournalEntry], context: Context, ids: TaskIndex?) {
            let t = context.terminal
            if output.json {
                t.outRaw(JSONOutput.string(.array(entries.enumerated().map { node(for: $1, number: $0 + 1, ids: ids) })))
                return
            }
            guard !entries.isEmpty else {
                t.out("Nothing to undo.")
                return
            }
            var lines: [String] = []
            for (i, entry) in entries.enumerated() {
                let when = entry.date.map { ClockTime.dayAndTime($0, in: context.timeZone) } ?? entry.at
                lines.append("\(String(i + 1).leftPad(3))  \(t.dim(when))  \(t.bold(entry.command)): \(entry.summary)\(UndoText.taskList(entry, ids: ids))")
            }
            t.outLines(lines)
        }

        func node(for entry: JournalEntry, number: Int, ids: TaskIndex?) -> JSONNode {
            let files: [JSONNode] = UndoReverter.filesToRevert(entry).reversed().map { kind, steps in
                let counts = steps.reduce(StepCounts()) { $0 + $1.taskCounts }
                return .object([
                    JSONMember("file", .string(kind.relativePath)),
                    JSONMember("list", kind == .inbox ? JSONNode(.null) : .string(steps.last?.name ?? "")),
                    JSONMember("created", JSONNode(.bool(steps.first?.isCreated == true))),
                    JSONMember("deleted", JSONNode(.bool(steps.last?.isRemoved == true))),
                    JSONMember("added", JSONOutput.number(counts.added)),
                    JSONMember("changed", JSONOutput.number(counts.changed)),
                    JSONMember("removed", JSONOutput.number(counts.removed)),
                ])
            }
            let tasks: [JSONNode] = entry.taskIDs.map { id in
                .object([
                    JSONMember("id", .string(id.lowercased)),
                    JSONMember("shortId", ids?.shortID(of: id).map { JSONOutput.number($0) } ?? JSONNode(.null)),
                ])
            }
            return .object([
                JSONMember("n", JSONOutput.number(number)),
                JSONMember("id", .string(entry.id)),
                JSONMember("at", .string(entry.at)),
                JSONMember("command", .string(entry.command)),
                JSONMember("summary", .string(entry.summary)),
                JSONMember("undoable", JSONNode(.bool(entry.tooLarge != true))),
                JSONMember("files", .array(files)),
                JSONMember("tasks", .array(tasks)),
            ])
        }
    }
}

private extension String {
    func leftPad(_ width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}
