import Foundation
import TickKit

/// `e` in `tick ui`: the task becomes what the input line says. The line was
/// prefilled with the task as quick-add words (``UITaskText``), so a token
/// taken out of it clears that field and a tag taken out is removed. Written
/// as `tick edit FILTER -- CHANGES` writes (``TaskMutation``, one undo entry).
struct InlineEdit {
    let context: Context

    /// Applies the line to the task; returns the confirmation line.
    func apply(_ text: String, to id: UUID) throws -> String {
        let words = text.split(whereSeparator: \.isWhitespace).map(String.init)
        let (titleWords, tokens) = try context.quickAdd.split(words, allowRemoval: true)
        if tokens.list != nil {
            throw CLIError("list: cannot be changed by edit; press m to move the task to another list", status: .usage)
        }
        guard tokens.slot == .keep, tokens.slotMinutes == nil else {
            throw CLIError("a slot (at:, for:) is set with tick edit ID at:…, not from the UI's line", status: .usage)
        }
        guard !titleWords.isEmpty else { throw InputError.emptyTitle }
        let loaded = try context.load()
        let item = try loaded.tasks.resolve(id.lowercased)
        var edit = tokens
        edit.title = titleWords.joined(separator: " ")
        let task = item.task
        // What the line no longer says is cleared.
        if task.due != nil, edit.due == .keep { edit.due = .clear }
        if task.scheduled != nil, edit.scheduled == .keep, task.slot == nil { edit.scheduled = .clear }
        if task.remind != nil, edit.remind == .keep { edit.remind = .clear }
        if task.repeatRule != nil, edit.repeatRule == .keep { edit.repeatRule = .clear }
        if task.priority != nil, edit.priority == .keep { edit.priority = .clear }
        if task.energy != nil, edit.energy == .keep { edit.energy = .clear }
        if task.estimate != nil, edit.estimate == .keep { edit.estimate = .clear }
        if task.wait != nil, edit.wait == .keep { edit.wait = .clear }
        let kept = Set(edit.addTags.map { $0.lowercased() })
        edit.removeTags += task.tags.filter { !kept.contains($0.lowercased()) }
        if let problem = edit.textProblem { throw InputError.invalid(problem) }
        try DependencyInput(loaded: loaded).resolve(&edit, for: id)
        let mutation = TaskMutation(context: context)
        let frozen = edit
        let results = try mutation.apply([id.lowercased]) { task, now in frozen.apply(to: &task, now: now) }
        guard let outcome = results.first else { throw LookupError.taskNotFound(id.lowercased) }
        let confirm = Confirmation(terminal: context.terminal)
        return outcome.changed
            ? confirm.changed("Edited", outcome.item.task, shortID: outcome.item.shortID,
                              fields: Confirmation.fieldNames(from: task, to: outcome.item.task))
            : confirm.unchanged(outcome.item.task, shortID: outcome.item.shortID, "unchanged")
    }
}
