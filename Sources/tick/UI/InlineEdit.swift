import FoundationEssentials
import TickKit

/// `e` in `tick ui`: the task becomes what the input line says
/// (``UILineEdit`` decides which fields that clears), written as `tick edit
/// ID CHANGES` writes it (``TaskMutation/edit(_:with:)``, one undo entry).
struct InlineEdit {
    let context: Context

    /// Applies the line to the task; returns what the edit did.
    func apply(_ text: String, to id: UUID) throws -> TaskMutation.Edited {
        let words = text.split(whereSeparator: \.isWhitespace).map(String.init)
        let (titleWords, tokens) = try context.quickAdd().split(words, allowRemoval: true)
        let task = try context.load().tasks.resolve(.id(id)).task
        let edit = try UILineEdit.change(to: task, titleWords: titleWords, tokens: tokens, fields: try context.userFields())
        return try TaskMutation(context: context).edit(.id(id), with: edit)
    }
}
