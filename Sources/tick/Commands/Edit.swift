import ArgumentParser
import Foundation
import TickKit

extension Tick {
    struct Edit: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Change a task's fields, or edit its JSON in $EDITOR.",
            discussion: """
            With flags or quick-add tokens, changes only those fields. Tokens work as in \
            `tick add`; in addition `-tag` removes a tag and an empty value (`due:`) \
            clears a field. Other words replace the title.

            With nothing else given, opens $VISUAL (else $EDITOR, else vi) on the task's \
            JSON. The result is validated; invalid JSON is refused with file:line:column \
            and your text is kept in the temp file it names. If the task changed on disk \
            while you were editing, tick refuses rather than overwrite that change.

            Every change bumps modifiedAt; an edit that changes nothing writes nothing.

            EXAMPLES
              tick edit 3 due:fri@17:00 +work -home
              tick edit 3 --title "Call the bank" --no-remind
              tick edit 3
            """)

        @OptionGroup var global: GlobalOptions
        @OptionGroup var fieldOptions: TaskFieldOptions

        @Option(name: .long, help: ArgumentHelp("New title.", valueName: "text"))
        var title: String?

        @Flag(name: .long, help: "Remove the due date.")
        var noDue = false

        @Flag(name: .long, help: "Remove the reminder.")
        var noRemind = false

        @Flag(name: .long, help: "Remove the scheduled day.")
        var noSched = false

        @Option(name: .long, help: ArgumentHelp("Tag to remove (repeatable).", valueName: "tag"))
        var untag: [String] = []

        @Argument(help: "The task, then optional quick-add tokens or new title words.")
        var arguments: [String]

        func validate() throws {
            guard !arguments.isEmpty else { throw ValidationError("give the task ID to edit") }
        }

        func run() throws {
            let context = try Context(global)
            let loaded = try context.load()
            let item = try loaded.tasks.resolve(arguments[0])
            var edit = try fieldOptions.edit(context.fields)
            let (wordsTitle, tokenEdit) = try context.quickAdd.parse(Array(arguments.dropFirst()), allowRemoval: true)
            if tokenEdit.list != nil {
                throw CLIError("list: cannot be changed by edit; use `tick mv ID LIST`", status: .usage)
            }
            edit.merge(tokenEdit)
            if !wordsTitle.isEmpty { edit.title = wordsTitle }
            if let title {
                guard !title.trimmingCharacters(in: .whitespaces).isEmpty else { throw InputError.emptyTitle }
                edit.title = title
            }
            for (flag, set, name) in [(noDue, fieldOptions.due != nil, "due"), (noRemind, fieldOptions.remind != nil, "remind"), (noSched, fieldOptions.sched != nil, "sched")] where flag && set {
                throw InputError.invalid("--\(name) and --no-\(name) contradict each other; give one")
            }
            if noDue { edit.due = .clear }
            if noRemind { edit.remind = .clear }
            if noSched { edit.scheduled = .clear }
            for t in untag { edit.removeTags.append(try context.fields.tag(t)) }

            if edit.isEmpty {
                try EditorSession(context: context, item: item).run()
                return
            }
            let now = context.now
            let (changed, after) = try context.store.withLock { writer in
                try writer.update(item.kind) { file in
                    try file.updateTask(item.task.id) { task in (edit.apply(to: &task, now: now), task) }
                }
            }
            var updated = item
            updated.task = after
            TaskMutation(context: context).report([.init(item: updated, changed: changed)], verb: "Updated", unchanged: "unchanged")
        }
    }
}
