import TickKit

/// The one confirmation style of every write that names tasks:
/// `<Verb> <short id> (<uuid8>)[ to|in <list>]: <title>[ (<fields>)]`,
/// e.g. `Moved 19 (3f2a9c1e) to Home: Call the bank` or
/// `Edited 3 (6f1c2a3b): Call the bank (due, +errand)`. A task without a
/// short id (a done one, after its number's grace time) shows the UUID prefix alone.
struct Confirmation {
    let terminal: Terminal

    /// `19 (3f2a9c1e)`, the number in bold; or `3f2a9c1e`.
    func label(_ task: TaskItem, shortID: Int?) -> String {
        let prefix = String(task.id.lowercased.prefix(8))
        return shortID.map { "\(terminal.bold(String($0))) (\(prefix))" } ?? terminal.bold(prefix)
    }

    /// A task that changed: `Moved 19 (3f2a9c1e) to Home: title`.
    /// `place` is `to Home` or `in Work`; `fields` names what changed.
    func changed(_ verb: String, _ task: TaskItem, shortID: Int?, place: String? = nil, fields: [String] = []) -> String {
        verb + " " + label(task, shortID: shortID) + (place.map { " " + $0 } ?? "") + ": " + task.title
            + (fields.isEmpty ? "" : " (" + fields.joined(separator: ", ") + ")")
    }

    /// A task a command left as it was: `19 (3f2a9c1e) is already in Home: title`.
    func unchanged(_ task: TaskItem, shortID: Int?, _ why: String) -> String {
        label(task, shortID: shortID) + " " + why + ": " + task.title
    }

    /// The fields that differ between two versions of a task, named as
    /// `tick edit` spells them (``TaskField/confirmationName``, in the
    /// registry's order: `title`, `due`, `remind`, `wait`, `sched`, `at` (the
    /// slot), `pri`, `energy`, `estimate`, `repeat`, `note`, `depends`), then
    /// `+tag` for each tag added and `-tag` for each removed.
    static func fieldNames(from before: TaskItem, to after: TaskItem) -> [String] {
        TaskField.confirmationNames(from: before, to: after)
    }
}
