import FoundationEssentials

/// The fields declared in config.toml (`[fields.NAME]`), by name, in name
/// order. Empty when none are declared; then every unknown key of a task
/// is just kept, as before.
public struct UserFields: Sendable, Equatable {
    /// The declared fields, sorted by name.
    public private(set) var all: [UserField] = []

    public init(_ fields: [UserField] = []) {
        all = fields.sorted { $0.name < $1.name }
    }

    public var isEmpty: Bool { all.isEmpty }

    /// The declared field called `name` (lowercased first), or nil.
    public subscript(name: String) -> UserField? {
        let lower = name.lowercased()
        return all.first { $0.name == lower }
    }

    /// The declared names.
    public var names: [String] { all.map(\.name) }

    /// Adds or replaces a field, keeping the name order.
    public mutating func declare(_ field: UserField) {
        all.removeAll { $0.name == field.name }
        all.append(field)
        all.sort { $0.name < $1.name }
    }

    /// The declared fields `task` has a value for, with the value, in name order.
    public func values(of task: TaskItem) -> [(field: UserField, value: JSONNode)] {
        all.compactMap { field in field.value(in: task).map { (field, $0) } }
    }

    /// Names a declared field cannot take, because tick reads them already:
    /// each field's file key and change key (``TaskField/all``), the
    /// quick-add keys and their other spellings (``QuickAddParser/keys``,
    /// ``FieldNames``), the filter keys (``FilterParser/keys``), the keys tick
    /// refuses in `add` (``FieldNames/notTakenOnAdd``), the file's own
    /// keys (`id`, `changed`, `list`) and Taskwarrior's attributes (`until`, `mask`, …).
    public static let reservedNames: Set<String> = {
        var names: Set<String> = ["id", "changed", "list", "order", "version"]
        for field in TaskField.all {
            names.insert(field.name.lowercased())
            names.formUnion(field.properties.map { $0.lowercased() })
            if let key = field.changeKey { names.insert(key.lowercased()) }
            if let key = field.confirmationName { names.insert(key.lowercased()) }
            if let key = field.hookKey, !key.contains("*") { names.insert(key.lowercased()) }
        }
        names.formUnion(QuickAddParser.keys)
        names.formUnion(FieldNames.aliases.keys)
        names.formUnion(FieldNames.aliases.values)
        names.formUnion(FieldNames.notTakenOnAdd.keys)
        names.formUnion(FilterParser.keys)
        names.formUnion(FilterParser.modifiers)
        // Taskwarrior's own attributes: a declared field is a UDA of its name there.
        names.formUnion(TaskwarriorUDA.attributes)
        return names
    }()

    /// Why `name` cannot name a declared field, or nil when it can: it must
    /// be `[a-z][a-z0-9_-]*` and not one of ``reservedNames``.
    public static func nameProblem(_ name: String) -> String? {
        guard let first = name.unicodeScalars.first, ("a"..."z").contains(first),
              name.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "-" })
        else {
            return "a field name of lowercase letters, digits, _ and -, starting with a letter, like [fields.client]"
        }
        if reservedNames.contains(name) {
            return "a name tick does not use already (\(name) is one of tick's own fields or keys); pick another, like [fields.my-\(name)]"
        }
        return nil
    }
}
