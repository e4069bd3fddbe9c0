import FoundationEssentials

/// `e` in `tick ui`: what the edited input line means for the task. The line
/// was prefilled with the task as quick-add words (``UITaskText``), so a
/// token taken out clears that field and a tag taken out is removed.
public enum UILineEdit {
    /// The change the line makes to `task`, given the line as
    /// ``QuickAddParser/split(_:allowRemoval:)`` reads it (title words and
    /// tokens). A `list:` (a move is `m`'s) or a slot (`at:`, `for:`) is
    /// refused, and so is a line without a title.
    public static func change(to task: TaskItem, titleWords: [String], tokens: TaskEdit,
                              fields: UserFields = UserFields()) throws(InputError) -> TaskEdit {
        if tokens.list != nil {
            throw .invalid("list: cannot be changed by edit; press m to move the task to another list")
        }
        guard tokens.slot == .keep, tokens.slotMinutes == nil else {
            throw .invalid("a slot (at:, for:) is set with tick edit ID at:…, not from the UI's line")
        }
        guard !titleWords.isEmpty else { throw .emptyTitle }
        var edit = tokens
        edit.title = titleWords.joined(separator: " ")
        // What the line no longer says is cleared: each field the line showed
        // (``UITaskText``), but a slot's day, which the slot keeps.
        for input in TaskField.inputs {
            guard let clear = input.clear, edit.changes[clear.key] == nil, input.word(task, .utc) != nil else { continue }
            if clear.key == TaskEdit.key(of: \.scheduled), task.slot != nil { continue }
            edit.set(clear)
        }
        // A declared field the line showed (``UITaskText/word(_:for:timeZone:)``) and no longer says.
        for (field, value) in fields.values(of: task) where edit.userFields[field.name] == nil {
            if UITaskText.word(value, for: field, timeZone: .utc) != nil { edit.userFields[field.name] = .clear }
        }
        let kept = Set(edit.addTags.map { $0.lowercased() })
        edit.removeTags += task.tags.filter { !kept.contains($0.lowercased()) }
        if let problem = edit.textProblem { throw .invalid(problem) }
        return edit
    }
}
