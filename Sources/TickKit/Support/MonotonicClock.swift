import Dispatch

/// Seconds on a clock that only moves forward at the rate of real time, from
/// an arbitrary start: for timers (the watcher's debounce, retries and
/// heartbeats) and durations, which a change of the wall clock (NTP, a
/// suspend, the user) must not stretch or skip. Tests pass their own.
public struct MonotonicClock: Sendable {
    /// The current reading, in seconds.
    public let now: @Sendable () -> Double

    public init(now: @escaping @Sendable () -> Double) {
        self.now = now
    }

    /// The system's monotonic clock (`CLOCK_MONOTONIC`, through Dispatch).
    public static let system = MonotonicClock { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
}
