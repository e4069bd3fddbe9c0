import Foundation
import Testing
@testable import TickKit

/// `tick watch`'s CalDAV timer on a clock the test moves: a sync at start,
/// one per interval, and one a debounce after a store change.
struct DavSchedulerTests {
    /// Monotonic seconds that move only when the test says.
    final class SteppedClock: @unchecked Sendable {
        private let lock = NSLock()
        private var seconds = 1000.0
        func advance(_ by: Double) { lock.withLock { seconds += by } }
        var clock: MonotonicClock { MonotonicClock { [self] in lock.withLock { seconds } } }
    }

    /// True once `condition` holds (polled; a ceiling of 5 s for a hung scheduler).
    static func waitUntil(_ condition: () -> Bool) -> Bool {
        for _ in 0..<500 {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return condition()
    }

    @Test func syncsAtStartEveryIntervalAndADebounceAfterAChange() {
        let time = SteppedClock()
        let syncs = Counter()
        let scheduler = DavScheduler(interval: 3600, debounce: 0.5, clock: time.clock, maxSleep: 0.01) { _ = syncs.next() }
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            scheduler.run()
            done.signal()
        }
        #expect(Self.waitUntil { syncs.value == 1 }, "a sync at start")
        time.advance(3600)
        #expect(Self.waitUntil { syncs.value == 2 }, "a sync when the interval has passed")
        scheduler.noteChange()
        time.advance(0.5)
        #expect(Self.waitUntil { syncs.value == 3 }, "a sync a debounce after a change, long before the next interval")
        scheduler.stop()
        #expect(done.wait(timeout: .now() + 5) == .success, "stop ends the loop")
        #expect(syncs.value == 3)
    }
}

/// vdirsyncer's failures in one line.
struct DavErrorTests {
    @Test func aRefusedLoginAndAnUnreachableServerAreSaidInOneLine() {
        let login = DavError.vdirsyncerFailed(step: "discover", message: """
            Discovering collections for pair tick
            warning: Failed to discover collections for tick_remote, use `-vdebug` to see the full traceback.
            error: Unknown error occurred: 401, message='Unauthorized', url=URL('http://127.0.0.1:5239/')
            error: Use `-vdebug` to see the full traceback.
            """)
        #expect(login.report.contains("refused the login (401 Unauthorized)"))
        #expect(!login.report.contains("\n"))
        let down = DavError.vdirsyncerFailed(step: "sync", message: """
            Syncing tick/home
            error: Unknown error occurred: Cannot connect to host 127.0.0.1:5239 ssl:default [Connect call failed ('127.0.0.1', 5239)]
            error: Use `-vdebug` to see the full traceback.
            """)
        #expect(down.report == "CalDAV sync failed: the server cannot be reached (Cannot connect to host 127.0.0.1:5239 ssl:default; tried again, with a pause); no calendar synced; the store is unchanged by the server's side and tick works as before; `tick dav sync` tries again")
    }
}
