import FoundationEssentials

/// How one field of the table is a CSV cell (``TaskField/cell``): from its
/// value type's ``CellValue`` conformance; a field whose type has none has
/// no CSV column.
struct FieldCellCoding: Sendable {
    /// The field's cell for a task.
    let write: @Sendable (TaskItem) -> String
    /// The field's word on a todo.txt line ("" when unset).
    let todoTxtWord: @Sendable (TaskItem) -> String
    /// Reads a non-empty cell onto a task, or says why the text is no value
    /// of the column, named in the message as the last argument says.
    let read: @Sendable (inout TaskItem, String, String) -> CellProblem?

    /// Reads a non-empty cell of the field's own column onto a task.
    func read(_ task: inout TaskItem, _ text: String) -> CellProblem? {
        read(&task, text, column)
    }

    /// The field's column: its name.
    let column: String

    /// The coding of the value at `path`, nil when its type is no ``CellValue``.
    static func value<V>(_ column: String, _ path: WritableKeyPath<TaskItem, V> & Sendable) -> FieldCellCoding? {
        guard let type = V.self as? any CellValue.Type else { return nil }
        func coding<T: CellValue>(_: T.Type) -> FieldCellCoding? {
            // T is V, opened: the cast cannot fail. The path is a key path
            // literal of the table, immutable and so safe to share.
            guard let cast = path as? WritableKeyPath<TaskItem, T> else { return nil }
            nonisolated(unsafe) let typed = cast
            return FieldCellCoding(
                write: { $0[keyPath: typed].cellText },
                todoTxtWord: { $0[keyPath: typed].todoTxtWord },
                read: { task, text, column in
                    switch T.fromCell(text, column: column) {
                    case .success(let value):
                        task[keyPath: typed] = value
                        return nil
                    case .failure(let problem):
                        return problem
                    }
                },
                column: column)
        }
        return coding(type)
    }
}
