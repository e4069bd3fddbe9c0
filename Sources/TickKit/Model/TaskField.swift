import FoundationEssentials

/// One field of a task, and what every part of tick that handles fields
/// needs to know about it: the one list (``TaskField/all``) from which change
/// stamping, merge, undo's conflict message, confirmations, the hook JSON and
/// the index's columns are derived. Adding a field is one entry here plus
/// its value type's conformances (``FileValue``, ``CellValue``,
/// ``IndexValue``) and the code Docs/ARCHITECTURE.md still names.
public struct TaskField: Sendable {
    /// How a merge (and change stamping) treats the field (Docs/MERGE.md).
    public enum MergeRule: Sendable, Equatable {
        /// One value, stamped and merged under its change key: the later change wins.
        case register
        /// A set whose elements are registers of their own (`+TAG`, `depends:UUID`).
        case elementSet
        /// Unknown keys: each key a register under its own name.
        case unknownKeys
        /// Follows the others: `createdAt` is kept, `modifiedAt` is the later
        /// one, `completedAt` goes with `state` (stamped under `state`).
        case bookkeeping
    }

    /// What the next occurrence of a repeating task takes of the field
    /// (``TaskItem/nextOccurrence(completedAt:now:timeZone:)``, Docs/RECURRENCE.md).
    public enum OnRepeat: Sendable, Equatable {
        /// The same value (title, tags, estimate, …).
        case copied
        /// A date the rule moves to the next occurrence's day.
        case moved
        /// Starts over as on a new task (open, no slot, not completed).
        case fresh
    }

    /// What a field's value is in a task file (Docs/FORMAT.md §4).
    public enum ValueKind: Sendable, Equatable {
        /// Text (title, notes, a repeat rule).
        case text
        /// A day (`2026-11-24`) or an instant (`due`, `wait`).
        case dayOrTime
        /// An instant (`remind`, the timestamps).
        case instant
        /// A day only (`scheduled`).
        case day
        /// Whole minutes (`estimate`).
        case minutes
        /// One word of a closed set (state, priority, energy).
        case word
        /// An object of its own (`slot`).
        case object
        /// A list of elements (tags, dependencies).
        case list
        /// Unknown keys, each kept as it is.
        case unknown
    }

    /// Its key in a task file (Docs/FORMAT.md); unknown keys are `extra`.
    public let name: String
    /// Its value's kind in a task file.
    public let kind: ValueKind
    /// The stored properties of ``TaskItem`` it covers.
    public let properties: [String]
    /// Its key in the `changed` object (nil: not stamped; element sets and
    /// unknown keys stamp one key per element).
    public let changeKey: String?
    public let mergeRule: MergeRule
    /// How confirmations name a change of it (`tick edit`'s spelling); nil: not shown.
    public let confirmationName: String?
    /// Its key in the hook JSON (Taskwarrior's, as ``TaskwarriorCodec`` writes it): every field
    /// the hook JSON sends has one, and a hook's answer can change it; nil: not sent.
    public let hookKey: String?
    /// How `key:value` words in `tick add`, `tick edit`, quick-add (``QuickAddParser``)
    /// and the UI's line set it; nil: set another way (the title is the words,
    /// `+tag`, `--note`) or not by hand.
    let input: FieldInputCoding?
    /// Its `key:value` token (``input``'s key).
    public var inputKey: String? { input?.key }
    /// The inputs of the fields the words set, in the table's order.
    static let inputs = all.compactMap(\.input)
    /// Other spellings of its command-line key (Taskwarrior's `priority`,
    /// tick's short `est`), for quick-add, filters and `--sort` alike (``FieldNames/aliases``).
    public let aliases: [String]
    /// The key its aliases stand for: its column's name (`pri`, `sched`), else its input key (`repeat`).
    var commandLineKey: String? { column ?? inputKey }
    /// Its `key:` on a todo.txt line (``TodoTxtCodec``); nil: todo.txt says it another way
    /// (title words, `x`, `(A)`, `+project`, `@context`, dates in front) or not at all.
    public let todoTxtKey: String?
    /// How filters test it when it is a date (`due.before:fri`); nil: not a date filter.
    let dateFilter: FieldDateFilter?
    /// How filters test it when it is one word of a closed set (`pri:must`); nil: not a word filter.
    let wordFilter: FieldWordFilter?
    /// How filters test it when it is a number (`estimate.over:30m`); nil: not a number filter.
    let numberFilter: FieldNumberFilter?
    /// How the index stores it in its `tasks` row (its value type's
    /// ``IndexValue``); nil: not indexed.
    let index: FieldIndexCoding?
    /// The `tasks` columns of the index that store it.
    public var indexColumns: [String] { index?.columns.map(\.name) ?? [] }
    /// How undo's conflict message names a change of it.
    public let undoName: String
    /// Its name as a report column (`--columns`, `[reports.NAME] columns`); nil: not a column.
    public let column: String?
    /// Its label in `tick show` and `tick ui`'s details; nil: shown another
    /// way there (the title as the heading, the notes below the fields,
    /// unknown keys each by its own key).
    public let label: String?
    /// What the next occurrence of a repeating task takes of it.
    public let onRepeat: OnRepeat
    /// How a task file writes and reads it under ``name`` (its value type's
    /// ``FileValue``); nil for the unknown keys, kept as they are.
    let file: FieldFileCoding?
    /// Its CSV cell, under a column of its name (its value type's
    /// ``CellValue``); nil: CSV has no column for it, or says it another way (a set).
    let cell: FieldCellCoding?
    /// Its value as the screens show it (``FieldValue``); nil: unset.
    public let shown: @Sendable (TaskItem) -> FieldValue?
    /// True when the field differs between two tasks.
    public let differs: @Sendable (TaskItem, TaskItem) -> Bool
    /// Merges the field of two versions into the result (``TaskMerge``): a
    /// register by its change key, a set element by element, unknown keys key
    /// by key; bookkeeping fields do nothing here (the merge settles them
    /// from the others' stamps).
    let merge: @Sendable (_ merge: inout TaskMerge, _ result: inout TaskItem) -> Void
    /// For an element set: the change keys of the elements one task has and the other not.
    let elementKeys: (@Sendable (TaskItem, TaskItem) -> [String])?
    /// Carries the change from `before` to `after` onto a task (tags,
    /// dependencies and unknown keys element by element, so changes the
    /// task has of its own are kept).
    let applyChange: @Sendable (_ task: inout TaskItem, _ before: TaskItem, _ after: TaskItem) -> Void

    /// The change keys a change from `b` to `a` stamps.
    func changeKeys(_ a: TaskItem, _ b: TaskItem) -> [String] {
        guard differs(a, b) else { return [] }
        switch mergeRule {
        case .register, .bookkeeping:
            return changeKey.map { [$0] } ?? []
        case .elementSet:
            return elementKeys?(a, b) ?? []
        case .unknownKeys:
            let mine = TaskItem.members(a.extra), theirs = TaskItem.members(b.extra)
            return Set(mine.keys).union(theirs.keys).filter { mine[$0] != theirs[$0] }
        }
    }

    /// A field holding one value at `path`.
    /// `canon` is the value as the file writes it: a merge of two changes
    /// made at the same time keeps the one whose canonical bytes sort first
    /// (Docs/MERGE.md §4). A register without one is merged by `merge`.
    /// `fileCheck` names what is wrong with a value its type reads but the
    /// field does not take (an empty title).
    static func value<V: Equatable & FileValue & IndexValue>(
        _ name: String, _ path: WritableKeyPath<TaskItem, V> & Sendable, kind: ValueKind, property: String, changeKey: String?,
        rule: MergeRule = .register, confirmation: String?, input: FieldInputCoding? = nil, aliases: [String] = [], hook: String?, todoTxt: String? = nil, index: String?,
        undo: String? = nil, column: String? = nil, label: String? = nil, dateFilter: FieldDateFilter? = nil, wordFilter: FieldWordFilter? = nil, numberFilter: FieldNumberFilter? = nil, onRepeat: OnRepeat, shown: @escaping @Sendable (V) -> FieldValue?,
        canon: (@Sendable (V) -> JSONNode?)? = nil, fileCheck: (@Sendable (V) -> String?)? = nil,
        merge: (@Sendable (inout TaskMerge, inout TaskItem) -> Void)? = nil
    ) -> TaskField {
        let stored = TaskProperty(path)
        let registerMerge: @Sendable (inout TaskMerge, inout TaskItem) -> Void = { m, result in
            guard rule == .register, let changeKey, let canon else { return }
            result[keyPath: path] = m.pick(changeKey, path, canon)
        }
        return TaskField(
            name: name, kind: kind, properties: [property], changeKey: changeKey, mergeRule: rule, confirmationName: confirmation,
            hookKey: hook, input: input, aliases: aliases, todoTxtKey: todoTxt, dateFilter: dateFilter, wordFilter: wordFilter, numberFilter: numberFilter, index: index.map { .value($0, path) }, undoName: undo ?? name,
            column: column, label: label, onRepeat: onRepeat, file: .value(name, path, check: fileCheck),
            cell: .value(name, path), shown: { shown(stored.get($0)) },
            differs: { stored.get($0) != stored.get($1) },
            merge: merge ?? registerMerge, elementKeys: nil,
            applyChange: { task, before, after in
                if before[keyPath: path] != after[keyPath: path] { task[keyPath: path] = after[keyPath: path] }
            })
    }

    /// A set kept as an array at `path` (tags, dependencies): each element
    /// is stamped and merged on its own, so a change is carried element by
    /// element and elements the task gained of its own are kept.
    /// Each element is stamped under `prefix + key(element)`; `element`
    /// reads an element back from such a key (one removed on a side still
    /// takes part in a merge by its entry).
    /// In a task file the set is an array of `fileNode` values, read back
    /// by `fileElement` (`what` names them when the value is no array).
    /// The index stores it as `index` (``FieldIndexCoding/words(_:_:emptyIsNull:comment:word:element:)``).
    static func elements<E: Hashable & Sendable>(
        _ name: String, _ path: WritableKeyPath<TaskItem, [E]> & Sendable, hook: String, input: String? = nil, inputExample: String = "", aliases: [String] = [], todoTxt: String? = nil,
        column: String? = nil, shown: @escaping @Sendable ([E]) -> FieldValue,
        prefix: String, key: @escaping @Sendable (E) -> String, element: @escaping @Sendable (String) -> E?,
        fileWhat: String, fileNode: @escaping @Sendable (E) -> JSONNode,
        fileElement: @escaping @Sendable (JSONNode, JSONFieldReader) throws(FormatError) -> E, index: FieldIndexCoding
    ) -> TaskField {
        let stored = TaskProperty(path)
        return TaskField(
            name: name, kind: .list, properties: [name], changeKey: nil, mergeRule: .elementSet, confirmationName: name,
            hookKey: hook, input: input.map { FieldInputCoding.own($0, example: inputExample) }, aliases: aliases, todoTxtKey: todoTxt, dateFilter: nil, wordFilter: nil, numberFilter: nil, index: index, undoName: name,
            column: column, label: name, onRepeat: .copied,
            file: .elements(name, path, what: fileWhat, node: fileNode, element: fileElement), cell: nil,
            shown: { let items = stored.get($0); return items.isEmpty ? nil : shown(items) },
            differs: { stored.get($0) != stored.get($1) },
            merge: { m, result in result[keyPath: path] = m.mergeSet(path, prefix: prefix, key: key, element: element) },
            elementKeys: { a, b in Set(a[keyPath: path]).symmetricDifference(b[keyPath: path]).map(key) },
            applyChange: { task, before, after in
                let old = before[keyPath: path], new = after[keyPath: path]
                guard old != new else { return }
                task[keyPath: path].removeAll { old.contains($0) && !new.contains($0) }
                for element in new where !old.contains(element) && !task[keyPath: path].contains(element) {
                    task[keyPath: path].append(element)
                }
            })
    }

    /// Every field of a task, in the order confirmations and undo's
    /// conflict message name them.
    public static let all: [TaskField] = [
        .value("title", \.title, kind: .text, property: "title", changeKey: "title",
               confirmation: "title", aliases: ["description"], hook: "description", index: "title", column: "title", onRepeat: .copied, shown: { .text($0) }, canon: { .string($0) },
               fileCheck: { TaskFileDecoder.hasVisibleText($0) ? nil : "\"title\" must not be empty" }),
        .value("state", \.state, kind: .word, property: "state", changeKey: "state",
               confirmation: nil, aliases: ["status"], hook: "status", todoTxt: "state", index: "state", column: "state", label: "state", onRepeat: .fresh, shown: { .word($0.rawValue, rank: TaskState.allCases.firstIndex(of: $0) ?? 0) },
               // With its completion time, as one value (`completedAt` goes with it).
               merge: { m, result in
                   let state = m.pick("state", \.stateValue) { $0.node }
                   result.state = state.state
                   result.completedAt = state.completedAt
               }),
        .value("due", \.due, kind: .dayOrTime, property: "due", changeKey: "due",
               confirmation: "due", input: .value("due", \.due), hook: "due", todoTxt: "due", index: "due",
               column: "due", label: "due", dateFilter: .date("due", \.due), onRepeat: .moved, shown: { $0.map(FieldValue.date) }, canon: { $0.map { .string($0.fileString) } }),
        .value("remind", \.remind, kind: .instant, property: "remind", changeKey: "remind",
               confirmation: "remind", input: .value("remind", \.remind), hook: "tickremind", todoTxt: "remind", index: "remind",
               column: "remind", label: "remind", dateFilter: .date("remind", \.remind), onRepeat: .moved, shown: { $0.map(FieldValue.instant) }, canon: MergeCanon.date),
        .value("wait", \.wait, kind: .dayOrTime, property: "wait", changeKey: "wait",
               confirmation: "wait", input: .value("wait", \.wait), hook: "wait", todoTxt: "wait", index: "wait",
               column: "wait", label: "wait", dateFilter: .date("wait", \.wait), onRepeat: .moved, shown: { $0.map(FieldValue.date) }, canon: { $0.map { .string($0.fileString) } }),
        // Confirmations leave `sched` out when a new slot set it (Confirmation.fieldNames).
        .value("scheduled", \.scheduled, kind: .day, property: "scheduled", changeKey: "scheduled",
               confirmation: "sched", input: .value("sched", \.scheduled), aliases: ["scheduled"], hook: "scheduled", todoTxt: "t", index: "scheduled",
               column: "sched", label: "scheduled", dateFilter: .date("sched", \.scheduled), onRepeat: .moved, shown: { $0.map(FieldValue.day) }, canon: { $0.map { .string($0.iso) } }),
        // Taskwarrior has no slot: hooks do not see it (the estimate they see as `tickestimate`).
        .value("slot", \.slot, kind: .object, property: "slot", changeKey: "slot",
               confirmation: "at", input: .own("at", example: "14:00"), hook: nil, index: "slot",
               label: "slot", onRepeat: .fresh, shown: { $0.map(FieldValue.slot) }, canon: { $0?.node }),
        .value("priority", \.priority, kind: .word, property: "priority", changeKey: "priority",
               confirmation: "pri", input: .value("pri", \.priority), aliases: ["priority"], hook: "priority", index: "priority",
               column: "pri", label: "priority", wordFilter: .word("pri", \.priority), onRepeat: .copied, shown: { $0.map { .word($0.rawValue, rank: Priority.allCases.firstIndex(of: $0) ?? 0) } }, canon: { MergeCanon.string($0?.rawValue) }),
        .value("energy", \.energy, kind: .word, property: "energy", changeKey: "energy",
               confirmation: "energy", input: .value("energy", \.energy), hook: "tickenergy", todoTxt: "energy", index: "energy",
               column: "energy", label: "energy", wordFilter: .word("energy", \.energy), onRepeat: .copied, shown: { $0.map { .word($0.rawValue, rank: Energy.allCases.firstIndex(of: $0) ?? 0) } }, canon: { MergeCanon.string($0?.rawValue) }),
        .value("estimate", \.estimate, kind: .minutes, property: "estimate", changeKey: "estimate",
               confirmation: "estimate", input: .value("estimate", \.estimate), aliases: ["est"], hook: "tickestimate", todoTxt: "estimate", index: "estimate",
               column: "estimate", label: "estimate", numberFilter: .minutes("estimate", \.estimate), onRepeat: .copied, shown: { $0.map(FieldValue.minutes) }, canon: { $0.map { JSONNode(.number(String($0))) } }),
        .value("repeat", \.repeatRule, kind: .text, property: "repeatRule", changeKey: "repeat",
               confirmation: "repeat", input: .value("repeat", \.repeatRule, example: RepeatInput.example, parse: RepeatInput.parse, word: { rule, _ in rule }), aliases: ["recur"], hook: "recur", todoTxt: "rec", index: "repeat",
               label: "repeat", onRepeat: .copied, shown: { $0.map(FieldValue.text) }, canon: MergeCanon.string),
        .value("notes", \.notes, kind: .text, property: "notes", changeKey: "notes",
               confirmation: "note", hook: "annotations", index: "notes", onRepeat: .copied, shown: { $0.map(FieldValue.text) }, canon: MergeCanon.string),
        .elements("depends", \.depends, hook: "depends", input: "depends", inputExample: "3", todoTxt: "depends", shown: { .tasks($0) },
                  prefix: TaskChange.dependencyPrefix, key: TaskChange.dependencyKey, element: { UUID(uuidString: $0) },
                  fileWhat: "task ids", fileNode: { .string($0.lowercased) }, fileElement: { item, reader throws(FormatError) in try reader.uuid(item, key: "depends") },
                  index: .words("depends", \.depends, emptyIsNull: true, comment: "lowercase UUIDs, space separated, or NULL",
                                word: \.lowercased, element: { UUID(fastBytes: $0) })),
        // Confirmations name tags one by one: `+tag` added, `-tag` removed.
        .elements("tags", \.tags, hook: "tags", aliases: ["tag"], column: "tags", shown: { .tags($0) }, prefix: "+", key: TaskChange.tagKey, element: { $0.isEmpty ? nil : $0 },
                  fileWhat: "strings", fileNode: { .string($0) }, fileElement: { item, reader throws(FormatError) in
                      guard case .string(let tag) = item.kind else {
                          throw reader.error(at: item.offset, "each tag must be a string, found \(item.typeName)")
                      }
                      if let problem = TagRules.problem(with: tag) { throw reader.error(at: item.offset, problem) }
                      return tag
                  }, index: .words("tags", \.tags, emptyIsNull: false, comment: "space separated", word: { $0 }, element: { String(decoding: $0, as: UTF8.self) })),
        // A hook's answer does not set the timestamps: the write does.
        .value("createdAt", \.createdAt, kind: .instant, property: "createdAt", changeKey: nil, rule: .bookkeeping,
               confirmation: nil, aliases: ["entry"], hook: nil, index: "created", column: "created", label: "created", dateFilter: .date("created", \.createdAt), onRepeat: .copied, shown: { .instant($0) }),
        .value("modifiedAt", \.modifiedAt, kind: .instant, property: "modifiedAt", changeKey: nil, rule: .bookkeeping,
               confirmation: nil, hook: nil, index: "modified", column: "modified", label: "modified", dateFilter: .date("modified", \.modifiedAt), onRepeat: .fresh, shown: { .instant($0) }),
        // Goes with `state`: stamped under it, and a hook's `end` is taken with its status.
        .value("completedAt", \.completedAt, kind: .instant, property: "completedAt", changeKey: "state", rule: .bookkeeping,
               confirmation: nil, aliases: ["end"], hook: "end", index: "completed", column: "completed", label: "completed", dateFilter: .date("completed", \.completedAt), onRepeat: .fresh, shown: { $0.map(FieldValue.instant) }),
        // Unknown keys: a hook's other keys (UDAs) come back as `x-taskwarrior-NAME`.
        TaskField(
            name: "extra", kind: .unknown, properties: ["extra"], changeKey: nil, mergeRule: .unknownKeys, confirmationName: nil,
            hookKey: "x-taskwarrior-*", input: nil, aliases: [], todoTxtKey: nil, dateFilter: nil, wordFilter: nil, numberFilter: nil, index: .members("extra", \.extra), undoName: "other fields",
            // Copied but those of one occurrence (TaskFile.perOccurrenceKeys).
            column: nil, label: nil, onRepeat: .copied, file: nil, cell: nil, shown: { _ in nil },
            differs: { $0.extra != $1.extra },
            merge: { m, result in result.extra = m.mergeExtra() }, elementKeys: nil,
            applyChange: { task, before, after in
                guard before.extra != after.extra else { return }
                let old = TaskItem.members(before.extra), new = TaskItem.members(after.extra)
                for key in Set(old.keys).union(new.keys) where old[key] != new[key] {
                    task.extra.removeAll { $0.key == key }
                    if let value = new[key] { task.extra.append(JSONMember(key, value)) }
                }
            }),
    ]

    /// `imported` with the store's value of each field a format has no place
    /// for (`carried` false): a re-import through a format never clears what
    /// the format could not say (the slot through CSV, Taskwarrior and
    /// todo.txt; the notes through todo.txt). Fields the format carries are
    /// the import's; the timestamps and unknown keys follow their own rules
    /// (``ImportPlan``, ``ImportExtra``).
    public static func keepingUncarried(_ imported: TaskItem, store: TaskItem, carried: (TaskField) -> Bool) -> TaskItem {
        var r = imported
        for field in all where [.register, .elementSet].contains(field.mergeRule) && !carried(field) {
            field.applyChange(&r, imported, store)
        }
        return r
    }

    /// The fields that differ between two tasks, in ``all``'s order.
    public static func differing(_ a: TaskItem, _ b: TaskItem) -> [TaskField] {
        all.filter { $0.differs(a, b) }
    }

    /// The fields that differ between two versions of a task, as
    /// confirmations name them (``confirmationName``, in ``all``'s order),
    /// tags one by one: `+tag` for each added, `-tag` for each removed. A new
    /// slot sets its day as the scheduled day: then the slot alone is named.
    public static func confirmationNames(from before: TaskItem, to after: TaskItem) -> [String] {
        var names: [String] = []
        for field in differing(before, after) {
            guard let name = field.confirmationName else { continue }
            switch field.name {
            case "tags":
                names += after.tags.filter { !before.tags.contains($0) }.map { "+" + $0 }
                names += before.tags.filter { !after.tags.contains($0) }.map { "-" + $0 }
            case "scheduled" where before.slot != after.slot && after.scheduled == after.slot?.day:
                continue
            default:
                names.append(name)
            }
        }
        return names
    }

    /// The field named `name` (its key in a task file), nil for none.
    /// (A lookup per row when a listing sorts by it: by key, not a scan.)
    public static func named(_ name: String) -> TaskField? {
        byName[name]
    }

    /// The field whose report column is `column` (``column``), nil for none.
    public static func withColumn(_ column: String) -> TaskField? {
        byColumn[column]
    }

    private static let byName = Dictionary(all.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    private static let byColumn = Dictionary(all.compactMap { f in f.column.map { ($0, f) } }, uniquingKeysWith: { first, _ in first })

    /// The todo.txt key of the field named `name` (``todoTxtKey``); the name itself when it has none.
    static func todoTxtKey(_ name: String) -> String {
        named(name)?.todoTxtKey ?? name
    }

    /// The keys whose values may be instants (``ValueKind/instant``,
    /// ``ValueKind/dayOrTime``): the editor reads a time typed there without a
    /// zone in the local zone.
    static var timeKeys: Set<String> {
        Set(all.filter { $0.kind == .instant || $0.kind == .dayOrTime }.map(\.name))
    }

    /// The fields' `key:value` input keys (``inputKey``).
    static var inputKeys: Set<String> { Set(all.compactMap(\.inputKey)) }

    /// The input keys that take a date (WHEN words): the fields whose value is a day or an instant.
    static var dateInputKeys: Set<String> {
        Set(all.filter { [.day, .dayOrTime, .instant].contains($0.kind) }.compactMap(\.inputKey))
    }

    /// The fields a task file holds, in its canonical key order (Docs/FORMAT.md
    /// §4: after `id`, before `changed` and the unknown keys). The order is
    /// the files' and must not change; `TaskFieldTests` checks that it
    /// names every field with a ``file`` coding once.
    static let fileOrder: [String] = [
        "title", "state", "due", "scheduled", "remind", "wait", "repeat", "priority", "energy", "estimate", "slot",
        "tags", "depends", "notes", "createdAt", "modifiedAt", "completedAt",
    ]

    /// The file codings of ``fileOrder``, in that order.
    static let inFileOrder: [(name: String, coding: FieldFileCoding)] = fileOrder.compactMap { name in
        named(name)?.file.map { (name, $0) }
    }

    /// Every index column the fields store, in ``all``'s order.
    static var indexColumnNames: [String] { all.flatMap(\.indexColumns) }
}
