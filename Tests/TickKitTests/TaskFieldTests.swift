import Foundation
import Testing
import CSQLite
@testable import TickKit

/// The field registry (``TaskField/all``): every field is one, and every
/// consumer derived from it sees a change of every field. A consumer that
/// drops a field fails here.
@Suite struct TaskFieldTests {
    static let t0 = Timestamp.parse("2026-11-20T08:00:00Z")!
    static let t1 = Timestamp.parse("2026-11-21T09:30:00Z")!
    static let t2 = Timestamp.parse("2026-11-22T10:15:00Z")!
    static let dep = UUID(uuidString: "00000000-0000-4000-8000-0000000000d1")!

    /// An open task with a value in every field a variant changes.
    static let base = TaskItem(
        id: UUID(uuidString: "00000000-0000-4000-8000-000000000001")!,
        title: "Call the bank",
        due: .day(LocalDate(iso: "2026-11-25")!),
        scheduled: LocalDate(iso: "2026-11-24")!,
        remind: t1,
        repeatRule: "weekly",
        priority: .flexible,
        energy: .low,
        estimate: 30,
        slot: TaskSlot(day: LocalDate(iso: "2026-11-24")!, start: ClockTime(minutes: 540)!, minutes: 30),
        tags: ["errand"],
        wait: .day(LocalDate(iso: "2026-11-23")!),
        depends: [dep],
        notes: "Ask about the fee",
        createdAt: t0,
        modifiedAt: t0)

    /// For each field: a task and a copy differing only in that field.
    static let variants: [String: (before: TaskItem, after: TaskItem)] = {
        func change(_ f: (inout TaskItem) -> Void) -> (TaskItem, TaskItem) {
            var after = base
            f(&after)
            return (base, after)
        }
        var done = base
        done.state = .done
        done.completedAt = t1
        var doneLater = done
        doneLater.completedAt = t2
        return [
            "title": change { $0.title = "Call the bank now" },
            "state": change { $0.state = .active },
            "due": change { $0.due = .day(LocalDate(iso: "2026-11-26")!) },
            "remind": change { $0.remind = t2 },
            "wait": change { $0.wait = .day(LocalDate(iso: "2026-11-22")!) },
            "scheduled": change { $0.scheduled = LocalDate(iso: "2026-11-23")! },
            "slot": change { $0.slot = TaskSlot(day: LocalDate(iso: "2026-11-24")!, start: ClockTime(minutes: 600)!, minutes: 30) },
            "priority": change { $0.priority = .must },
            "energy": change { $0.energy = .high },
            "estimate": change { $0.estimate = 45 },
            "repeat": change { $0.repeatRule = "daily" },
            "notes": change { $0.notes = "Ask about the fee and the card" },
            "depends": change { $0.depends.append(UUID(uuidString: "00000000-0000-4000-8000-0000000000d2")!) },
            "tags": change { $0.tags.append("phone") },
            "createdAt": change { $0.createdAt = t1 },
            "modifiedAt": change { $0.modifiedAt = t2 },
            "completedAt": (done, doneLater),
            "extra": change { $0.extra = [JSONMember("x-taskwarrior-size", .string("big"))] },
        ]
    }()

    /// Each registry entry with its two tasks; fails for a field without a variant.
    func cases() -> [(field: TaskField, before: TaskItem, after: TaskItem)] {
        TaskField.all.compactMap { field in
            guard let v = Self.variants[field.name] else {
                Issue.record("no variant for the field \(field.name): add one to TaskFieldTests.variants")
                return nil
            }
            return (field, v.before, v.after)
        }
    }

    @Test func everyStoredPropertyOfATaskIsAField() {
        // Stored properties of TaskItem that are not fields of their own:
        let notFields: Set<String> = [
            "id",  // the task's identity: what every consumer matches tasks by
            "changed",  // the fields' change times (bookkeeping of the fields, merged with them)
            "needsFill",  // in-memory only: the id or timestamps were derived, not read
        ]
        let stored = Set(Mirror(reflecting: Self.base).children.compactMap(\.label))
        let covered = TaskField.all.flatMap(\.properties)
        #expect(Set(covered).count == covered.count, "a property is covered twice")
        #expect(stored.subtracting(notFields) == Set(covered))
        #expect(notFields.isSubset(of: stored))
        #expect(Set(TaskField.all.map(\.name)).count == TaskField.all.count)
        #expect(Set(Self.variants.keys) == Set(TaskField.all.map(\.name)))
    }

    @Test("the file's key order names every field the table gives a file coding, once; the unknown keys have none")
    func theFileOrderIsTheTablesFields() {
        let coded = TaskField.all.filter { $0.file != nil }.map(\.name)
        #expect(Set(TaskField.fileOrder) == Set(coded), "TaskField.fileOrder and the table's file codings differ")
        #expect(Set(TaskField.fileOrder).count == TaskField.fileOrder.count)
        #expect(TaskField.all.filter { $0.file == nil }.map(\.mergeRule) == [.unknownKeys])
        #expect(TaskField.inFileOrder.map(\.name) == TaskField.fileOrder)
    }

    @Test("each field's change is written to a task file and read back: encoder and decoder keep no field list")
    func theFileCodecCarriesEveryField() throws {
        func roundTrip(_ task: TaskItem) throws -> TaskItem {
            let file = TaskFile(kind: .inbox, id: UUID(), createdAt: Self.t0, modifiedAt: Self.t0, tasks: [task])
            let bytes = TaskFileEncoder.encode(file)
            return try TaskFileDecoder(bytes: bytes, path: "t.json", kind: .inbox, fallbackDate: Self.t0).decode().tasks[0]
        }
        for (field, before, after) in cases() {
            let a = try roundTrip(before), b = try roundTrip(after)
            #expect(a == before, "\(field.name): the file changed the task before")
            #expect(b == after, "\(field.name): the file changed the task after")
            #expect(field.differs(a, b), "\(field.name): the change did not survive the file")
        }
    }

    @Test("the next occurrence of a repeating task does with each field what the table's onRepeat says")
    func theNextOccurrenceFollowsTheTable() throws {
        var task = Self.base
        task.extra = [JSONMember("x-taskwarrior-size", .string("big")), JSONMember(TaskFile.repeatAnchorKey, .string("2026-10-31"))]
        task.setState(.done, at: Self.t2)
        let next = try #require(try task.nextOccurrence(completedAt: Self.t2, now: Self.t2, timeZone: .utc))
        let blank = TaskItem(id: next.id, title: task.title, createdAt: task.createdAt, modifiedAt: task.createdAt)
        for field in TaskField.all {
            switch field.onRepeat {
            case .copied where field.name == "extra":
                // Copied but the keys of one occurrence (the series' anchor is set again when a month is clamped).
                #expect(next.extra == [JSONMember("x-taskwarrior-size", .string("big"))], "\(next.extra)")
            case .copied:
                #expect(!field.differs(next, task), "\(field.name) is copied")
            case .fresh:
                #expect(!field.differs(next, blank), "\(field.name) starts over")
            case .moved:
                #expect(field.differs(next, task), "\(field.name) moves with the rule")
            }
        }
        #expect(next.estimate == 30, "a weekly task keeps its estimate")
    }

    @Test func eachVariantDiffersInItsFieldOnly() {
        for (field, before, after) in cases() {
            #expect(TaskField.differing(before, after).map(\.name) == [field.name], "\(field.name)")
        }
    }

    @Test func changeStampingSeesEveryStampedField() {
        let now = Timestamp.parse("2026-11-23T12:00:00Z")!
        for (field, before, after) in cases() {
            let keys = after.changedKeys(comparedTo: before)
            switch field.mergeRule {
            case .bookkeeping where field.changeKey == nil:
                #expect(keys.isEmpty, "\(field.name)")
            case .register, .bookkeeping:
                #expect(keys == [field.changeKey].compactMap { $0 }, "\(field.name)")
            case .elementSet, .unknownKeys:
                #expect(keys.count == 1, "\(field.name): \(keys)")
            }
            var stamped = after
            let done = stamped.stampChanges(since: before, at: now)
            #expect(done == keys, "\(field.name)")
            for key in keys { #expect(stamped.changed[key] == now, "\(field.name): \(key)") }
        }
    }

    @Test func mergeTakesAOneSidedChangeOfEveryField() {
        for (field, before, after) in cases() {
            let theirs = TaskMerge.merge(base: before, ours: before, theirs: after)
            #expect(!field.differs(theirs.task, after), "\(field.name): theirs")
            #expect(theirs.conflicts == 0, "\(field.name)")
            let ours = TaskMerge.merge(base: before, ours: after, theirs: before)
            #expect(!field.differs(ours.task, after), "\(field.name): ours")
        }
    }

    @Test func undoNamesEveryField() {
        for (field, before, after) in cases() {
            #expect(UndoReverter.changedFields(after, before) == [field.undoName], "\(field.name)")
        }
        #expect(UndoReverter.changedFields(Self.base, Self.base) == ["position"])
    }

    @Test func confirmationsNameEveryShownField() {
        for (field, before, after) in cases() {
            let names = TaskField.confirmationNames(from: before, to: after)
            switch field.confirmationName {
            case nil: #expect(names.isEmpty, "\(field.name): \(names)")
            case "tags": #expect(names == ["+phone"])
            case let name?: #expect(names == [name], "\(field.name)")
            }
        }
        // A new slot names the scheduled day it sets as the slot alone.
        var slotted = Self.base
        slotted.slot = TaskSlot(day: LocalDate(iso: "2026-11-27")!, start: ClockTime(minutes: 600)!, minutes: 30)
        slotted.scheduled = LocalDate(iso: "2026-11-27")!
        #expect(TaskField.confirmationNames(from: Self.base, to: slotted) == ["at"])
    }

    @Test func hookAnswersCarryEverySentField() throws {
        let json = HookTaskJSON(context: InterchangeContext(path: "hook", now: Self.t0, timeZone: Zone(named: "UTC")!))
        for (field, before, after) in cases() where field.hookKey != nil {
            let sent = json.line(for: before, project: nil)
            let returned = json.line(for: after, project: nil)
            #expect(sent != returned, "\(field.name) is not sent")
            let result = try json.apply(returned: returned, sent: sent, to: before, project: nil)
            #expect(!field.differs(result, after), "\(field.name)")
        }
    }

    /// Issue 45: the hook JSON sent `tickestimate` but the table said hooks do not see the
    /// estimate, so a hook's change of it was dropped. Every field the hook line carries
    /// has a hook key, and it is a key of that line.
    @Test func everyFieldAScreenShowsHasALabelAndAValueOfItsKind() throws {
        // `tick show`, `tick ui`'s details and report columns list no fields of
        // their own: a field the table labels is shown, one it does not is not.
        var done = Self.base
        done.state = .done
        done.completedAt = Self.t2
        let dates = RelativeDateFormatter(now: Self.t1, timeZone: Zone(named: "UTC")!)
        // The title heads the screens, the notes follow the fields, unknown keys go by their own keys.
        let unlabelled = Set(TaskField.all.filter { $0.label == nil }.map(\.name))
        #expect(unlabelled == ["title", "notes", "extra"])
        for field in TaskField.all where field.name != "extra" {
            let value = try #require(field.shown(done), "\(field.name) has a value in a full task")
            #expect(!value.text(dates: dates).isEmpty, "\(field.name)")
            // A date or time carries its stored form beside its label.
            let dated: Set<TaskField.ValueKind> = [.dayOrTime, .instant, .day]
            #expect((value.stored != nil) == (dated.contains(field.kind) || field.name == "slot"), "\(field.name): \(value)")
        }
        let empty = TaskItem(id: UUID(), title: "x", createdAt: Self.t0, modifiedAt: Self.t0)
        let always: Set<String> = ["title", "state", "createdAt", "modifiedAt"]
        for field in TaskField.all where field.shown(empty) != nil {
            #expect(always.contains(field.name), "\(field.name) is shown on a task that has none")
        }
        let columns = TaskField.all.compactMap(\.column)
        #expect(Set(columns).count == columns.count && !columns.contains("id") && !columns.contains("list"), "\(columns)")
        let labels = TaskField.all.compactMap(\.label)
        #expect(Set(labels).count == labels.count, "\(labels)")
    }

    @Test func everyColumnOfTheTableWhoseValueHasAnOrderIsASortKey() throws {
        // `--sort` keeps no list of fields: a report column with an ordered value sorts.
        for field in TaskField.all where field.kind != .list {
            guard let column = field.column else { continue }
            #expect(try TaskSort(column).keys.map(\.key) == [.table(field.name)], "\(column)")
        }
        #expect(throws: InputError.self) { try TaskSort("tags") }
        // wait (a sort key by the table alone): a time before a later day, none last, either way.
        let query = TaskQuery(now: Self.t1, timeZone: Zone(named: "UTC")!)
        var early = Self.base, late = Self.base, none = Self.base
        early.wait = .time(Self.t2)
        late.wait = .day(LocalDate(iso: "2026-11-22")!)
        none.wait = nil
        let items = [none, late, early].map { ListedTask(task: $0, kind: .inbox, listName: "Inbox", shortID: nil) }
        let up = try TaskSort("wait").sorted(items, query: query, listRank: [:]).map(\.task.wait)
        #expect(up == [early.wait, late.wait, nil])
        let down = try TaskSort("wait-").sorted(items, query: query, listRank: [:]).map(\.task.wait)
        #expect(down == [late.wait, early.wait, nil])
        // A word by its set's order: must before flexible.
        var must = Self.base
        must.priority = .must
        let byPriority = try TaskSort("pri").sorted([Self.base, must].map { ListedTask(task: $0, kind: .inbox, listName: "Inbox", shortID: nil) },
                                                    query: query, listRank: [:]).map(\.task.priority)
        #expect(byPriority == [.must, .flexible])
    }

    @Test func everyFieldTheHookLineCarriesHasItsHookKey() throws {
        let json = HookTaskJSON(context: InterchangeContext(path: "hook", now: Self.t0, timeZone: Zone(named: "UTC")!))
        for (field, before, after) in cases() where field.mergeRule != .bookkeeping && field.mergeRule != .unknownKeys {
            let sent = json.line(for: before, project: nil), changed = json.line(for: after, project: nil)
            guard sent != changed else {
                #expect(field.hookKey == nil, "\(field.name) has a hook key but the hook line does not carry it")
                continue
            }
            let key = try #require(field.hookKey, "\(field.name) is sent to hooks but has no hook key")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(sent.utf8)) as? [String: Any])
            #expect(object[key] != nil, "\(field.name): the hook line has no \"\(key)\"")
        }
    }

    /// Issue 45: every field with a todo.txt key is written under it and read back.
    @Test func todoTxtKeysRoundTrip() throws {
        let context = InterchangeContext(path: "todo.txt", now: Self.t0, timeZone: Zone(named: "UTC")!)
        for (field, before, after) in cases() {
            guard let key = field.todoTxtKey else { continue }
            let line = TodoTxtCodec.line(for: after, list: nil, timeZone: context.timeZone)
            #expect(line.split(separator: " ").contains { $0.hasPrefix(key + ":") }, "\(field.name): \(line)")
            #expect(line != TodoTxtCodec.line(for: before, list: nil, timeZone: context.timeZone), "\(field.name) is not written")
            let back = try #require(try TodoTxtCodec.decode(Array((line + "\n").utf8), context: context).first?.tasks.first)
            #expect(!field.differs(back, after), "\(field.name): \(line)")
        }
    }

    @Test func indexStoresEveryField() throws {
        let db = try SQLiteConnection(path: nil)
        try db.write {
            for sql in IndexSchema.statements { try db.execute(sql) }
        }
        func roundTrip(_ task: TaskItem) throws -> TaskItem? {
            try db.write {
                try db.execute("DELETE FROM tasks")
                try RowWriter(db).write(task, id: task.id.lowercased, hash: nil, path: "inbox.json", position: 0, db: db)
                var read: TaskItem?
                try RowReader.forEach(try db.prepare("SELECT \(RowReader.columns) FROM tasks t")) { t, path, _, _, _ in
                    #expect(path == "inbox.json")
                    read = t
                }
                // Ranking reads its fields from the same codings, numbered from its own columns.
                let ranking = try db.prepare("SELECT \(RowReader.rankingColumns) FROM tasks t")
                #expect(sqlite3_step(ranking.handle) == SQLITE_ROW)
                let reader = RowReader(statement: ranking.handle)
                let ranked = try #require(reader.rankingTask())
                #expect(reader.text(RowReader.rankingPath) == "inbox.json")
                // What TaskRanker and AutoPlacer read of a task.
                for name in ["state", "due", "scheduled", "priority", "energy", "estimate", "slot"] {
                    let field = try #require(TaskField.named(name))
                    #expect(!field.differs(ranked, task), "ranking reads \(name) wrong")
                }
                return read
            }
        }
        for (field, before, after) in cases() {
            let a = try #require(try roundTrip(before)), b = try #require(try roundTrip(after))
            #expect(TaskField.differing(a, before).isEmpty, "\(field.name): \(TaskField.differing(a, before).map(\.name))")
            #expect(TaskField.differing(b, after).isEmpty, "\(field.name): \(TaskField.differing(b, after).map(\.name))")
            #expect(RowWriter.contentHash(before, id: "x") != RowWriter.contentHash(after, id: "x"), "\(field.name)")
        }
    }

    /// The select's column list is spelled out for start-up speed
    /// (``RowReader/columns``); it must be the table's, in its order.
    @Test func theSelectedColumnsAreTheTablesReadColumns() {
        let literal = "[\n" + TaskColumns.read.map { "\"\($0)\"" }.joined(separator: ", ") + "\n]"
        #expect(RowReader.readColumnList == TaskColumns.read,
                "RowReader.readColumnList differs from the field table's read columns; paste this: \(literal)")
    }

    /// The index's columns come from the fields' value types: each once,
    /// declared in the schema with its type, and a field's read columns
    /// first (the reader numbers them from its first).
    @Test func indexColumnsAreTheRegistrysColumns() {
        let fields = TaskField.indexColumnNames
        #expect(Set(fields).count == fields.count)
        #expect(TaskColumns.insert == TaskColumns.bookkeeping + fields)
        #expect(Set(TaskColumns.read).isSubset(of: Set(TaskColumns.readBookkeeping + fields)))
        for field in TaskField.all {
            let coding = try? #require(field.index, "\(field.name) is not indexed")
            let columns = coding?.columns ?? []
            #expect(!columns.isEmpty && columns.prefix { $0.read } == columns.filter(\.read)[...], "\(field.name)")
            #expect(columns.contains { $0.read }, "\(field.name) is stored but never read")
        }
        let schema = IndexSchema.tasksTable
        for column in TaskColumns.fields.flatMap(\.coding.columns) {
            #expect(schema.contains("\n    \(column.name) \(column.type)"), "\(column.name)")
        }
        // A comma after a column never falls inside its comment.
        #expect(!schema.split(separator: "\n").contains { $0.contains("--") && $0.split(separator: "--", maxSplits: 1)[1].hasSuffix(",") })
    }

    /// The VTODO codec (the CalDAV bridge and the iCalendar export): a
    /// change of every stamped field is a difference it sees, and survives a
    /// new item read back. A field added to the table and not to the codec fails here.
    @Test func theVTODOCodecCarriesEveryStampedField() throws {
        for field in TaskField.all where field.mergeRule != .bookkeeping && field.mergeRule != .unknownKeys {
            let (before, after) = try #require(Self.variants[field.name], "\(field.name)")
            #expect(!DavMapping.differences(before, after).isEmpty, "\(field.name): the VTODO codec does not see it")
            let bytes = DavMapping.newItem(for: after, now: Self.t2)
            let files = try ICalendarCodec.decode(bytes, context: InterchangeContext(path: "x.ics", now: Self.t2, timeZone: Zone(named: "UTC")!))
            let back = try #require(files.first?.tasks.first, "\(field.name)")
            #expect(DavMapping.differences(back, after).isEmpty, "\(field.name): \(DavMapping.differences(back, after).map(\.key))")
        }
    }
}

/// Issue 45: the quick-add and edit keys come from the table (``TaskField/inputKey``).
@Suite struct TaskFieldInputTests {
    static let now = Timestamp.parse("2026-11-28T08:00:00Z")!
    let parser = QuickAddParser(fields: FieldParser(now: now, timeZone: Zone(named: "UTC")!))

    /// A value typed after each input key (the test's own data: a field added
    /// to the table with an input key and no sample fails here).
    static let samples = [
        "due": "2026-12-24", "remind": "2026-12-01T09:00", "wait": "2026-12-02", "sched": "2026-12-03",
        "at": "2026-12-03T10:00", "pri": "must", "energy": "high", "estimate": "45m", "repeat": "monthly",
        "depends": "3",
    ]

    @Test func everyInputKeyIsAQuickAddTokenThatSetsItsField() throws {
        for field in TaskField.all {
            guard let key = field.inputKey else { continue }
            let value = try #require(Self.samples[key], "no sample for the input key \(key): add one")
            #expect(QuickAddParser.keys.contains(key), "\(key)")
            let (title, edit) = try parser.parse(["Buy", "milk", key + ":" + value])
            #expect(title == "Buy milk", "\(key):\(value) was taken as title words")
            #expect(!edit.isEmpty, "\(key)")
            // A dependency names a task (resolved against the store); a slot is placed by its day.
            guard key != "depends", key != "at" else { continue }
            var task = TaskItem(id: UUID(), title: "Buy milk", createdAt: Self.now, modifiedAt: Self.now)
            let before = task
            _ = edit.apply(to: &task, now: Self.now)
            #expect(field.differs(before, task), "\(key):\(value) did not set \(field.name)")
        }
    }

    @Test func theDateKeysAreTheFieldsThatTakeADay() {
        #expect(QuickAddParser.dateKeys == ["due", "remind", "sched", "wait"])
        #expect(QuickAddParser.fieldKeys == TaskField.inputKeys.union(["list", "for"]))
    }
}

/// Issue 45: the docs' field table is the field table. FORMAT.md §4 has a row
/// for every field (`slot` and `estimate` were missing), in the order the
/// encoder writes the keys.
@Suite struct TaskFieldDocsTests {
    @Test func formatMdListsEveryFieldInTheOrderFilesHaveThem() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Docs/FORMAT.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        let start = try #require(text.range(of: "## 4. Tasks"))
        let end = try #require(text.range(of: "### 4.1", range: start.upperBound..<text.endIndex))
        // The table's keys: "| 6a | `wait` | ..." → wait.
        let rows = text[start.upperBound..<end.lowerBound].split(separator: "\n").compactMap { line -> String? in
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count > 2, cells[1].hasPrefix("`"), cells[1].hasSuffix("`") else { return nil }
            return String(cells[1].dropFirst().dropLast())
        }
        let fields = TaskField.all.filter { $0.mergeRule != .unknownKeys }.map(\.name)
        for name in fields { #expect(rows.contains(name), "FORMAT.md §4 has no row for \(name)") }
        // The order a task's keys are written in (a task with every field set).
        let task = TaskFieldTests.base
        var done = task
        done.state = .done
        done.completedAt = TaskFieldTests.t2
        done.modifiedAt = TaskFieldTests.t2
        let node = TaskFileEncoder.node(for: done)
        guard case .object(let members) = node.kind else { Issue.record("not an object"); return }
        let written = members.map(\.key).filter { rows.contains($0) }
        #expect(written == rows.filter { written.contains($0) }, "FORMAT.md §4's order is not the encoder's: \(written) vs \(rows)")
    }
}

/// Issue 45: the UI's `e` line types every field of the table that words
/// set (``TaskField/input``), reads it back, and clears what is taken out.
@Suite struct TaskFieldInputLineTests {
    let utc = Zone(named: "UTC")!
    var parser: QuickAddParser { QuickAddParser(fields: FieldParser(now: TaskFieldTests.t0, timeZone: utc)) }

    func edit(_ line: String, of task: TaskItem) throws -> TaskEdit {
        let (title, tokens) = try parser.split(line.split(separator: " ").map(String.init), allowRemoval: true)
        return try UILineEdit.change(to: task, titleWords: title, tokens: tokens)
    }

    /// An empty `key:` in `tick add` asks for a value with an example from
    /// the field's entry; the example, typed, is taken.
    @Test func everyInputKeysExampleIsAValueItTakes() throws {
        for key in TaskField.all.compactMap(\.inputKey) {
            let example = QuickAddParser.example(key)
            #expect(!example.isEmpty, "\(key) has no example")
            do {
                _ = try parser.parse(["x", key + ":"])
                Issue.record("\(key): was taken without a value")
            } catch {
                #expect(error.localizedDescription.contains("e.g. \(key):\(example);"), "\(key): \(error.localizedDescription)")
            }
            let (_, edit) = try parser.parse(["x", key + ":" + example])
            if key == "depends" {
                #expect(edit.dependsAdded == [example])
            } else if key == "at" {
                #expect(edit.slot != .keep, "at:\(example) set no slot")
            } else {
                #expect(edit.changes.count == 1, "\(key):\(example) set \(edit.changes.count) fields")
            }
        }
    }

    /// ``TaskFieldTests/base`` without its slot (the line cannot say a slot).
    var task: TaskItem {
        var task = TaskFieldTests.base
        task.slot = nil
        return task
    }

    @Test func theLineSaysEveryTypedFieldAndReadsItBack() throws {
        let line = UITaskText.tokens(of: task, timeZone: utc)
        var blank = TaskItem(id: task.id, title: task.title, createdAt: task.createdAt, modifiedAt: task.modifiedAt)
        blank.tags = task.tags
        let change = try edit(line, of: blank)
        _ = change.apply(to: &blank, now: TaskFieldTests.t0)
        for field in TaskField.all {
            guard let input = field.input, input.parse != nil else { continue }
            #expect(line.contains(" \(input.key):"), "the line does not say \(field.name): \(line)")
            #expect(!field.differs(blank, task), "\(field.name) did not come back from \(line)")
        }
        #expect(try edit(line, of: task).apply(to: &blank, now: TaskFieldTests.t1) == false, "the unchanged line changes nothing")
    }

    @Test func aFieldTakenOffTheLineIsCleared() throws {
        let line = UITaskText.tokens(of: task, timeZone: utc)
        for field in TaskField.all {
            guard let input = field.input, input.parse != nil else { continue }
            let words = line.split(separator: " ").map(String.init)
            // A multi-word value (`repeat:every 2w`) is not in the sample task.
            let kept = words.filter { !$0.hasPrefix(input.key + ":") }
            #expect(kept.count == words.count - 1, "\(input.key): is on the line once: \(line)")
            var edited = task
            _ = try edit(kept.joined(separator: " "), of: task).apply(to: &edited, now: TaskFieldTests.t1)
            let changed = TaskField.differing(task, edited).map(\.name).filter { $0 != "modifiedAt" }
            #expect(changed == [field.name], "taking \(input.key): off changed \(changed)")
            #expect(field.shown(edited) == nil, "\(field.name) is not cleared")
        }
    }
}

/// Issue 45: filters take every date field of the table, by its entry.
@Suite struct TaskFieldFilterTests {
    @Test func everyDateFieldIsAFilterKeyWithItsColumns() throws {
        for field in TaskField.all where [.day, .dayOrTime, .instant].contains(field.kind) {
            let filter = try #require(field.dateFilter, "\(field.name) is a date and no filter key: give it dateFilter:")
            let date = try #require(FilterTerm.DateField(rawValue: filter.key))
            #expect(date.dayColumn != nil || date.instantColumn != nil, "\(field.name) has no index column to compare")
            let (before, after) = try #require(TaskFieldTests.variants[field.name])
            #expect(date.value(before).map { "\($0)" } != date.value(after).map { "\($0)" }, "the filter does not read \(field.name)")
        }
        #expect(FilterTerm.DateField.due.dayColumn == "due_day" && FilterTerm.DateField.due.instantColumn == "due_ts")
        #expect(FilterTerm.DateField.completed.isPast && !FilterTerm.DateField.wait.isPast)
        #expect(IndexSchema.pendingIndexed == ["due_day", "due_ts", "scheduled_day", "remind_ts"])
    }

    @Test func everyWordFieldIsAFilterKey() throws {
        // `state:` takes lists of states and `pending` (FilterParser).
        for field in TaskField.all where field.kind == .word && field.name != "state" {
            let filter = try #require(field.wordFilter, "\(field.name) is a word and no filter key: give it wordFilter:")
            let word = try #require(FilterTerm.WordField(rawValue: filter.key))
            let (before, after) = try #require(TaskFieldTests.variants[field.name])
            #expect(word.filter.value(before) != word.filter.value(after), "the filter does not read \(field.name)")
            let set = try #require(word.filter.value(after).flatMap(word.filter.set), "a context cannot write \(field.name)")
            var task = before
            #expect(set.apply(to: &task) && word.filter.value(task) == word.filter.value(after))
        }
        #expect(FilterTerm.WordField.keys == ["pri", "energy"])
        // `KEY:` asks for a word with an example from the entry, and the example is taken.
        let parser = FilterParser(now: TaskFieldTests.t0, timeZone: Zone(named: "UTC")!)
        for key in FilterTerm.WordField.keys {
            let example = FilterParser.example(key)
            #expect(throws: FilterError.self) { try parser.parse([key + ":"]) }
            do { _ = try parser.parse([key + ":"]) } catch { #expect(error.message.contains("e.g. " + example), "\(error.message)") }
            #expect((try? parser.parse([example])) != nil, "\(example) is not taken")
        }
    }

    /// The other spellings come from the fields' entries; each names a key
    /// a reader takes (an input key, a filter key or a sort key).
    @Test func aliasesComeFromTheTable() throws {
        #expect(FieldNames.aliases == [
            "project": "list", "priority": "pri", "scheduled": "sched", "recur": "repeat", "est": "estimate",
            "status": "state", "tag": "tags", "end": "completed", "entry": "created", "description": "title",
        ])
        let inputKeys = Set(TaskField.all.compactMap(\.inputKey)).union(["list"])
        for (alias, key) in FieldNames.aliases {
            #expect(inputKeys.contains(key) || FilterParser.keys.contains(key) || TaskSort.Key.builtIn.contains { $0.name == key },
                    "\(alias) stands for \(key), which no reader takes")
        }
    }

    @Test func everyNumberFieldIsAFilterKey() throws {
        for field in TaskField.all where field.kind == .minutes {
            let filter = try #require(field.numberFilter, "\(field.name) is a number and no filter key: give it numberFilter:")
            let number = try #require(FilterTerm.NumberField(rawValue: filter.key))
            let (before, after) = try #require(TaskFieldTests.variants[field.name])
            #expect(number.filter.value(before) != number.filter.value(after), "the filter does not read \(field.name)")
            #expect(field.indexColumns.contains(number.column))
        }
        #expect(FilterTerm.NumberField.keys == ["estimate"])
    }
}

/// Issue 45: a re-import through a format never clears a field the format
/// has no place for. Each codec says which fields it carries; the rule that
/// keeps the others is one loop over the table
/// (``TaskField/keepingUncarried(_:store:carried:)``), so a new field no
/// format spells survives every re-import with no code in the codecs.
@Suite struct TaskFieldReimportTests {
    let utc = Zone(named: "UTC")!

    /// What a format gives for a line that says nothing but the title.
    var blank: TaskItem {
        TaskItem(id: TaskFieldTests.base.id, title: TaskFieldTests.base.title, createdAt: TaskFieldTests.t0, modifiedAt: TaskFieldTests.t1)
    }

    var formats: [(name: String, carries: (TaskField) -> Bool, keep: (TaskItem, TaskItem) -> TaskItem, clearsCarried: Bool)] {
        [("csv", CSVCodec.carries, CSVCodec.keepStore, true),
         ("taskwarrior", TaskwarriorCodec.carries, { TaskwarriorCodec.keepStore($0, of: $1, timeZone: utc) }, true),
         ("todotxt", TodoTxtCodec.carries, { TodoTxtCodec.merge($0, onto: $1, timeZone: utc) }, false)]
    }

    @Test func everyFieldAFormatCannotSayKeepsTheStoresValue() {
        let store = TaskFieldTests.base
        for format in formats {
            let kept = format.keep(blank, store)
            var uncarried: [String] = []
            for field in TaskField.all where [.register, .elementSet].contains(field.mergeRule) {
                if format.carries(field) {
                    if format.clearsCarried, field.name != "title", field.name != "state" {
                        #expect(field.differs(kept, store), "\(format.name): \(field.name) is carried, so a row without it clears it")
                    } else if !format.clearsCarried, field.todoTxtKey != nil {
                        // todo.txt: a line without one of tick's keys keeps the store's value, but `due:` and `state:`.
                        let clears = TodoTxtCodec.absentClears.contains(field.name)
                        #expect(field.differs(kept, store) == (clears && field.differs(blank, store)) && clears == ["due", "state"].contains(field.name),
                                "todotxt: a line without \(field.todoTxtKey ?? "") \(clears ? "clears" : "keeps") \(field.name)")
                    }
                } else {
                    uncarried.append(field.name)
                    #expect(!field.differs(kept, store), "\(format.name) has no place for \(field.name): the store's value must stay")
                }
            }
            // The fields each format cannot say, as Docs/INTERCHANGE.md lists them.
            let expected: [String: [String]] = ["csv": ["slot"], "taskwarrior": ["slot"], "todotxt": ["slot", "notes"]]
            #expect(uncarried == expected[format.name], "\(format.name): \(uncarried)")
        }
    }
}
