import ArgumentParser
import FoundationEssentials
import Glibc
import TickKit

/// Performs the state machine's writes through TickKit's operations
/// (``TaskAdding``, ``TaskMutation``, ``UndoRun``, ``EditorSession``, the
/// active context), each in its own action context, so the undo journal and
/// the hooks name the operation as its command would (`done`, `mv`, `edit`).
/// Their typed results are rendered in the CLI's confirmation style
/// (``Confirmation``) into one status line; nothing is printed.
struct UIWriter {
    let base: Context

    /// Runs `effect`; returns its outcome for the status line, or nil for an
    /// effect that is not a write. `suspend`/`resume` hand the terminal to `$EDITOR`.
    func perform(_ effect: UIEffect, suspend: () -> Void, resume: () -> Void) -> UIWriteResult? {
        switch effect {
        case let .add(text, view):
            return write("add") { context, said in try add(text, view: view, context: context, said: &said) }
        case let .setState(uuid, state):
            switch state {
            case .active: return write("start") { context, said in try start(uuid, context: context, said: &said) }
            case .done: return write("done") { context, said in try complete(uuid, context: context, said: &said) }
            case .open: return write("reopen") { context, said in try reopen(uuid, context: context, said: &said) }
            }
        case .delete(let uuid):
            return write("rm") { context, said in try delete(uuid, context: context, said: &said) }
        case let .reorder(uuid, position):
            return write("reorder") { context, said in try reorder(uuid, to: position, context: context, said: &said) }
        case let .schedule(uuid, day):
            return write("edit") { context, said in try schedule(uuid, on: day, context: context, said: &said) }
        case let .move(uuid, list):
            return write("mv") { context, said in try move(uuid, to: list, context: context, said: &said) }
        case let .edit(uuid, text):
            return write("edit") { context, said in
                report(try InlineEdit(context: context).apply(text, to: uuid), context: context, said: &said)
            }
        case .editInEditor(let uuid):
            suspend()
            defer { resume() }
            return write("edit") { context, said in
                let item = try context.load().tasks.resolve(.id(uuid))
                // The editor has the terminal; its confirmation is printed there, and the status line says where we are.
                try EditorSession(context: context, item: item).run(context: context)
                said.lines.append("Back from the editor; u undoes the edit.")
            }
        case .undo:
            return write("undo") { context, said in try undo(context: context, said: &said) }
        case .setContext(let name):
            // config.toml's warnings are shown by the load that follows.
            return write("context") { context, said in
                said.lines.append(try Tick.ContextCommand.activate(name, context: context, config: try context.config { _ in }))
            }
        case .load, .quit:
            return nil
        }
    }

    /// What one write says: its confirmation lines, then its warnings.
    struct Said {
        var lines: [String] = []
        var warnings: [TickWarning] = []
        /// The task the write made (a capture).
        var task: UUID?
    }

    /// Runs `body` in a fresh action context named `command` (its journal
    /// entry, its hooks); the result is its lines joined with ` · `, then the
    /// warnings and hook feedback, or the CLI's error line when it threw.
    func write(_ command: String, _ body: (Context, inout Said) throws -> Void) -> UIWriteResult {
        let notes = UIWriteNotes()
        do {
            let context = try base.action(command, notes: notes.add)
            var said = Said()
            try body(context, &said)
            // The write's journal and the index: their warnings go to the status line.
            said.warnings += context.takeWarnings()
            let first = said.lines.isEmpty ? "Done." : said.lines.joined(separator: " · ")
            let message = Terminal.unstyled(([first] + said.warnings.map(Diagnostics.line) + notes.lines).joined(separator: " — "))
            return UIWriteResult(message: message, succeeded: true, task: said.task)
        } catch {
            return UIWriteResult(message: Self.errorLine(error), succeeded: false)
        }
    }

    /// The line `main` prints for `error` (`tick: error: …`, or
    /// `path:line: error: …`), its further lines joined with `; `.
    static func errorLine(_ error: Error) -> String {
        let line = (error as? TickError)?.errorLine ?? FileLocation.errorLine(Tick.message(for: error), at: nil)
        return line.split(separator: "\n").joined(separator: "; ")
    }

    /// Capture: the current list's file (the inbox in Today and Upcoming),
    /// due today in Today; tokens win (`list:Work`, `due:fri`).
    func add(_ text: String, view: UIView, context: Context, said: inout Said) throws {
        let words = text.split(whereSeparator: \.isWhitespace).map(String.init)
        var flags = TaskEdit()
        if view == .today { flags[\.due] = .set(.day(context.query.today)) }
        let list = view.kind.map { kind -> String in
            if case .list(let slug) = kind { return slug }
            return "inbox"
        }
        // Under a context, as `tick add`: its tags and list (config.toml's warnings come with the next load).
        let report = try context.adding().add([(nil, words)], flags: flags, list: list, context: try context.contextDefaults { _ in })
        said.warnings += report.warnings
        guard let item = report.added.first else {
            said.lines.append("Nothing added.")
            return
        }
        said.lines.append(Confirmation(terminal: context.terminal).changed("Added", item.task, shortID: item.shortID, place: "to " + item.listName))
        said.task = item.task.id
    }

    /// `tick start ID`.
    func start(_ id: UUID, context: Context, said: inout Said) throws {
        let results = try TaskMutation(context: context).setState([.id(id)], to: .active, reopening: true)
        let ids = try context.resyncIDs()
        said.lines += TaskMutation.lines(results, terminal: context.terminal, verb: "Started", unchanged: "was already active", ids: ids)
    }

    /// `tick done ID`: a repeating task gets its next occurrence (`Next: …`).
    func complete(_ id: UUID, context: Context, said: inout Said) throws {
        let completion = Completion(context: context)
        let results = try completion.complete([.id(id)])
        let (lines, warnings) = completion.describe(results, ids: try context.resyncIDs())
        said.lines += lines
        said.warnings += warnings
    }

    /// `tick reopen ID`: a repeating task's untouched next occurrence is taken back.
    func reopen(_ id: UUID, context: Context, said: inout Said) throws {
        let results = try TaskMutation(context: context).reopen([.id(id)])
        let ids = try context.resyncIDs()
        said.lines += TaskMutation.lines(results.map(\.outcome), terminal: context.terminal, verb: "Reopened", unchanged: "was already open", ids: ids)
        said.lines += results.compactMap { Tick.Reopen.describe($0.detail, ids: ids, terminal: context.terminal) }
    }

    /// `tick rm ID`: tasks that depended on it lose that dependency, with a warning.
    func delete(_ id: UUID, context: Context, said: inout Said) throws {
        let removal = try TaskMutation(context: context).remove([.id(id)])
        said.warnings += TaskMutation.warnings(removal)
        said.lines += TaskMutation.lines(removal.removed.map { .init(item: $0, changed: true) }, terminal: context.terminal, verb: "Deleted", unchanged: "")
        _ = try context.resyncIDs()
    }

    /// `tick reorder ID --top|--bottom|--before ID|--after ID`.
    func reorder(_ id: UUID, to position: ReorderPosition, context: Context, said: inout Said) throws {
        let target: TaskMutation.ReorderTarget
        switch position {
        case .top: target = .top
        case .bottom: target = .bottom
        case .before(let anchor): target = .before(.id(anchor))
        case .after(let anchor): target = .after(.id(anchor))
        }
        let outcome = try TaskMutation(context: context).reorder(.id(id), to: target)
        said.lines += TaskMutation.lines([outcome], terminal: context.terminal, verb: "Reordered", unchanged: "is already there",
                                    place: { "in " + $0.listName })
    }

    /// `tick edit ID sched:today` (or `sched:tomorrow`).
    func schedule(_ id: UUID, on day: UIDay, context: Context, said: inout Said) throws {
        var edit = TaskEdit()
        edit[\.scheduled] = .set(context.query.today.adding(days: day == .today ? 0 : 1))
        report(try TaskMutation(context: context).edit(.id(id), with: edit), context: context, said: &said)
    }

    /// `Edited 3 (6f1c2a3b): title (sched)`, as `tick edit ID CHANGES` prints it, and its warnings.
    func report(_ edited: TaskMutation.Edited, context: Context, said: inout Said) {
        said.warnings += TaskMutation.warnings(edited, timeZone: context.timeZone)
        said.lines.append(TaskMutation.line(edited, terminal: context.terminal))
    }

    /// `tick mv ID LIST` (`inbox` for the inbox).
    func move(_ id: UUID, to list: String, context: Context, said: inout Said) throws {
        let (moved, name, created) = try TaskMutation(context: context).move([.id(id)], to: list)
        _ = try context.resyncIDs()
        if created { said.lines.append(Tick.Move.createdLine(name)) }
        said.lines += Tick.Move.lines(moved, to: name, terminal: context.terminal)
    }

    /// `tick undo`: the last change, in the same journal as the CLI's.
    func undo(context: Context, said: inout Said) throws {
        let ids = try? context.load().index
        let outcome = try UndoRun(store: context.store, force: false).undo(count: 1)
        said.warnings += outcome.warnings
        let after = try? context.resyncIDs()
        said.lines += UndoText.lines(outcome.undone, terminal: context.terminal, ids: after)
        if let failure = outcome.failure {
            throw UndoText.error(failure, undone: outcome.undone.count, requested: 1, ids: ids)
        }
    }
}

/// Lines the journal and the hooks have for the user during one write (a
/// journal that could not be written, a hook's feedback), for the status line.
final class UIWriteNotes: @unchecked Sendable {
    private let lock = Lock()
    private var stored: [String] = []

    var lines: [String] { lock.withLock { stored } }

    @Sendable func add(_ line: String) {
        lock.withLock { stored.append(line) }
    }
}
