import Foundation
import TickKit

/// The interactive walk of `tick review`, and the actions it shares with
/// `--all-to`: every change goes through the store lock and StoreWriter.update.
struct ReviewSession {
    let context: Context
    let loaded: Context.Loaded

    /// What the user decided, counted for the summary.
    struct Tally {
        var done = 0
        var moved = 0
        var inbox = 0
        var skipped = 0
        var failed = 0

        var reviewed: Int { done + moved + inbox + skipped + failed }
    }

    static let question = "[d]one  [t]omorrow  [p]ick a date  [i]nbox  [s]kip  [q]uit? "

    /// Asks about each task in turn. Answers are read line by line from stdin;
    /// a bad answer asks again; end of input stops like `q`.
    func run(_ items: [ListedTask]) {
        let t = context.terminal
        let renderer = TaskRenderer(terminal: t, dates: context.dates, query: context.query)
        let width = renderer.idWidth(items)
        t.out("Review: \(items.count) task\(items.count == 1 ? "" : "s") overdue, due or scheduled today. tick never moves a date by itself.")
        var tally = Tally()
        var stoppedBy: String?
        walk: for (n, item) in items.enumerated() {
            t.out("")
            t.out("[\(n + 1)/\(items.count)] " + renderer.line(item, idWidth: width, showList: true))
            while true {
                guard let answer = ask(Self.question) else { stoppedBy = "end of input"; break walk }
                switch answer.lowercased() {
                case "d", "done":
                    perform(\.done, &tally) { try complete(item) }
                case "t", "tomorrow":
                    perform(\.moved, &tally) { try reschedule(item, to: .day(context.query.today.adding(days: 1))) }
                case "p", "pick", "pick a date":
                    guard let when = pickDate() else { stoppedBy = "end of input"; break walk }
                    guard let target = when else { continue }   // empty answer: back to the question
                    perform(\.moved, &tally) { try reschedule(item, to: target) }
                case "i", "inbox":
                    perform(\.inbox, &tally) { try sendToInbox(item) }
                case "s", "skip", "":
                    if answer.isEmpty { t.out("Please answer d, t, p, i, s or q."); continue }
                    tally.skipped += 1
                    t.out("Skipped.")
                case "q", "quit":
                    stoppedBy = "quit"
                    break walk
                default:
                    t.out("Please answer d, t, p, i, s or q.")
                    continue
                }
                break
            }
        }
        t.out("")
        let rest = items.count - tally.reviewed
        var summary = "Reviewed \(tally.reviewed) of \(items.count): \(tally.done) done, \(tally.moved) moved, \(tally.inbox) to inbox, \(tally.skipped) skipped"
        if tally.failed > 0 { summary += ", \(tally.failed) failed" }
        if let stoppedBy, rest > 0 { summary += " (stopped: \(stoppedBy); \(rest) left as they are)" }
        t.out(summary + ".")
    }

    /// Prints the prompt and reads one line; nil at end of input. When stdin is
    /// not a terminal the answer is echoed, so a log of a piped session reads well.
    private func ask(_ prompt: String) -> String? {
        let t = context.terminal
        t.outRaw(prompt)
        guard let line = readLine(strippingNewline: true) else {
            t.out("")
            return nil
        }
        let answer = line.trimmingCharacters(in: .whitespaces)
        if !t.stdinIsTTY { t.out(answer) }
        return answer
    }

    /// Asks for a WHEN until it parses. Returns nil at end of input, `.some(nil)` for an empty answer.
    private func pickDate() -> TaskDate?? {
        let parser = WhenParser(now: context.now, timeZone: context.timeZone)
        while true {
            guard let text = ask("Date (e.g. fri, 2026-12-01, in 3d, mon@9:00; empty to go back): ") else { return nil }
            if text.isEmpty { return .some(nil) }
            do {
                return .some(try parser.parse(text))
            } catch {
                context.terminal.out("Not a date: \(error.localizedDescription)")
            }
        }
    }

    /// Runs one action; a failure (the task vanished meanwhile) is reported and counted.
    private func perform(_ counter: WritableKeyPath<Tally, Int>, _ tally: inout Tally, _ action: () throws -> Void) {
        do {
            try action()
            tally[keyPath: counter] += 1
        } catch {
            tally.failed += 1
            context.terminal.err("tick: \(error.localizedDescription)")
        }
    }

    // MARK: Actions

    /// Completes through the recurrence-aware path and prints what happened.
    func complete(_ item: ListedTask) throws {
        let completion = Completion(context: context)
        let results = try completion.complete([item], index: loaded.index)
        completion.report(results, ids: try context.resyncIDs())
    }

    /// Moves the task's today-dates to `target` and prints the result.
    func reschedule(_ item: ListedTask, to target: TaskDate) throws {
        let query = context.query
        let now = context.now
        let zone = context.timeZone
        try context.store.withLock { writer in
            try writer.update(item.kind) { file in
                try file.updateTask(item.task.id) { task in
                    task.reschedule(to: target, today: query.today, now: now, timeZone: zone)
                }
            }
        }
        context.terminal.out("Moved \(label(item)) to \(context.dates.label(target)).")
    }

    /// Back to the inbox: clears due, scheduled and remind, and moves the task to
    /// inbox.json (appended; the source file keeps a tombstone, as `tick mv` does).
    func sendToInbox(_ item: ListedTask) throws {
        let now = context.now
        try context.store.withLock { writer in
            if item.kind == .inbox {
                try writer.update(.inbox) { file in
                    try file.updateTask(item.task.id) { task in task.clearDates(now: now) }
                }
                return
            }
            // A read-only file at either end stops the move before either is written.
            try writer.requireWritable([.inbox, item.kind])
            // Read the task as it is now, under the lock.
            let current: TaskItem = try writer.update(item.kind) { file in
                guard let i = file.index(of: item.task.id) else { throw LookupError.taskNotFound(item.task.id.lowercased) }
                return file.tasks[i]
            }
            var task = current
            task.clearDates(now: now)
            task.modifiedAt = now
            try writer.update(.inbox, create: { TaskFile.empty(.inbox, name: nil, now: now) }) { file in
                if file.index(of: task.id) == nil { file.tasks.append(task) }
                file.deleted.removeAll { $0.id == task.id }
            }
            try writer.update(item.kind) { file in
                file.tasks.removeAll { $0.id == task.id }
                file.recordDeletion(of: [task.id], at: now)
            }
        }
        context.terminal.out("Sent \(label(item)) back to the inbox (no dates).")
    }

    /// `12 (6f1c2a3b)`.
    func label(_ item: ListedTask) -> String {
        let prefix = String(item.task.id.lowercased.prefix(8))
        let t = context.terminal
        return item.shortID.map { "\(t.bold(String($0))) (\(prefix))" } ?? t.bold(prefix)
    }
}
