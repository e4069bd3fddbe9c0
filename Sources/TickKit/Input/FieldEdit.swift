import FoundationEssentials

/// One field's change in a ``TaskEdit``: a ``FieldChange`` of the field's own
/// value type, kept without its type so an edit holds the changes of every
/// field of the table (``TaskField/input``) in one place.
public struct FieldEdit: Sendable, Equatable {
    /// The changed property's place in a task (``TaskEdit/key(of:)``).
    let key: Int
    /// The typed change, a `FieldChange` of the property's value type.
    let change: any Sendable
    private let equals: @Sendable (any Sendable) -> Bool
    private let applying: @Sendable (inout TaskItem) -> Bool

    /// The change `change` of the property at `path`.
    init<V: Sendable & Equatable>(_ change: FieldChange<V>, at path: WritableKeyPath<TaskItem, V?> & Sendable) {
        key = TaskEdit.key(of: path)
        self.change = change
        equals = { ($0 as? FieldChange<V>) == change }
        applying = { task in change.apply(to: &task[keyPath: path]) }
    }

    /// The change, when it is of `V`'s.
    func typed<V>(_: V.Type) -> FieldChange<V>? { change as? FieldChange<V> }

    /// Applies the change; returns true when the task changed.
    func apply(to task: inout TaskItem) -> Bool { applying(&task) }

    public static func == (a: FieldEdit, b: FieldEdit) -> Bool {
        a.key == b.key && a.equals(b.change)
    }
}

/// How `key:value` words set a field of the table: quick-add, the words and
/// flags of `tick add` and `tick edit`, the UI's `e` line (``UITaskText``).
struct FieldInputCoding: Sendable {
    /// The key typed (`due`, `sched`, `pri`); other spellings are ``FieldNames/aliases``.
    let key: String
    /// Reads the value typed after the key, `spelled` as the user typed it
    /// (an alias or a flag, for the error); nil for the keys the parser
    /// reads itself (`at:` with `for:`, `depends:` with ids to resolve).
    let parse: (@Sendable (_ text: String, _ spelled: String, _ parser: FieldParser) throws(InputError) -> FieldEdit)?
    /// The change that clears it (`due:` in `tick edit`).
    let clear: FieldEdit?
    /// The task's value as the UI's line types it again (times in the
    /// zone), nil when unset or when the parser reads the key itself.
    let word: @Sendable (TaskItem, Zone) -> String?
    /// A value to show in an error that asks for one.
    let example: String

    /// A field of one value the words type (``InputValue``).
    static func value<V: InputValue>(_ key: String, _ path: WritableKeyPath<TaskItem, V?> & Sendable) -> FieldInputCoding {
        value(key, path, example: V.inputExample, parse: { text, spelled, parser throws(InputError) in try V.parse(text, key: spelled, parser) }, word: { $0.inputWord($1) })
    }

    /// A field of one value, read by `parse` and typed again by `word`.
    static func value<V: Sendable & Equatable>(
        _ key: String, _ path: WritableKeyPath<TaskItem, V?> & Sendable, example: String,
        parse: @escaping @Sendable (_ text: String, _ spelled: String, _ parser: FieldParser) throws(InputError) -> V,
        word: @escaping @Sendable (V, Zone) -> String
    ) -> FieldInputCoding {
        let stored = TaskProperty(path)
        return FieldInputCoding(
            key: key,
            parse: { text, spelled, parser throws(InputError) in FieldEdit(.set(try parse(text, spelled, parser)), at: path) },
            clear: FieldEdit(FieldChange<V>.clear, at: path),
            word: { task, zone in stored.get(task).map { word($0, zone) } }, example: example)
    }

    /// A key the quick-add parser reads itself (`at:`, `depends:`).
    static func own(_ key: String, example: String) -> FieldInputCoding {
        FieldInputCoding(key: key, parse: nil, clear: nil, word: { _, _ in nil }, example: example)
    }
}
