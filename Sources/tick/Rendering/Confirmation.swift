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
    /// `tick edit` spells them: `title`, `due`, `remind`, `sched`, `at` (the
    /// slot), `pri`, `energy`, `estimate`, `repeat`, `note`, then `+tag` for
    /// each tag added and `-tag` for each removed.
    static func fieldNames(from before: TaskItem, to after: TaskItem) -> [String] {
        var names: [String] = []
        if before.title != after.title { names.append("title") }
        if before.due != after.due { names.append("due") }
        if before.remind != after.remind { names.append("remind") }
        if before.wait != after.wait { names.append("wait") }
        // A slot sets its day as the scheduled day: name the slot alone then.
        let slotChanged = before.slot != after.slot
        if before.scheduled != after.scheduled, !(slotChanged && after.scheduled == after.slot?.day) { names.append("sched") }
        if slotChanged { names.append("at") }
        if before.priority != after.priority { names.append("pri") }
        if before.energy != after.energy { names.append("energy") }
        if before.estimate != after.estimate { names.append("estimate") }
        if before.repeatRule != after.repeatRule { names.append("repeat") }
        if before.notes != after.notes { names.append("note") }
        if before.depends != after.depends { names.append("depends") }
        names += after.tags.filter { !before.tags.contains($0) }.map { "+" + $0 }
        names += before.tags.filter { !after.tags.contains($0) }.map { "-" + $0 }
        return names
    }
}
