import Foundation
import Testing
@testable import TickKit

/// A notifier that records what it was asked to show and answers from a script.
final class RecordingNotifier: Notifier, @unchecked Sendable {
    private let lock = NSLock()
    private var shown: [Reminder] = []
    private let answer: NotifierResponse

    init(answer: NotifierResponse = .dismissed) { self.answer = answer }

    func notify(_ reminder: Reminder) -> NotifierResponse {
        lock.lock()
        shown.append(reminder)
        lock.unlock()
        return answer
    }

    var reminders: [Reminder] {
        lock.lock()
        defer { lock.unlock() }
        return shown
    }
}

/// A clock a test moves by hand.
final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date
    init(_ start: Date) { current = start }
    var now: Date {
        lock.lock()
        defer { lock.unlock() }
        return current
    }
    func set(_ date: Date) {
        lock.lock()
        current = date
        lock.unlock()
    }
}

@Suite struct ReminderTests {
    let berlin = Zone(named: "Europe/Berlin")!
    let now = Timestamp.parse("2026-11-21T09:00:00Z")!

    /// A temp store whose inbox holds `tasks` (JSON objects as text).
    func store(_ tasks: [String]) throws -> (Store, TaskIndex, String) {
        let dir = NSTemporaryDirectory() + "tick-remind-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir + "/store", withIntermediateDirectories: true)
        let text = "{\"version\": 1, \"tasks\": [\(tasks.joined(separator: ","))]}\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: dir + "/store/inbox.json"))
        let location = StoreLocation(root: dir + "/store", stateDirectory: dir + "/state", cacheDirectory: dir + "/cache")
        let store = Store(location: location)
        let index = try TaskIndex.open(store: store, now: { Date().addingTimeInterval(3600) })
        return (store, index, dir)
    }

    func task(_ id: String, _ title: String, remind: String?, state: String = "open", due: String? = nil) -> String {
        var fields = ["\"id\": \"\(id)\"", "\"title\": \"\(title)\"", "\"state\": \"\(state)\"",
                      "\"createdAt\": \"2026-11-01T00:00:00Z\"", "\"modifiedAt\": \"2026-11-01T00:00:00Z\""]
        if let remind { fields.append("\"remind\": \"\(remind)\"") }
        if let due { fields.append("\"due\": \"\(due)\"") }
        if state == "done" { fields.append("\"completedAt\": \"2026-11-02T00:00:00Z\"") }
        return "{" + fields.joined(separator: ", ") + "}"
    }

    let a = "aaaaaaaa-0000-4000-8000-000000000001"
    let b = "bbbbbbbb-0000-4000-8000-000000000002"
    let c = "cccccccc-0000-4000-8000-000000000003"
    let d = "dddddddd-0000-4000-8000-000000000004"

    func service(_ store: Store, _ index: TaskIndex, settings: ReminderSettings = ReminderSettings()) -> ReminderService {
        ReminderService(store: store, index: index, settings: settings, timeZone: berlin, fired: FiredReminders(location: store.location))
    }

    @Test func firesOnlyDuePendingRemindersInsideTheWindowOnce() throws {
        let (store, index, dir) = try store([
            task(a, "on time", remind: "2026-11-21T09:00:00Z", due: "2026-11-21"),
            task(b, "missed an hour ago", remind: "2026-11-21T08:00:00Z"),
            task(c, "done", remind: "2026-11-21T08:30:00Z", state: "done"),
            task(d, "two days old", remind: "2026-11-19T09:00:00Z"),
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try index.refresh()
        let first = try service(store, index).due(now: now)
        #expect(first.map(\.title) == ["missed an hour ago", "on time"])
        #expect(first.map(\.late) == [true, false])
        #expect(first[1].due == .day(LocalDate(iso: "2026-11-21")!))
        #expect(first[0].summary == "Late: missed an hour ago")
        // Same service, later: nothing again. A new service (a restart) reads the record.
        #expect(try service(store, index).due(now: now.addingTimeInterval(30)).isEmpty)
        #expect(try service(store, index).due(now: now.addingTimeInterval(3600)).isEmpty)
        // A wider window would have fired the old one; the default (24 h) does not.
        var wide = ReminderSettings()
        wide.lateWindow = 3 * 86_400
        #expect(try service(store, index, settings: wide).due(now: now).map(\.title) == ["two days old"])
    }

    @Test func nextWakeIsTheEarliestFuturePendingReminder() throws {
        let (store, index, dir) = try store([
            task(a, "later", remind: "2026-11-21T12:00:00Z"),
            task(b, "sooner", remind: "2026-11-21T10:00:00Z"),
            task(c, "done", remind: "2026-11-21T09:30:00Z", state: "done"),
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try index.refresh()
        #expect(try service(store, index).nextWake(after: now) == Timestamp.parse("2026-11-21T10:00:00Z"))
        #expect(try service(store, index).nextWake(after: Timestamp.parse("2026-11-21T12:00:00Z")!) == nil)
    }

    @Test func aChangedRemindFiresAgain() throws {
        let (store, index, dir) = try store([task(a, "x", remind: "2026-11-21T09:00:00Z")])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try index.refresh()
        let reminders = service(store, index)
        let fired = try reminders.due(now: now)
        #expect(fired.count == 1)
        #expect(try reminders.perform(.snooze, on: fired[0], now: now) == .changed(.snooze))
        try index.refresh()
        let snoozed = try #require(try index.task(id: UUID(uuidString: a)!))
        #expect(snoozed.task.remind == now.addingTimeInterval(600))
        #expect(try reminders.due(now: now.addingTimeInterval(599)).isEmpty)
        #expect(try reminders.due(now: now.addingTimeInterval(600)).map(\.title) == ["x"])
    }

    @Test func doneWritesTheFileThroughTheSafePath() throws {
        let (store, index, dir) = try store([task(a, "x", remind: "2026-11-21T09:00:00Z")])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try index.refresh()
        let reminders = service(store, index)
        let fired = try reminders.due(now: now)
        #expect(try reminders.perform(.done, on: fired[0], now: now) == .changed(.done))
        let file = try #require(try store.read(.inbox)).file
        #expect(file.tasks[0].state == .done)
        #expect(file.tasks[0].completedAt == now)
        #expect(try reminders.perform(.done, on: fired[0], now: now) == .unchanged(.done))
    }

    @Test func tomorrowKeepsTheWallClockTimeAcrossDST() throws {
        // Saturday 24 Oct 2026, 18:30 in Berlin (summer time); Sunday is winter time.
        let evening = LocalDate(iso: "2026-10-24")!.at(hour: 18, minute: 30, timeZone: berlin)
        var timed = TaskItem(id: UUID(), title: "t", due: .time(evening), remind: evening.addingTimeInterval(-1800),
                             createdAt: now, modifiedAt: now)
        #expect(ReminderAction.tomorrow.apply(to: &timed, now: evening, timeZone: berlin, snooze: 600))
        #expect(timed.due == .time(LocalDate(iso: "2026-10-25")!.at(hour: 18, minute: 30, timeZone: berlin)))
        #expect(timed.remind == LocalDate(iso: "2026-10-25")!.at(hour: 18, minute: 0, timeZone: berlin))
        #expect(timed.remind.map { evening.timeIntervalSince($0) } != -86_400 + 1800)  // 25 h later, not 24
        #expect(timed.modifiedAt == evening)
        // All-day due moves to tomorrow; a task with no dates gets scheduled tomorrow.
        var allDay = TaskItem(id: UUID(), title: "d", due: .day(LocalDate(iso: "2026-11-18")!), createdAt: now, modifiedAt: now)
        ReminderAction.tomorrow.apply(to: &allDay, now: now, timeZone: berlin, snooze: 600)
        #expect(allDay.due == .day(LocalDate(iso: "2026-11-22")!))
        #expect(allDay.scheduled == nil)
        var bare = TaskItem(id: UUID(), title: "b", remind: now, createdAt: now, modifiedAt: now)
        ReminderAction.tomorrow.apply(to: &bare, now: now, timeZone: berlin, snooze: 600)
        #expect(bare.scheduled == LocalDate(iso: "2026-11-22"))
        #expect(bare.remind == now.addingTimeInterval(86_400))
    }

    @Test func commandTemplatesSubstitutePlainTextPerArgument() {
        let argv = CommandNotifier.expand(["n", "--", "{summary}", "[{list}] {body}", "{nope}", "{"],
                                          ["summary": "\"; rm -rf ~", "list": "Home", "body": "$(x)"])
        #expect(argv == ["n", "--", "\"; rm -rf ~", "[Home] $(x)", "{nope}", "{"])
    }

    @Test func theWatcherFiresUnderAControllableClock() throws {
        let (store, index, dir) = try store([task(a, "at ten", remind: "2026-11-21T10:00:00Z")])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try index.refresh()
        let clock = ManualClock(now)
        let notifier = RecordingNotifier(answer: .snooze)
        var options = StoreWatcher.Options()
        options.maxSleep = 0.05
        // A heartbeat ends every pass of the loop that looked at the clock
        // for reminders: the event that says "by now it would have fired".
        options.heartbeat = 0.01
        let reminders = StoreWatcher.Reminders(service: service(store, index), notifier: notifier, clock: { clock.now })
        let events = EventLog()
        let watcher = StoreWatcher(store: store, index: index, options: options, reminders: reminders) { events.append($0) }
        let stop = watcher.stopper
        let box = Unchecked(watcher)
        let thread = Thread { _ = try? box.value.run() }
        thread.start()
        defer { stop("test over") }
        // Two heartbeats after a mark: the second pass began after it, so it
        // read the clock as it is now (the first may have read it before).
        func passed() -> Bool {
            let mark = events.count { if case .heartbeat = $0 { return true } else { return false } }
            return waitUntil { events.count { if case .heartbeat = $0 { return true } else { return false } } >= mark + 2 }
        }
        #expect(passed())
        #expect(notifier.reminders.isEmpty, "nothing is due at 09:00")
        clock.set(Timestamp.parse("2026-11-21T09:59:59Z")!)
        #expect(passed())
        #expect(notifier.reminders.isEmpty, "nor a second before ten")
        clock.set(Timestamp.parse("2026-11-21T10:00:00Z")!)
        #expect(waitUntil { notifier.reminders.count == 1 })
        #expect(notifier.reminders.first?.late == false)
        // The answer (snooze) is written: remind moves to 10:10.
        #expect(waitUntil { (try? store.read(.inbox))??.file.tasks.first?.remind == Timestamp.parse("2026-11-21T10:10:00Z") })
        clock.set(Timestamp.parse("2026-11-21T10:10:00Z")!)
        #expect(waitUntil { notifier.reminders.count == 2 })
        #expect(events.contains { if case .reminderAnswered(_, .snooze?, true) = $0 { return true } else { return false } })
    }

    /// Polls `condition` until it holds or `timeout` (generous: a wait on an event, never a measure of speed) passes.
    func waitUntil(_ timeout: TimeInterval = 30, _ condition: () -> Bool) -> Bool {
        let end = Date().addingTimeInterval(timeout)
        while Date() < end {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return condition()
    }
}

/// Hands a value to another thread when the test knows it is safe.
final class Unchecked<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}

/// Collects watcher events across threads.
final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [WatchEvent] = []
    func append(_ e: WatchEvent) {
        lock.lock()
        events.append(e)
        lock.unlock()
    }
    func contains(_ predicate: (WatchEvent) -> Bool) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return events.contains(where: predicate)
    }
    func count(_ predicate: (WatchEvent) -> Bool) -> Int {
        lock.lock()
        defer { lock.unlock() }
        return events.count(where: predicate)
    }
}

@Suite struct ConfigTests {
    @Test func defaultsWithoutAFile() throws {
        let config = try TickConfig.load(environment: ["HOME": "/nonexistent-\(UUID().uuidString)"])
        #expect(config == TickConfig())
        #expect(config.reminders.snooze == 600)
        #expect(config.reminders.lateWindow == 86_400)
        #expect(config.reminders.command.first == "notify-send")
    }

    @Test func readsEverySetting() throws {
        let config = try TickConfig.parse("""
            [reminders]
            snooze = "25m"
            late-window = "2h30m"
            command = ["dunstify", "{summary}"]
            fallback = false
            colour = "typo"

            [capture]
            prompt = "rofi"

            [plan]
            hours = "08:30-17:00"
            """, path: "/c.toml")
        #expect(config.reminders.snooze == 1500)
        #expect(config.reminders.lateWindow == 9000)
        #expect(config.reminders.command == ["dunstify", "{summary}"])
        #expect(config.reminders.fallback == false)
        #expect(config.capturePrompt == "rofi")
        #expect(config.workHours == "08:30-17:00")
        #expect(config.unknownKeys == ["reminders.colour"])
        #expect(try TickConfig.parse("[reminders]\nsnooze = 15\n", path: "/c").reminders.snooze == 900)
    }

    @Test func syntaxErrorsSayWhereWithACaret() {
        #expect {
            try TickConfig.parse("[reminders]\nsnooze = \"10m\n", path: "/home/u/.config/tick/config.toml")
        } throws: { error in
            let text = (error as? ConfigError)?.errorDescription ?? ""
            return text.hasPrefix("/home/u/.config/tick/config.toml:2:") && text.contains("snooze = \"10m") && text.contains("^")
        }
    }

    @Test func badValuesNameTheKey() {
        for (text, key) in [("[reminders]\nsnooze = \"soon\"", "reminders.snooze"),
                            ("[reminders]\ncommand = []", "reminders.command"),
                            ("[reminders]\ncommand = \"notify-send {summary}\"", "reminders.command"),
                            ("[capture]\nprompt = \"gtk\"", "capture.prompt")] {
            #expect {
                try TickConfig.parse(text, path: "/c")
            } throws: { error in
                guard case let .badValue(_, k, _, _)? = error as? ConfigError else { return false }
                return k == key
            }
        }
    }
}
