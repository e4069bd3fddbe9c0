import Foundation
import Testing
@testable import TickKit

/// Issue 35, "the habits users bring": what an active context writes on a new
/// task, the one-time hints and their record, missed reminders, and what an
/// empty today view says.
@Suite struct FirstDayTests {
    let now = Timestamp.parse("2026-11-23T09:00:00Z")!
    let utc = Zone(named: "UTC")!

    func filter(_ text: String) throws -> ParsedFilter {
        try FilterParser(now: now, timeZone: utc).parse([text])
    }

    func fixture() throws -> (store: Store, session: IndexSession, dir: String) {
        let dir = NSTemporaryDirectory() + "tick-firstday-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir + "/store/lists", withIntermediateDirectories: true)
        let location = StoreLocation(root: dir + "/store", stateDirectory: dir + "/state", cacheDirectory: dir + "/cache")
        let now = self.now
        let store = Store(location: location, clock: { now })
        for (slug, name) in [("work", "Work"), ("home", "Home")] {
            try Data(TaskFileEncoder.encode(TaskFile.empty(.list(slug: slug), name: name, now: now)))
                .write(to: URL(fileURLWithPath: location.path(of: .list(slug: slug))))
        }
        let later = now.addingTimeInterval(3600)
        let session = IndexSession(try TaskIndex.open(store: store, now: { later }))
        return (store, session, dir)
    }

    func adding(_ f: (store: Store, session: IndexSession, dir: String)) -> TaskAdding {
        TaskAdding(store: f.store, session: f.session, now: now, quickAdd: QuickAddParser(fields: FieldParser(now: now, timeZone: utc)))
    }

    // MARK: Contexts

    @Test func aFilterOfTagsListPriorityAndEnergyIsWritten() throws {
        let d = ContextDefaults(name: "work", filter: try filter("+work +office list:Work pri:must energy:low"))
        #expect(d.writable)
        #expect(d.tags == ["work", "office"])
        #expect(d.list == "Work")
        #expect(d.words == ["pri": "must", "energy": "low"])
        var typed = TaskEdit()
        typed[\.priority] = .set(.flexible)
        typed.removeTags = ["office"]
        let applied = d.applied(to: typed)
        #expect(applied.addTags == ["work"], "a tag the add removes is not added back")
        #expect(applied[\.priority] == .set(.flexible), "the typed priority wins")
        #expect(applied[\.energy] == .set(.low))
    }

    @Test(arguments: ["+work or list:Work", "-someday", "+work due.before:fri", "not +work", "pri:none"])
    func aFilterThatCannotBeWrittenWritesNothing(_ text: String) throws {
        let d = ContextDefaults(name: "x", filter: try filter(text))
        #expect(!d.writable)
        #expect(!d.writesAnything)
        #expect(d.applied(to: TaskEdit()) == TaskEdit())
    }

    @Test func addingUnderAContextTakesItsTagsAndListAndTypedListWins() throws {
        let f = try fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let context = ContextDefaults(name: "work", filter: try filter("+work list:Work"))
        let report = try adding(f).add([(nil, ["Plan", "Q1"]), (nil, ["Fix", "tap", "list:Home", "+diy"])], context: context)
        #expect(report.added.map(\.kind) == [.list(slug: "work"), .list(slug: "home")])
        #expect(report.added[0].task.tags == ["work"])
        #expect(report.added[1].task.tags == ["diy", "work"])
        // The typed list wins, so that task is outside the context, and says so.
        #expect(report.outsideContext.map(\.task.title) == ["Fix tap"])
        #expect(report.warnings.count == 1)
        let warning = try #require(report.warnings.first).message
        #expect(warning.contains("outside the active context work (+work list:Work)"))
        #expect(warning.contains("tick show \(report.added[1].shortID ?? 0)"))
        #expect(warning.contains("tick context none"))
    }

    @Test func aContextThatCannotBeWrittenAddsAsTypedAndWarnsOnlyWhenOutside() throws {
        let f = try fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let context = ContextDefaults(name: "work", filter: try filter("+work or list:Work"))
        let report = try adding(f).add([(nil, ["Plain"]), (nil, ["Tagged", "+work"])], context: context)
        #expect(report.added.map(\.kind) == [.inbox, .inbox])
        #expect(report.added[0].task.tags.isEmpty)
        #expect(report.outsideContext.map(\.task.title) == ["Plain"])
        #expect(report.warnings.count == 1)
    }

    @Test func withoutAContextNothingChanges() throws {
        let f = try fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let report = try adding(f).add([(nil, ["Plain"])])
        #expect(report.outsideContext.isEmpty && report.warnings.isEmpty)
        #expect(report.added.first?.kind == .inbox)
    }

    // MARK: Hints

    func item(_ task: TaskItem) -> ListedTask { ListedTask(task: task, kind: .inbox, listName: "Inbox", shortID: 1) }

    @Test func remindersAndDueTimesEarnTheWatcherHintOnlyWithoutAWatcher() {
        var reminded = TaskItem(id: UUID(), title: "a", createdAt: now, modifiedAt: now)
        reminded.remind = now.addingTimeInterval(3600)
        var timed = TaskItem(id: UUID(), title: "b", createdAt: now, modifiedAt: now)
        timed.due = .time(now)
        var day = TaskItem(id: UUID(), title: "c", createdAt: now, modifiedAt: now)
        day.due = .day(LocalDate(date: now, timeZone: utc))
        #expect(Hint.afterAdding([item(reminded)], watcherRunning: false) == [.reminders, .firstTask])
        #expect(Hint.afterAdding([item(timed)], watcherRunning: false) == [.reminders, .firstTask])
        #expect(Hint.afterAdding([item(day)], watcherRunning: false) == [.firstTask])
        #expect(Hint.afterAdding([item(reminded)], watcherRunning: true) == [.firstTask])
        #expect(Hint.afterAdding([], watcherRunning: false).isEmpty)
    }

    @Test func eachHintIsTakenOncePerStore() throws {
        let dir = NSTemporaryDirectory() + "tick-hints-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let location = StoreLocation(root: dir + "/store", stateDirectory: dir + "/state", cacheDirectory: dir + "/cache")
        let record = HintRecord(location: location)
        #expect(record.take([.firstTask]) == [.firstTask])
        #expect(record.take([.reminders, .firstTask]) == [.reminders])
        #expect(record.take(Hint.allCases).isEmpty)
        #expect(record.shown() == Set(Hint.allCases))
        // Another store has its own record.
        let other = StoreLocation(root: dir + "/other", stateDirectory: dir + "/state2", cacheDirectory: dir + "/cache2")
        #expect(HintRecord(location: other).take([.firstTask]) == [.firstTask])
    }

    @Test func hintsAreOnByDefaultOffInConfigAndTICK_HINTSWins() throws {
        #expect(HintRecord.enabled(config: TickConfig(), environment: [:]))
        let off = try TickConfig.parse("hints = false\n", path: "config.toml")
        #expect(!off.hints && off.unknownKeys.isEmpty)
        #expect(!HintRecord.enabled(config: off, environment: [:]))
        #expect(HintRecord.enabled(config: off, environment: ["TICK_HINTS": "1"]))
        #expect(!HintRecord.enabled(config: TickConfig(), environment: ["TICK_HINTS": "off"]))
        #expect(throws: ConfigError.self) { try TickConfig.parse("hints = 3\n", path: "config.toml") }
    }

    @Test func theEnableCommandIsSystemctlWhenTheUnitIsInstalled() throws {
        let dir = NSTemporaryDirectory() + "tick-unit-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let dirs = WatcherSetup.unitDirectories(environment: ["HOME": dir])
        #expect(dirs.first == dir + "/.config/systemd/user")
        #expect(dirs.contains(dir + "/.local/share/systemd/user"))
        #expect(!WatcherSetup.unitInstalled(in: [dir + "/.config/systemd/user"]))
        try FileManager.default.createDirectory(atPath: dir + "/.config/systemd/user", withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: dir + "/.config/systemd/user/tick-watch.service", contents: Data())
        #expect(WatcherSetup.unitInstalled(in: [dir + "/.config/systemd/user"]))
        #expect(WatcherSetup.enableCommand(unitInstalled: true) == "systemctl --user enable --now tick-watch")
        #expect(WatcherSetup.enableCommand(unitInstalled: false).hasPrefix("tick watch"))
        #expect(Hint.reminders.text(enable: "X").hasSuffix("start it with: X"))
        #expect(Hint.firstTask.text(enable: "X").contains("tick ui"))
        #expect(Hint.firstTask.text(enable: "X").contains("status-line"))
    }

    // MARK: Missed reminders

    func write(_ f: (store: Store, session: IndexSession, dir: String), _ tasks: [TaskItem]) throws {
        var file = TaskFile.empty(.inbox, name: nil, now: now)
        file.tasks = tasks
        try Data(TaskFileEncoder.encode(file)).write(to: URL(fileURLWithPath: f.store.location.path(of: .inbox)))
        try f.session.index.refresh()
    }

    @Test func aPassedReminderNoWatcherFiredIsMissedUntilTheTaskChanges() throws {
        let f = try fixture()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let yesterday = now.addingTimeInterval(-86_400)
        func task(_ title: String, remind: Date, modified: Date) -> TaskItem {
            var t = TaskItem(id: UUID(), title: title, createdAt: yesterday.addingTimeInterval(-3600), modifiedAt: modified)
            t.remind = remind
            return t
        }
        let missed = task("Missed", remind: yesterday, modified: yesterday.addingTimeInterval(-60))
        let fired = task("Fired", remind: yesterday, modified: yesterday.addingTimeInterval(-60))
        let changed = task("Changed since", remind: yesterday, modified: yesterday.addingTimeInterval(60))
        let future = task("Future", remind: now.addingTimeInterval(3600), modified: yesterday)
        let ancient = task("Too old", remind: now.addingTimeInterval(-40 * 86_400), modified: now.addingTimeInterval(-41 * 86_400))
        var done = task("Done", remind: yesterday, modified: yesterday.addingTimeInterval(-60))
        done.state = .done
        try write(f, [missed, fired, changed, future, ancient, done])
        let record = FiredReminders(path: f.dir + "/state/reminders.json")
        record.record(fired.id, at: yesterday)
        let found = try MissedReminders(index: f.session.index, fired: record).find(now: now)
        #expect(found.map(\.task.title) == ["Missed"])
        // Within a minute of its time a reminder may still be on its way.
        #expect(try MissedReminders(index: f.session.index, fired: record).find(now: yesterday.addingTimeInterval(30)).isEmpty)
    }

    // MARK: The empty today view

    @Test func anEmptyTodaySuggestsAddingOnlyOnAnEmptyStoreWithoutAContext() {
        let empty = EmptyToday.message(openTasks: 0, context: nil)
        #expect(empty.contains("tick add "))
        #expect(EmptyToday.message(openTasks: 3, context: nil) == "Nothing due today. 3 open tasks: tick list")
        #expect(EmptyToday.message(openTasks: 1, context: nil) == "Nothing due today. 1 open task: tick list")
        #expect(!EmptyToday.message(openTasks: 0, context: "work").contains("tick add"))
        #expect(EmptyToday.message(openTasks: 5, context: "work").contains("context work"))
    }
}
