import Foundation

/// A task as hook scripts see it: Taskwarrior's JSON (the shape of `task
/// export`), one object on one line, so Taskwarrior hooks work unchanged;
/// and what a hook's answer changes in the tick task.
struct HookTaskJSON {
    let context: InterchangeContext

    /// The task's line; `deleted` gives Taskwarrior's deleted status and `end`.
    func line(for task: TaskItem, project: String?, deleted: Bool = false) -> String {
        var node = TaskwarriorCodec.node(for: task, project: project, context: context)
        if deleted, case .object(var members) = node.kind {
            members.removeAll { ["status", "end", "start"].contains($0.key) }
            members.insert(JSONMember("status", .string("deleted")), at: 2)
            members.append(JSONMember("end", .string(TaskwarriorCodec.formatDate(context.now))))
            node = JSONNode(.object(members))
        }
        var out: [UInt8] = []
        TaskwarriorCodec.writeCompact(node, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// `task` with what the hook's answer `returned` changed, compared with the
    /// line it was given (`sent`): the fields Taskwarrior's JSON carries, and
    /// any other key (a UDA), kept as `x-taskwarrior-NAME`. A hook may not
    /// change the uuid or the project (a move is `tick mv`'s), nor delete.
    func apply(returned: String, sent: String, to task: TaskItem, project: String?) throws(HookTaskJSONError) -> TaskItem {
        let before = try decode(sent)
        let after = try decode(returned)
        guard after.task.id == before.task.id else {
            throw HookTaskJSONError("changed the task's uuid (\(before.task.id.lowercased) to \(after.task.id.lowercased))")
        }
        guard after.project == before.project else {
            throw HookTaskJSONError("changed the task's project (\(before.project ?? "none") to \(after.project ?? "none")); a hook cannot move a task, `tick mv` does")
        }
        var result = task
        let a = before.task, b = after.task
        if b.title != a.title { result.title = b.title }
        if b.state != a.state || b.completedAt != a.completedAt {
            result.state = b.state
            result.completedAt = b.completedAt
        }
        if b.due != a.due { result.due = b.due }
        if b.scheduled != a.scheduled { result.scheduled = b.scheduled }
        if b.wait != a.wait { result.wait = b.wait }
        if b.remind != a.remind { result.remind = b.remind }
        if b.repeatRule != a.repeatRule { result.repeatRule = b.repeatRule }
        if b.priority != a.priority { result.priority = b.priority }
        if b.energy != a.energy { result.energy = b.energy }
        if b.notes != a.notes { result.notes = b.notes }
        if b.tags != a.tags {
            result.tags.removeAll { a.tags.contains($0) && !b.tags.contains($0) }
            for tag in b.tags where !a.tags.contains(tag) { result.addTag(tag) }
        }
        if b.depends != a.depends {
            result.depends.removeAll { a.depends.contains($0) && !b.depends.contains($0) }
            for id in b.depends where !a.depends.contains(id) { result.addDependency(id) }
        }
        if b.extra != a.extra {
            let old = TaskItem.members(a.extra), new = TaskItem.members(b.extra)
            for key in Set(old.keys).union(new.keys) where old[key] != new[key] {
                result.extra.removeAll { $0.key == key }
                if let value = new[key] { result.extra.append(JSONMember(key, value)) }
            }
        }
        return result
    }

    private func decode(_ line: String) throws(HookTaskJSONError) -> (task: TaskItem, project: String?) {
        let files: [TaskFile]
        do {
            files = try TaskwarriorCodec.decode(Array(line.utf8), context: context)
        } catch {
            throw HookTaskJSONError("answered a task tick cannot read: \(error.message)")
        }
        guard let file = files.first(where: { !$0.tasks.isEmpty }), let task = file.tasks.first else {
            throw HookTaskJSONError("answered without a task (a hook cannot delete one; exit non-zero to refuse the change)")
        }
        return (task, file.kind == .inbox ? nil : file.displayName)
    }
}

/// Why a hook's answer cannot be taken.
struct HookTaskJSONError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
