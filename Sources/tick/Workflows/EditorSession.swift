import FoundationEssentials
import Glibc
import TickKit

/// The terminal side of TickKit's ``EditorSession`` (`tick edit ID` with no
/// flags): the scratch file under the store's state directory, $VISUAL or
/// $EDITOR on the terminal, "Edit again?", and the confirmation line.
extension EditorSession {
    /// The command's edit of `item`: its store, start time and zone.
    init(context: Context, item: ListedTask) throws {
        self.init(store: context.store, session: context.indexSession, item: item, now: context.now, timeZone: context.timeZone,
                  path: Self.scratchPath(location: context.store.location, task: item.task, processID: getpid()),
                  fields: try context.userFields())
    }

    /// Edits the task in the user's editor and prints what was saved.
    func run(context: Context) throws {
        let t = context.terminal
        let outcome = try run(edit: { path in try Self.launchEditor(on: path, context: context) }, retry: { error in
            t.err(error.errorDescription ?? error.summary)
            guard t.stdinIsTTY && t.stderrIsTTY else { return false }
            return askYesNo("Edit again?", defaultYes: true)
        })
        switch outcome {
        case .noChanges:
            t.out("No changes.")
        case let .saved(original, edited, changed, completion):
            // The same confirmation as `tick edit ID tokens`, naming what changed (state included).
            let confirm = Confirmation(terminal: t)
            var fields = Confirmation.fieldNames(from: original, to: edited)
            if original.state != edited.state { fields.insert("state", at: 0) }
            t.out(changed
                ? confirm.changed("Edited", edited, shortID: item.shortID, fields: fields)
                : confirm.unchanged(edited, shortID: item.shortID, "unchanged"))
            // A completion reports its series as `tick done` does (the next occurrence, or why none).
            if let completion {
                Completion(context: context).reportSeries(of: .init(item: item, outcome: completion), ids: try context.resyncIDs())
            }
        }
    }

    private static func launchEditor(on path: String, context: Context) throws {
        let env = context.environment
        // $VISUAL first, then $EDITOR, as git and crontab do.
        let editor = [env["VISUAL"], env["EDITOR"]].compactMap { $0 }.first { !$0.isEmpty } ?? "vi"
        // The editor command may carry arguments ("code --wait"); the path is passed as $1, never interpolated.
        var request = ProcessRequest(program: "/bin/sh", arguments: ["-c", "\(editor) \"$1\"", "tick-edit", path],
                                     directory: context.process.currentDirectory, environment: env)
        request.usesTerminal = true
        let result: ProcessResult
        do {
            result = try ProcessRunner.run(request)
        } catch {
            throw CLIError("cannot start the editor \"\(editor)\": \(error.message); set $EDITOR")
        }
        guard result.status == 0 else {
            throw CLIError("the editor \"\(editor)\" exited with status \(result.status); nothing was saved (your text is in \(path))")
        }
    }
}
