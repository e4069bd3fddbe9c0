import FoundationEssentials

/// How a re-import merges a task's unknown keys with the store's, for formats
/// that carry only some of them (todo.txt's `x-todotxt-`, Taskwarrior's
/// `x-taskwarrior-` keys).
enum ImportExtra {
    /// The store's unknown keys with the imported ones: a key the import has takes its
    /// value in the store's place (new ones go last), a key matched by `dropping` that the
    /// import lacks is removed, others stay. Keeping the store's order makes a re-import
    /// that changes no value change no byte (issue 45: `x-todotxt-priority` used to move
    /// behind the others).
    static func merge(_ current: [JSONMember], dropping: (String) -> Bool, imported: [JSONMember]) -> [JSONMember] {
        var placed = Set<String>()
        var result: [JSONMember] = []
        for member in current {
            if let new = imported.first(where: { $0.key == member.key }) {
                if placed.insert(member.key).inserted { result.append(new) }
            } else if !dropping(member.key) {
                result.append(member)
            }
        }
        return result + imported.filter { !placed.contains($0.key) }
    }

    /// ``merge(_:dropping:imported:)`` dropping a set of keys.
    static func merge(_ current: [JSONMember], dropping keys: Set<String>, imported: [JSONMember]) -> [JSONMember] {
        merge(current, dropping: { keys.contains($0) }, imported: imported)
    }
}

extension StoreSnapshot {
    /// `files` with each task the store already holds replaced by `keep(imported,
    /// current)`: how each format's `reconcile` keeps what it cannot say, so a
    /// re-import that changes no value changes no byte (issue 45). Tasks new to the
    /// store are left as imported.
    func reconciling(_ files: [TaskFile], _ keep: (_ imported: TaskItem, _ current: TaskItem) -> TaskItem) -> [TaskFile] {
        var current: [UUID: TaskItem] = [:]
        for (_, task) in allTasks { current[task.id] = task }
        return files.map { file in
            var f = file
            f.tasks = file.tasks.map { t in current[t.id].map { keep(t, $0) } ?? t }
            return f
        }
    }
}
