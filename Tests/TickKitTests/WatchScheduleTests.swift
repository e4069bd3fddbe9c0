import Testing
@testable import TickKit

/// The watcher's timers, on monotonic seconds given by the test (issue 28:
/// the debounce is driven by an injectable clock, not the wall clock).
/// Times are multiples of 1/8 s, exact in binary.
struct WatchScheduleTests {
    func schedule(heartbeat: Double? = nil) -> WatchSchedule {
        WatchSchedule(debounce: 0.25, retryDelay: 0.5, heartbeat: heartbeat, start: 1000)
    }

    @Test func aPathIsDueOnceTheDebounceHasPassedSinceItsLastChange() {
        var s = schedule()
        s.changed("inbox.json", at: 1000)
        s.changed("inbox.json", at: 1000.125)   // a burst postpones it
        let early = s.takeDue(at: 1000.25)
        #expect(early.isEmpty)
        #expect(s.deadline(at: 1000.25, maxSleep: 15) == 1000.375)
        let due = s.takeDue(at: 1000.375)
        #expect(due == ["inbox.json"])
        let again = s.takeDue(at: 1001)
        #expect(again.isEmpty, "taken once")
    }

    @Test func pathsAreTakenInNameOrderAndARetryWaitsTheRetryDelay() {
        var s = schedule()
        s.changed("lists/work.json", at: 1000)
        s.changed("inbox.json", at: 1000)
        let both = s.takeDue(at: 1001)
        #expect(both == ["inbox.json", "lists/work.json"])
        s.retry("inbox.json", at: 1001)
        let early = s.takeDue(at: 1001.375)
        #expect(early.isEmpty)
        let retried = s.takeDue(at: 1001.5)
        #expect(retried == ["inbox.json"])
    }

    @Test func theDeadlineIsTheEarliestOfPathsResolveReminderHeartbeatAndMaxSleep() {
        var s = schedule(heartbeat: 60)
        #expect(s.deadline(at: 1000, maxSleep: 15) == 1015)
        #expect(s.deadline(at: 1000, maxSleep: 15, also: 1002) == 1002, "a reminder's wake-up")
        #expect(s.deadline(at: 1050, maxSleep: 15) == 1060, "the heartbeat")
        s.resolveSoon(at: 1000)
        #expect(s.deadline(at: 1000, maxSleep: 15) == 1000.25)
        s.changed("inbox.json", at: 1000)
        s.clearPaths()
        let none = s.takeDue(at: 2000)
        #expect(none.isEmpty, "a rescan covers pending paths")
    }

    @Test func resolveIsDebouncedAndAnEarlierRequestIsNotPostponedWhenAsked() {
        var s = schedule()
        s.resolveSoon(at: 1000)
        s.resolveSoon(at: 1000.125, unlessPending: true)
        let early = s.takeResolve(at: 1000.125)
        #expect(!early)
        let due = s.takeResolve(at: 1000.25)
        #expect(due)
        let again = s.takeResolve(at: 1000.5)
        #expect(!again, "taken once")
        s.resolveSoon(at: 1001)
        s.resolveSoon(at: 1001.125)
        let postponed = s.takeResolve(at: 1001.25)
        #expect(!postponed, "without unlessPending a later copy postpones the merge")
        s.resolveNow(at: 1002)
        let now = s.takeResolve(at: 1002)
        #expect(now)
    }

    @Test func aHeartbeatComesOncePerPeriod() {
        var s = schedule(heartbeat: 60)
        let beats = [1059.0, 1060, 1100, 1120].map { s.takeHeartbeat(at: $0) }
        #expect(beats == [false, true, false, true])
        var quiet = schedule()
        let none = quiet.takeHeartbeat(at: 99_999)
        #expect(!none)
    }
}
