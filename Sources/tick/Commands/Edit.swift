import ArgumentParser
import FoundationEssentials
import TickKit

extension Tick {
    struct Edit: TickCommand {
        static let facts = CommandFacts(takesIDs: true, takesQuickAddWords: true, writes: true)
        static let configuration = CommandConfiguration.sub(CommandConfiguration(
            commandName: "edit",
            abstract: "Change a task's fields, or edit its JSON in $EDITOR.",
            discussion: """
            With flags or quick-add tokens, changes only those fields. Tokens work as in \
            `tick add`; in addition `-tag` removes a tag and `due:` (at the end, or before \
            another token) or `due:none` clears a field. `due: fri` (with a space) is an \
            error, not a clear. Words alone (`tick edit 3 Call the bank`) replace the title; \
            next to tokens or flags, loose words are refused: rename with --title. WHEN \
            values and durations: see `tick add --help` and Docs/CLI.md "Dates and durations".

            With nothing else given, opens $VISUAL (else $EDITOR, else vi) on the task's \
            JSON, under a `//` header (ignored). A time typed without a zone \
            (2026-11-24T17:00) is read in the local zone; with Z or an offset it is that \
            instant. The result is validated; invalid JSON is refused with file:line:column \
            and your text is kept in the file it names (under tick's state directory). If \
            the task changed on disk while you were editing, tick refuses rather than \
            overwrite that change. "state": "done" completes the task as `tick done` does.

            Every change bumps modifiedAt; an edit that changes nothing writes nothing.

            A done task named by its short id (which it keeps for a day) is not             edited: tick says so and changes nothing (exit 1), since the number is             easily typed for another task. --reopen reopens it and edits it; its             UUID prefix edits it as a done task. `tick modify` and `tick mod`             (Taskwarrior's words) are `tick edit`.

            `at:14:00` places the task in a time slot on its scheduled day (else today), \
            `at:fri@14:00` on another day (which becomes the scheduled day), `for:45m` \
            sets the slot's length and `at:` (empty) removes the slot. A slot over a \
            commitment is refused (exit 1) and nothing is written.

            `wait:WHEN` hides the task from every view until then (`wait:` clears it). \
            `depends:3,7` makes it depend on tasks 3 and 7 (short ids or UUID prefixes), \
            `depends:-3` removes one, `depends:none` all; a cycle is refused. A dependency \
            on a task that no longer exists is dropped (with a warning) when the task is edited.

            EXAMPLES
              tick edit 3 due:fri@17:00 +work -home
              tick edit 3 --title "Call the bank" --no-remind
              tick edit +later due:none -- sched:mon     (every task the filter selects)
              tick edit 3 estimate:45m at:14:00
              tick edit 3 at:
              tick edit 3 due:"next monday" remind:none
              tick edit 3 wait:mon depends:5,-7
              tick edit 3 Call the bank
              tick edit 3
            """,
            aliases: ["modify", "mod"]))

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

        @Flag(name: .long, help: "Remove the time slot (same as at:).")
        var noSlot = false

        @Flag(name: .long, help: "Remove the estimate (same as estimate:).")
        var noEstimate = false

        @Option(name: .long, help: ArgumentHelp("Tag to remove (repeatable).", valueName: "tag"),
                completion: ShellCompletion.tags)
        var untag: [String] = []

        @Argument(help: "The task, then quick-add tokens, or only words for a new title.", completion: ShellCompletion.edit)
        var arguments: [String]

        /// `tick edit FILTER -- CHANGES` arrives as `--filter=WORD`s (see Tick.bulkEdit).
        @Option(name: .customLong("filter"), help: .hidden)
        var filterWords: [String] = []

        @Flag(name: [.customShort("y"), .long], help: "With FILTER -- CHANGES: change more than [bulk] confirm tasks without asking.")
        var yes = false

        @Flag(name: .long, help: "Reopen a done task and edit it (a done task named by its short id is refused without it).")
        var reopen = false

        func validate() throws {
            guard !arguments.isEmpty || !filterWords.isEmpty else { throw ValidationError("give the task ID to edit") }
        }

        func run() throws {
            let context = try Context(global)
            var edit = try fieldOptions.edit(context.fields)
            if !filterWords.isEmpty {
                try bulk(context, edit: edit)
                return
            }
            var (titleWords, tokenEdit) = try context.quickAdd().split(Array(arguments.dropFirst()), allowRemoval: true)
            // `list:Home` (Taskwarrior's `modify project:Home`) is `tick mv ID Home`, after the fields.
            let moveTo = tokenEdit.list
            tokenEdit.list = nil
            edit.merge(tokenEdit)
            let hasFieldChanges = !edit.isEmpty || moveTo != nil || title != nil || noDue || noRemind || noSched || noSlot || noEstimate || !untag.isEmpty
            if !titleWords.isEmpty {
                // Loose words rename the task only when they are all there is (`tick edit 3 New title`);
                // next to tokens or flags they are a mistake (`tick edit 1 2 due:fri`).
                guard !hasFieldChanges else { throw InputError.strayWords(titleWords) }
                edit.title = titleWords.joined(separator: " ")
            }
            if let title {
                guard !title.trimmingWhitespace().isEmpty else { throw InputError.emptyTitle }
                edit.title = title
            }
            for (flag, set, name) in [(noDue, fieldOptions.due != nil, "due"), (noRemind, fieldOptions.remind != nil, "remind"), (noSched, fieldOptions.sched != nil, "sched")] where flag && set {
                throw InputError.invalid("--\(name) and --no-\(name) contradict each other; give one")
            }
            if noDue { edit[\.due] = .clear }
            if noRemind { edit[\.remind] = .clear }
            if noSched { edit[\.scheduled] = .clear }
            if noSlot { edit.slot = .clear }
            if noEstimate { edit[\.estimate] = .clear }
            for t in untag { edit.removeTags.append(try context.fields.tag(t)) }
            if let problem = edit.textProblem { throw InputError.invalid(problem) }

            if edit.isEmpty && moveTo == nil {
                try EditorSession(context: context, item: try context.load().tasks.resolve(arguments[0])).run(context: context)
                return
            }
            let ref = try TaskReference.task(arguments[0])
            let mutation = TaskMutation(context: context)
            // Through edit even when only moving: a done task named by its short id is refused first.
            let edited = try mutation.edit(ref, with: edit, done: reopen ? .reopen : .refuseByShortID)
            TaskMutation.warnings(edited, timeZone: context.timeZone).forEach(context.terminal.warn)
            if !edit.isEmpty { context.terminal.out(TaskMutation.line(edited, terminal: context.terminal)) }
            if let moveTo {
                let (moved, name, created) = try mutation.move([.id(edited.outcome.item.task.id)], to: moveTo)
                _ = try context.resyncIDs()
                if created { context.terminal.out(Move.createdLine(name)) }
                context.terminal.outLines(Move.lines(moved, to: name, terminal: context.terminal))
            }
            Hints(context: context).afterEditing([edited.outcome.item])
        }

        /// `tick edit FILTER -- CHANGES`: the same change to every task the
        /// filter selects, in one undo entry. No rename (loose words are
        /// refused) and no slot (one time for many tasks).
        private func bulk(_ context: Context, edit flags: TaskEdit) throws {
            var edit = flags
            let (titleWords, tokenEdit) = try context.quickAdd().split(arguments, allowRemoval: true)
            guard titleWords.isEmpty else {
                throw InputError.invalid("\(titleWords.map { "\"\($0)\"" }.joined(separator: ", ")) after -- is not a change; a change by filter takes tokens (sched:mon, +tag, -tag, pri:must), not a new title")
            }
            if tokenEdit.list != nil { throw CLIError("list: cannot be changed by edit; use tick mv FILTER LIST", status: .usage) }
            edit.merge(tokenEdit)
            if noDue { edit[\.due] = .clear }
            if noRemind { edit[\.remind] = .clear }
            if noSched { edit[\.scheduled] = .clear }
            if noEstimate { edit[\.estimate] = .clear }
            for t in untag { edit.removeTags.append(try context.fields.tag(t)) }
            guard title == nil, !noSlot, edit.slot == .keep, edit.slotMinutes == nil else {
                throw CLIError("a change by filter cannot rename tasks or give them a slot; edit them one by one", status: .usage)
            }
            guard !edit.isEmpty else { throw ValidationError("give the changes after --, e.g. tick edit +later due:none -- sched:mon") }
            let words = FilterArguments.unmarked(filterWords)
            let refs = try BulkSelection(context: context).refs(words, states: [.open, .active], verb: "Edit", yes: yes, terminal: context.terminal)
            let mutation = TaskMutation(context: context)
            let results = try mutation.apply(refs) { task, now in edit.apply(to: &task, now: now) }
            TaskMutation.report(to: context.terminal, results, verb: "Edited", unchanged: "unchanged", ids: try context.resyncIDs())
            Hints(context: context).afterEditing(results.map(\.item))
        }
    }
}
