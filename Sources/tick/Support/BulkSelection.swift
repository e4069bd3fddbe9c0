import Foundation
import TickKit

/// What a command that changes tasks acts on: task ids as typed (`3 7 6f1c`,
/// `3-7`, `3,9`), resolved strictly as before, or a filter (`+errand
/// list:Home`) that selects tasks through the index. More than `[bulk]
/// confirm` tasks (3 by default) selected by a filter asks first on a
/// terminal and needs --yes in a script (Docs/CLI.md "Changes by filter").
struct BulkSelection {
    let context: Context

    /// True when every word is an id as `tick done` always read them: a
    /// number, 4+ hex digits of a UUID, or numbers with `-` ranges and `,` lists.
    static func isIDList(_ words: [String]) -> Bool {
        !words.isEmpty && words.allSatisfy { word in
            word.split(separator: ",", omittingEmptySubsequences: false).allSatisfy { part in
                let bounds = part.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
                if bounds.count == 2, let a = Int(bounds[0]), let b = Int(bounds[1]), a >= 1, b >= a { return true }
                if let n = Int(part), n >= 1 { return true }
                let hex = part.filter { $0 != "-" }
                return hex.count >= 4 && hex.allSatisfy(\.isHexDigit)
            }
        }
    }

    /// True for one task id: a number or 4+ hex digits of a UUID (not a range or list).
    static func isSingleID(_ word: String) -> Bool {
        if let n = Int(word) { return n >= 1 }
        let hex = word.filter { $0 != "-" }
        return !word.hasPrefix("-") && hex.count >= 4 && hex.allSatisfy(\.isHexDigit)
    }

    /// The ids of an id list, ranges and lists spelled out.
    static func expanded(_ words: [String]) -> [String] {
        words.flatMap { word in
            word.split(separator: ",").flatMap { part -> [String] in
                let bounds = part.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
                if bounds.count == 2, let a = Int(bounds[0]), let b = Int(bounds[1]), a >= 1, b >= a {
                    return (a...b).map(String.init)
                }
                return [String(part)]
            }
        }
    }

    /// The task references to change: ids as typed, or the full UUIDs of the
    /// tasks a filter selects among `states` (a filter that names states or
    /// completion chooses its own). `verb` names the change in the question ("Complete").
    func refs(_ words: [String], states: Set<TaskState>, verb: String, yes: Bool) throws -> [String] {
        if Self.isIDList(words) { return Self.expanded(words) }
        var parsed = try FilterParser(now: context.now, timeZone: context.timeZone).parse(words)
        if case .all = parsed.expression { throw CLIError("give task ids or a filter, e.g. 3 7 or +errand list:Home", status: .usage) }
        let active = try context.activeContext()
        if let active { parsed = parsed.and(active.filter, label: active.label) }
        let chosen = parsed.expression.choosesStates ? Set(TaskState.allCases) : states
        let items = try context.load().index.run(.list(nil), filter: TaskFilter(states: chosen, showWaiting: parsed.expression.choosesWaiting),
                                                 matching: parsed, query: context.query)
        guard !items.isEmpty else {
            let which = chosen == [.open, .active] ? "pending task" : chosen == [.done] ? "done task" : "task"
            throw CLIError("no \(which) matches \(parsed.line)", status: .notFound)
        }
        let limit = try context.config().bulkConfirm
        if items.count > limit && !yes {
            let t = context.terminal
            guard t.stdinIsTTY else {
                throw CLIError("refusing to \(verb.lowercased()) \(items.count) tasks matching \(parsed.line) without confirmation: more than \(limit) "
                    + "need --yes in a script (or narrow the filter; [bulk] confirm in config.toml sets the number)")
            }
            for item in items.prefix(10) {
                let id = item.shortID.map(String.init) ?? String(item.task.id.lowercased.prefix(8))
                t.err("  \(id)  \(item.listName): \(item.task.title)")
            }
            if items.count > 10 { t.err("  … and \(items.count - 10) more") }
            guard askYesNo("\(verb) these \(items.count) tasks?") else { throw CLIError("cancelled; nothing was changed") }
        }
        return items.map(\.task.id.lowercased)
    }
}
