import FoundationEssentials
import Glibc
import TickKit

/// The terminal side of `tick review`: TickKit's ``ReviewSession`` decides
/// and changes; this asks on stdin and prints.
extension ReviewSession {
    /// The command's review: its store, index, start time and zone.
    init(context: Context) {
        self.init(store: context.store, session: context.indexSession, now: context.now, timeZone: context.timeZone)
    }

    /// Asks about each task in turn. On a terminal one key answers (no
    /// Enter; a date is typed as a line); piped, answers are read line by
    /// line. A bad answer asks again; end of input stops like `q`.
    func run(_ items: [ListedTask], context: Context) {
        let t = context.terminal
        let renderer = TaskRenderer(terminal: t, dates: context.dates, query: context.query)
        let width = renderer.idWidth(items)
        t.out("Review: \(items.count) task\(items.count == 1 ? "" : "s") overdue, due or scheduled today. tick never moves a date by itself.")
        let summary = run(items, decide: { n, item in
            t.out("")
            t.out("[\(n + 1)/\(items.count)] " + renderer.line(item, idWidth: width, showList: true))
            return Self.decide(context)
        }, report: { item, outcome in
            Self.render(outcome, item, context: context)
        })
        t.out("")
        let tally = summary.tally
        var line = "Reviewed \(tally.reviewed) of \(summary.total): \(tally.done) done, \(tally.moved) moved, \(tally.inbox) to inbox, \(tally.skipped) skipped"
        if tally.failed > 0 { line += ", \(tally.failed) failed" }
        if let stoppedBy = summary.stoppedBy, summary.left > 0 { line += " (stopped: \(stoppedBy.rawValue); \(summary.left) left as they are)" }
        t.out(line + ".")
    }

    /// Asks the question until the answer means something; nil at end of input.
    private static func decide(_ context: Context) -> Decision? {
        let t = context.terminal
        while true {
            guard let text = ask(Self.question, context, oneKey: true) else { return nil }
            switch answer(text) {
            case .done: return .done
            case .tomorrow: return .moveTo(.day(context.query.today.adding(days: 1)))
            case .pick:
                guard let when = pickDate(context) else { return nil }
                guard let target = when else { continue }   // empty answer: back to the question
                return .moveTo(target)
            case .inbox: return .inbox
            case .skip: return .skip
            case .quit: return .quit
            case nil: t.out("Please answer d, t, p, i, s or q.")
            }
        }
    }

    /// Prints what one action did; a failure goes to stderr.
    private static func render(_ outcome: Outcome, _ item: ListedTask, context: Context) {
        let t = context.terminal
        switch outcome {
        case let .completed(updated, result, ids):
            Completion(context: context).report([Completion.Result(item: updated, outcome: result)], ids: ids)
        case .moved(let target, _):
            t.out("Moved \(label(item, t)) to \(context.dates.label(target)).")
        case .sentToInbox:
            t.out("Sent \(label(item, t)) back to the inbox (no dates).")
        case .skipped:
            t.out("Skipped.")
        case .failed(let error):
            t.err("tick: \(ErrorText.describe(error))")
        }
    }

    /// Prints the prompt and reads one line; nil at end of input. When stdin is
    /// not a terminal the answer is echoed, so a log of a piped session reads well.
    /// `oneKey`: on a terminal, one key is the answer (no Enter), echoed.
    private static func ask(_ prompt: String, _ context: Context, oneKey: Bool = false) -> String? {
        let t = context.terminal
        t.outRaw(prompt)
        if oneKey, t.stdinIsTTY {
            guard let key = SingleKey.read() else {
                t.out("")
                return nil
            }
            let shown = key.isNewline ? "" : TextRules.visible(String(key))
            t.out(shown)
            return shown.trimmingWhitespace()
        }
        guard let line = readLine(strippingNewline: true) else {
            t.out("")
            return nil
        }
        let answer = line.trimmingWhitespace()
        if !t.stdinIsTTY { t.out(answer) }
        return answer
    }

    /// Asks for a WHEN until it parses. Returns nil at end of input, `.some(nil)` for an empty answer.
    private static func pickDate(_ context: Context) -> TaskDate?? {
        let parser = WhenParser(now: context.now, timeZone: context.timeZone)
        while true {
            guard let text = ask("Date (e.g. fri, 2026-12-01, in 3d, mon@9:00; empty to go back): ", context) else { return nil }
            if text.isEmpty { return .some(nil) }
            do {
                return .some(try parser.parse(text))
            } catch {
                context.terminal.out("Not a date: \(ErrorText.describe(error))")
            }
        }
    }

    /// `12 (6f1c2a3b)`.
    static func label(_ item: ListedTask, _ t: Terminal) -> String {
        let prefix = String(item.task.id.lowercased.prefix(8))
        return item.shortID.map { "\(t.bold(String($0))) (\(prefix))" } ?? t.bold(prefix)
    }
}
