import FoundationEssentials

/// The decisions of `tick review` and its `--all-to`: what an answer means,
/// what each action changes (always through the store lock and
/// `StoreWriter.update`), and the tally of the walk. Asking and printing are
/// the caller's: ``run(_:decide:report:)`` takes them as closures.
public struct ReviewSession {
    let store: Store
    let session: IndexSession
    let now: Date
    let timeZone: Zone

    public init(store: Store, session: IndexSession, now: Date, timeZone: Zone) {
        self.store = store
        self.session = session
        self.now = now
        self.timeZone = timeZone
    }

    /// The question asked about each task.
    public static let question = "[d]one  [t]omorrow  [p]ick a date  [i]nbox  [s]kip  [q]uit? "

    /// What a typed answer to ``question`` means.
    public enum Answer: Equatable, Sendable {
        case done, tomorrow, pick, inbox, skip, quit
    }

    /// The answer a line means (any case, short or long form); nil when it
    /// means none, an empty line included (the question is asked again).
    public static func answer(_ text: String) -> Answer? {
        switch text.lowercased() {
        case "d", "done": return .done
        case "t", "tomorrow": return .tomorrow
        case "p", "pick", "pick a date": return .pick
        case "i", "inbox": return .inbox
        case "s", "skip": return .skip
        case "q", "quit": return .quit
        default: return nil
        }
    }

    /// What the user decided about one task.
    public enum Decision {
        case done
        case moveTo(TaskDate)
        case inbox
        case skip
        case quit
    }

    /// What one decision did to its task.
    public enum Outcome {
        /// Completed; `item` is the task as it is now, `ids` the index after the write (for the next occurrence's short id).
        case completed(item: ListedTask, CompletionOutcome, ids: TaskIndex)
        /// Its today-dates moved to `to`; `changed` is false when none did.
        case moved(to: TaskDate, changed: Bool)
        /// Back in the inbox with no dates.
        case sentToInbox
        case skipped
        /// The action failed (the task vanished meanwhile); counted, the walk goes on.
        case failed(any Error)
    }

    /// The decisions counted for the summary.
    public struct Tally: Equatable, Sendable {
        public var done = 0
        public var moved = 0
        public var inbox = 0
        public var skipped = 0
        public var failed = 0

        public init() {}

        public var reviewed: Int { done + moved + inbox + skipped + failed }
    }

    /// Why a walk ended before its last task.
    public enum Stop: String, Equatable, Sendable {
        case quit = "quit"
        case endOfInput = "end of input"
    }

    /// How a walk ended.
    public struct Summary: Equatable, Sendable {
        /// The tasks under review.
        public var total: Int
        public var tally: Tally
        /// Set when the walk stopped early (quit, or no answer was left).
        public var stoppedBy: Stop?

        /// The tasks left as they are because the walk stopped.
        public var left: Int { total - tally.reviewed }
    }

    /// Walks `items` in order. `decide` gets each task's position and the task
    /// and returns the user's decision, nil at end of input (the walk stops
    /// as on quit). `report` hears what each action did, in order.
    public func run(_ items: [ListedTask], decide: (Int, ListedTask) -> Decision?,
                    report: (ListedTask, Outcome) -> Void) -> Summary {
        var summary = Summary(total: items.count, tally: Tally(), stoppedBy: nil)
        for (n, item) in items.enumerated() {
            guard let decision = decide(n, item) else {
                summary.stoppedBy = .endOfInput
                break
            }
            let outcome: Outcome
            switch decision {
            case .quit:
                summary.stoppedBy = .quit
                return summary
            case .skip:
                outcome = .skipped
            case .done:
                outcome = attempt { let (updated, result) = try complete(item); return .completed(item: updated, result, ids: session.resync()) }
            case .moveTo(let target):
                outcome = attempt { .moved(to: target, changed: try reschedule(item, to: target)) }
            case .inbox:
                outcome = attempt { try sendToInbox(item); return .sentToInbox }
            }
            switch outcome {
            case .completed: summary.tally.done += 1
            case .moved: summary.tally.moved += 1
            case .sentToInbox: summary.tally.inbox += 1
            case .skipped: summary.tally.skipped += 1
            case .failed: summary.tally.failed += 1
            }
            report(item, outcome)
        }
        return summary
    }

    private func attempt(_ action: () throws -> Outcome) -> Outcome {
        do { return try action() } catch { return .failed(error) }
    }

    // MARK: Actions

    /// Completes the task through the recurrence-aware path (a repeating
    /// task gets its next occurrence); returns the task as it is now.
    public func complete(_ item: ListedTask) throws -> (ListedTask, CompletionOutcome) {
        let (now, zone, index) = (self.now, timeZone, session.index)
        let done = try store.withLock { writer in
            try TaskMutation.complete(item, writer: writer, index: index, now: now, timeZone: zone)
        }
        return (done.item, done.outcome)
    }

    /// Moves the task's today-dates (due or scheduled on or before today) to
    /// `target`; returns whether any date moved.
    @discardableResult
    public func reschedule(_ item: ListedTask, to target: TaskDate) throws -> Bool {
        let today = TaskQuery(now: now, timeZone: timeZone).today
        let now = self.now
        let zone = timeZone
        return try store.withLock { writer in
            try writer.update(item.kind) { file in
                try file.updateTask(item.task.id) { task in
                    task.reschedule(to: target, today: today, now: now, timeZone: zone)
                }
            }
        }
    }

    /// Back to the inbox: clears due, scheduled and remind, and moves the task
    /// to inbox.json by ``TaskMutation/move(_:to:changing:)``, the move `tick
    /// mv` makes (`changed.list` stamped, no tombstone left behind; a task
    /// already in the inbox only loses its dates).
    public func sendToInbox(_ item: ListedTask) throws {
        let now = self.now
        _ = try TaskMutation(store: store, session: session, now: now)
            .move([.id(item.task.id)], to: .inbox) { task in task.clearDates(now: now) }
    }
}
