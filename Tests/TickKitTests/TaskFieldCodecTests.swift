import Foundation
import Testing
@testable import TickKit

/// The field registry against the interchange codecs (issue 45): each
/// format writes a change of every field, and reads it back, except the
/// fields its table in Docs/INTERCHANGE.md says it has no place for. A field
/// added to ``TaskField/all`` that a codec drops fails here until the codec
/// carries it or the exception is written down.
@Suite struct TaskFieldCodecTests {
    let context = InterchangeContext(path: "x", now: TaskFieldTests.t2, timeZone: Zone(named: "UTC")!)

    /// Per format: the fields it does not carry, and why.
    static let notCarried: [String: Set<String>] = [
        // No column for a slot; of the unknown keys only declared fields (a column each).
        "csv": ["slot", "extra"],
        // Taskwarrior has no slot (hooks do not see it either, as `tickestimate` they see the estimate).
        "taskwarrior": ["slot"],
        // A todo.txt line has no place for notes, a slot, a modification time or
        // other keys (INTERCHANGE.md's todo.txt table).
        "todo.txt": ["slot", "notes", "modifiedAt", "extra"],
        // iCalendar carries every field (tick's own as X-TICK- properties).
        "ics": [],
    ]

    func formats() -> [(String, (([TaskFile]) -> [UInt8]))] {
        [
            ("csv", { CSVCodec.encode($0, context: context) }),
            ("taskwarrior", { TaskwarriorCodec.encode($0, context: context) }),
            ("todo.txt", { TodoTxtCodec.encode($0, context: context) }),
            ("ics", { ICalendarCodec.encode($0, context: context) }),
        ]
    }

    func file(_ task: TaskItem) -> [TaskFile] {
        var file = TaskFile.empty(.inbox, name: nil, now: TaskFieldTests.t0)
        file.tasks = [task]
        return [file]
    }

    @Test func everyFormatWritesEveryFieldItHasAPlaceFor() {
        for (format, encode) in formats() {
            let exceptions = Self.notCarried[format] ?? []
            var carried: Set<String> = []
            for field in TaskField.all {
                guard let v = TaskFieldTests.variants[field.name] else { continue }
                if encode(file(v.before)) != encode(file(v.after)) { carried.insert(field.name) }
            }
            let all = Set(TaskField.all.map(\.name))
            let dropped = all.subtracting(carried)
            // Every field a format drops is a written-down exception, and every exception is real.
            #expect(dropped.subtracting(exceptions).isEmpty, "\(format) drops \(dropped.subtracting(exceptions).sorted()): carry them or add them to notCarried with why")
            #expect(exceptions.intersection(carried).isEmpty,
                    "\(format) carries \(exceptions.intersection(carried).sorted()): take them out of notCarried")
        }
    }

    @Test("each field CSV carries comes back from its row as it went; a field with a cell is a column under its name")
    func csvReadsBackEveryFieldItWrites() throws {
        for field in TaskField.all where !(Self.notCarried["csv"] ?? []).contains(field.name) {
            let v = try #require(TaskFieldTests.variants[field.name])
            for task in [v.before, v.after] {
                let back = try CSVCodec.decode(CSVCodec.encode(file(task), context: context), context: context)
                let read = try #require(back.first?.tasks.first)
                #expect(!field.differs(read, task), "\(field.name) changed through CSV: \(read) vs \(task)")
            }
        }
        for field in TaskField.all where field.cell != nil {
            #expect(CSVCodec.columns.contains(field.name), "\(field.name) has a cell and no CSV column")
        }
    }

    @Test("each field Taskwarrior and iCalendar carry comes back from its task as it went; tick's own attributes and properties are the table's")
    func taskwarriorAndICalendarReadBackEveryFieldTheyWrite() throws {
        let codecs: [(String, ([TaskFile]) throws -> [TaskFile])] = [
            ("taskwarrior", { files throws in try TaskwarriorCodec.decode(TaskwarriorCodec.encode(files, context: context), context: context) }),
            ("ics", { files throws in try ICalendarCodec.decode(ICalendarCodec.encode(files, context: context), context: context) }),
        ]
        for (format, roundTrip) in codecs {
            for field in TaskField.all where !(Self.notCarried[format] ?? []).contains(field.name) {
                let v = try #require(TaskFieldTests.variants[field.name])
                for task in [v.before, v.after] {
                    let read = try #require(try roundTrip(file(task)).first?.tasks.first)
                    #expect(!field.differs(read, task), "\(field.name) changed through \(format): \(read) vs \(task)")
                }
            }
        }
        // todo.txt's own `key:word`s (energy, estimate) come back as they went.
        #expect(!TodoTxtCodec.ownWords.isEmpty)
        for word in TodoTxtCodec.ownWords {
            let v = try #require(TaskFieldTests.variants[word.field.name])
            for task in [v.before, v.after] {
                let read = try #require(try TodoTxtCodec.decode(TodoTxtCodec.encode(file(task), context: context), context: context).first?.tasks.first)
                #expect(!word.field.differs(read, task), "\(word.key) changed through todo.txt: \(read) vs \(task)")
            }
        }
        // A register iCalendar has no property for goes as X-TICK-NAME, its cell's text.
        for field in TaskField.all where field.mergeRule == .register && field.cell != nil {
            #expect(DavMapping.fields.contains { $0.key == field.changeKey }, "\(field.name) has no VTODO property")
        }
        // A field Taskwarrior has no attribute for goes as tick + its name, as text.
        for field in TaskField.all where field.hookKey == "tick" + field.name && field.cell != nil && field.kind != .instant {
            #expect(TaskwarriorCodec.ownTextAttributes.contains { $0.key == field.hookKey }, "\(field.name)")
        }
    }
}
