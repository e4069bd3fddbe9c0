import ArgumentParser
import Foundation
import TickKit

/// Performs the state machine's writes through the CLI's own code: most run
/// the very command (`tick done ID`, `tick mv ID LIST`, `tick undo`, …) in
/// this process, so the store lock, the undo journal, the checks and the
/// confirmation or error text are the CLI's; capture goes through
/// ``TaskAdding`` as `tick add` and `tick capture` do.
struct UIWriter {
    let base: Context
    let global: GlobalOptions
    let capture: OutputCapture

    /// Runs `effect`; returns its outcome for the status line, or nil for an
    /// effect that is not a write. `suspend`/`resume` hand the terminal to `$EDITOR`.
    func perform(_ effect: UIEffect, suspend: () -> Void, resume: () -> Void) -> UIWriteResult? {
        let id = { (uuid: UUID) in uuid.lowercased }
        switch effect {
        case let .add(text, view):
            var made: UUID?
            var result = attempt {
                let (line, id) = try add(text, view: view)
                made = id
                return line
            }
            result.task = made
            return result
        case let .setState(uuid, state):
            let verb = state == .active ? "start" : state == .done ? "done" : "reopen"
            return run([verb, id(uuid)])
        case .delete(let uuid):
            return run(["rm", id(uuid)])
        case let .reorder(uuid, position):
            switch position {
            case .top: return run(["reorder", id(uuid), "--top"])
            case .bottom: return run(["reorder", id(uuid), "--bottom"])
            case .before(let anchor): return run(["reorder", id(uuid), "--before", id(anchor)])
            case .after(let anchor): return run(["reorder", id(uuid), "--after", id(anchor)])
            }
        case let .schedule(uuid, day):
            return run(["edit", id(uuid), day == .today ? "sched:today" : "sched:tomorrow"])
        case let .move(uuid, list):
            return run(["mv", id(uuid), list])
        case let .edit(uuid, text):
            return attempt { try InlineEdit(context: try base.action("ui")).apply(text, to: uuid) }
        case .editInEditor(let uuid):
            suspend()
            capture.end()
            defer {
                capture.begin()
                resume()
            }
            var result = run(["edit", id(uuid)])
            // Its confirmation went to the terminal with the editor.
            if result.succeeded { result.message = "Back from the editor; u undoes the edit." }
            return result
        case .undo:
            return run(["undo"])
        case .setContext(let name):
            return run(["context", name ?? "none"])
        case .load, .quit:
            return nil
        }
    }

    /// `tick ARGS` in this process, with the UI's global options.
    func run(_ arguments: [String]) -> UIWriteResult {
        var args = arguments
        if let store = global.store { args += ["--store", store] }
        return attempt {
            var command = try Tick.command(for: args, environment: base.environment)
            try command.run()
            return nil
        }
    }

    /// Runs `body`; the result is its line, else the last line printed, else
    /// the CLI's error line when it threw.
    func attempt(_ body: () throws -> String?) -> UIWriteResult {
        _ = capture.take()
        do {
            let line = try body()
            let printed = capture.take().split(separator: "\n").map(String.init)
            let warnings = printed.filter { $0.hasPrefix("tick: warning:") }
            let said = printed.filter { !$0.hasPrefix("tick: warning:") }
            // Every line the command printed (`Completed …` and `Next: …` for a repeating task), then its warnings.
            let message = Terminal.unstyled(([line ?? (said.isEmpty ? "Done." : said.joined(separator: " · "))] + warnings).joined(separator: " — "))
            return UIWriteResult(message: message, succeeded: true)
        } catch {
            _ = capture.take()
            return UIWriteResult(message: Self.errorLine(error), succeeded: false)
        }
    }

    /// The line the CLI prints for `error` (`tick: error: …`, or `path:line: error: …`).
    static func errorLine(_ error: Error) -> String {
        if let error = error as? TickError {
            return (error.fileLocation ?? "tick") + ": error: " + error.report.split(separator: "\n").joined(separator: "; ")
        }
        return "tick: error: " + Tick.message(for: error).split(separator: "\n").joined(separator: "; ")
    }

    /// Capture: the current list's file (the inbox in Today and Upcoming),
    /// due today in Today; tokens win (`list:Work`, `due:fri`).
    func add(_ text: String, view: UIView) throws -> (line: String, task: UUID?) {
        let context = try base.action("ui")
        let words = text.split(whereSeparator: \.isWhitespace).map(String.init)
        var flags = TaskEdit()
        if view == .today { flags.due = .set(.day(context.query.today)) }
        let list = view.kind.map { kind -> String in
            if case .list(let slug) = kind { return slug }
            return "inbox"
        }
        let report = try context.adding.add([(nil, words)], flags: flags, list: list)
        report.warnings.forEach(context.terminal.err)
        let items = report.added
        guard let item = items.first else { return ("Nothing added.", nil) }
        return (Confirmation(terminal: context.terminal).changed("Added", item.task, shortID: item.shortID, place: "to " + item.listName), item.task.id)
    }
}
