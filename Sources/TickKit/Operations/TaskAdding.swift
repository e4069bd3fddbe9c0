import FoundationEssentials

/// Adds tasks from quick-add words: the workflow behind `tick add`, `tick
/// capture` and `tick ui`'s add line. Every input is parsed and its list
/// resolved first (the inbox by default); then all are written under one
/// lock, one write per file. Nothing is written when any input is invalid.
public struct TaskAdding {
    let store: Store
    let session: IndexSession
    let now: Date
    let quickAdd: QuickAddParser

    public init(store: Store, session: IndexSession, now: Date, quickAdd: QuickAddParser) {
        self.store = store
        self.session = session
        self.now = now
        self.quickAdd = quickAdd
    }

    /// One task's words, with its stdin line number (for messages) when it came from stdin.
    public typealias Input = (line: Int?, words: [String])

    /// What was added.
    public struct Report {
        /// The new tasks, with their short ids, in input order.
        public var added: [ListedTask]
        /// Warnings (a slot over another placed task, a task outside the active context).
        public var warnings: [TickWarning]
        /// The new tasks the active context's filter does not match: listings hide them.
        public var outsideContext: [ListedTask] = []
        /// Lists made on first use (`list:Home` naming no list), by name.
        public var createdLists: [String] = []
    }

    /// Adds one task per input; `flags` (the command's options) apply to
    /// each, under its own words; `list` is the list when the words name none.
    /// Under an active `context`, each task takes what the context's filter
    /// writes (``ContextDefaults``) where the words and `list` do not say
    /// otherwise; a task the context's filter still does not match is
    /// reported in ``Report/outsideContext`` and with a warning.
    public func add(_ inputs: [Input], flags: TaskEdit = TaskEdit(), list: String? = nil,
                    context: ContextDefaults? = nil) throws -> Report {
        let loaded = try session.load()
        // The context's list, when it names exactly one (else it writes no list).
        let contextKind: FileKind? = context?.list.flatMap { name in
            let kinds = FilterBindings.lists(matching: name, in: loaded.listInfos)
            return kinds.count == 1 ? kinds.first : nil
        }
        var planned: [(kind: FileKind, task: TaskItem)] = []
        // Lists `list:` names that do not exist yet: made with the tasks (one undo takes both back).
        var newLists: [(name: String, slug: String)] = []
        for input in inputs {
            let (title, tokenEdit): (String, TaskEdit)
            do {
                (title, tokenEdit) = try quickAdd.parse(input.words)
                guard !title.trimmingWhitespace().isEmpty else { throw InputError.emptyTitle }
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
            if let context { edit = context.applied(to: edit) }
            // A declared field's default, where the words did not set it.
            for field in quickAdd.userFields.all where edit.userFields[field.name] == nil {
                guard let text = field.defaultText else { continue }
                do { edit.userFields[field.name] = .set(try field.parse(text, with: quickAdd.fields)) } catch {
                    throw InputError.invalid("the default of \(field.name) in config.toml: \(error.errorDescription ?? "not valid")")
                }
            }
            try DependencyInput(loaded: loaded).resolve(&edit, for: nil)
            var kind = contextKind ?? .inbox
            if let name = edit.list {
                let target: ListResolver.Target
                do {
                    target = try loaded.lists.target(name)
                } catch {
                    guard let line = input.line else { throw error }
                    throw InputLineError(line: line, error)
                }
                // The same new name twice (any case) gets the same slug: one list.
                if case .new(let name, let slug) = target, !newLists.contains(where: { $0.slug == slug }) { newLists.append((name, slug)) }
                kind = target.kind
            }
            try edit.checkSlot(on: TaskItem(id: UUID(), title: title, createdAt: now, modifiedAt: now))
            planned.append((kind, edit.makeTask(title: title, now: now)))
        }
        let now = self.now
        var warnings: [TickWarning] = []
        let placing = planned.contains { $0.task.slot != nil }
        var existing: [TaskItem] = []
        for day in Set(planned.compactMap(\.task.slot?.day)) {
            existing += try loaded.index.placedTasks(on: day).map(\.task)
        }
        try store.withLock { writer in
            // A slot over a commitment is refused; over another placed task, a warning.
            if placing {
                let commitments = try store.commitments().blocks
                var others = existing
                for p in planned {
                    warnings += try SlotGuard.check(before: nil, after: p.task, commitments: commitments, tasks: others,
                                                    shortID: { loaded.index.shortID(of: $0) })
                    others.append(p.task)
                }
            }
            for list in newLists {
                try writer.createList(named: list.name, slug: list.slug, now: now)
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
        let ids = session.resync()
        let added = planned.map { p in
            ListedTask(task: p.task, kind: p.kind, listName: loaded.name(of: p.kind), shortID: ids.shortID(of: p.task.id))
        }
        var report = Report(added: added, warnings: warnings)
        report.createdLists = newLists.map(\.name)
        report.warnings += added.compactMap { WaitAfterDue.warning(for: $0.task, reference: $0.reference, timeZone: quickAdd.fields.timeZone) }
        if let context {
            let query = TaskQuery(now: now, timeZone: quickAdd.fields.timeZone)
            // A `list:` naming no list matches nothing: every new task is outside.
            let bindings = (try? ids.bind(context.filter, query: query)) ?? FilterBindings()
            let matcher = FilterMatcher(expression: context.filter.expression, bindings: bindings, query: query)
            report.outsideContext = added.filter { !matcher.matches($0) }
            report.warnings += report.outsideContext.map { Self.outsideWarning($0, context: context) }
        }
        return report
    }

    /// "4 is outside the active context work (+work or list:Work), so listings hide it; …".
    static func outsideWarning(_ item: ListedTask, context: ContextDefaults) -> TickWarning {
        let id = item.reference
        return TickWarning("\(id) is outside the active context \(context.name) (\(context.filter.line)), so listings hide it; "
                           + "see it with tick show \(id), or everything with tick context none")
    }
}
