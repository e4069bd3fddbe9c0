import Foundation
import TickKit

/// Adds tasks from quick-add words: the path shared by `tick add` and `tick capture`.
struct TaskAdder {
    let context: Context

    /// One task's words, with its stdin line number (for messages) when it came from stdin.
    typealias Input = (line: Int?, words: [String])

    /// Parses every input, resolves its list (inbox by default), then writes
    /// all of them under one lock, one write per file. Returns the new tasks
    /// with their short ids. Nothing is written when any input is invalid.
    func add(_ inputs: [Input], flags: TaskEdit = TaskEdit(), list: String? = nil) throws -> [ListedTask] {
        let loaded = try context.load()
        var planned: [(kind: FileKind, task: TaskItem)] = []
        for input in inputs {
            let (title, tokenEdit): (String, TaskEdit)
            do {
                (title, tokenEdit) = try context.quickAdd.parse(input.words)
                guard !title.trimmingCharacters(in: .whitespaces).isEmpty else { throw InputError.emptyTitle }
                var text = flags
                text.merge(tokenEdit)
                text.title = title
                if let problem = text.textProblem { throw InputError.invalid(problem) }
            } catch let error as InputError {
                guard let line = input.line else { throw error }
                throw InputError.invalid("stdin line \(line): \(error.errorDescription ?? "invalid")")
            }
            var edit = flags
            if let list { edit.list = list }
            edit.merge(tokenEdit)
            try DependencyInput(context: context, loaded: loaded).resolve(&edit, for: nil)
            let kind: FileKind
            do {
                kind = try edit.list.map { try loaded.lists.resolve($0) } ?? .inbox
            } catch let error as LookupError where input.line != nil {
                throw CLIError("stdin line \(input.line ?? 0): \(error.errorDescription ?? "")", status: ExitStatus.of(error))
            }
            try edit.checkSlot(on: TaskItem(id: UUID(), title: title, createdAt: context.now, modifiedAt: context.now))
            planned.append((kind, edit.makeTask(title: title, now: context.now)))
        }
        let now = context.now
        var warnings: [String] = []
        let placing = planned.contains { $0.task.slot != nil }
        var existing: [TaskItem] = []
        for day in Set(planned.compactMap(\.task.slot?.day)) {
            existing += try loaded.index.placedTasks(on: day).map(\.task)
        }
        try context.store.withLock { writer in
            // A slot over a commitment is refused; over another placed task, a warning.
            if placing {
                let commitments = try context.store.commitments().blocks
                var others = existing
                for p in planned {
                    warnings += try SlotGuard.check(before: nil, after: p.task, commitments: commitments, tasks: others,
                                                    shortID: { loaded.index.shortID(of: $0) })
                    others.append(p.task)
                }
            }
            var order: [FileKind] = []
            for p in planned where !order.contains(p.kind) { order.append(p.kind) }
            for kind in order {
                let tasks = planned.filter { $0.kind == kind }.map(\.task)
                try writer.update(kind, create: kind == .inbox ? { TaskFile.empty(.inbox, name: nil, now: now) } : nil) { file in
                    file.tasks.append(contentsOf: tasks)
                }
            }
        }
        let ids = try context.resyncIDs()
        warnings.forEach(context.terminal.err)
        return planned.map { p in
            ListedTask(task: p.task, kind: p.kind, listName: loaded.name(of: p.kind), shortID: ids.shortID(of: p.task.id))
        }
    }
}
