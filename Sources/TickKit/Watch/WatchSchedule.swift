/// When the watcher acts, on a ``MonotonicClock``'s seconds: each changed
/// path is reindexed once no change to it came for `debounce` (a burst of
/// writes is one reindex), a parse failure is looked at again after
/// `retryDelay`, conflict copies are merged a debounce after the last one
/// arrived, and a heartbeat comes every `heartbeat` seconds. A value, so that
/// the rules are tested without threads or the real clock.
struct WatchSchedule {
    let debounce: Double
    let retryDelay: Double
    let heartbeat: Double?
    /// When each changed path is due.
    private(set) var due: [String: Double] = [:]
    /// When to look for conflict copies and split tasks.
    private(set) var resolveDue: Double?
    private var lastBeat: Double

    init(debounce: Double, retryDelay: Double, heartbeat: Double?, start: Double) {
        self.debounce = debounce
        self.retryDelay = retryDelay
        self.heartbeat = heartbeat
        lastBeat = start
    }

    /// `path` changed at `now`: due a debounce later (a later change postpones it).
    mutating func changed(_ path: String, at now: Double) {
        due[path] = now + debounce
    }

    /// `path` failed to parse at `now`: look again after the retry delay.
    mutating func retry(_ path: String, at now: Double) {
        due[path] = now + retryDelay
    }

    /// The paths due at `now`, in name order, taken off the schedule.
    mutating func takeDue(at now: Double) -> [String] {
        let ready = due.filter { $0.value <= now }.keys.sorted()
        for path in ready { due[path] = nil }
        return ready
    }

    /// Forgets every pending path (a full rescan covers them).
    mutating func clearPaths() {
        due.removeAll()
    }

    /// Conflict copies (or split tasks) showed up at `now`: resolve a debounce later.
    /// With `unlessPending`, an earlier request is not postponed.
    mutating func resolveSoon(at now: Double, unlessPending: Bool = false) {
        if unlessPending, resolveDue != nil { return }
        resolveDue = now + debounce
    }

    /// Resolve at once (at start-up: copies that arrived while no watcher ran).
    mutating func resolveNow(at now: Double) {
        resolveDue = now
    }

    /// True (once) when the resolve is due at `now`.
    mutating func takeResolve(at now: Double) -> Bool {
        guard let when = resolveDue, when <= now else { return false }
        resolveDue = nil
        return true
    }

    /// True (once per period) when a heartbeat is due at `now`.
    mutating func takeHeartbeat(at now: Double) -> Bool {
        guard let heartbeat, now - lastBeat >= heartbeat else { return false }
        lastBeat = now
        return true
    }

    /// The next time anything is due, no later than `now + maxSleep` or `also`.
    func deadline(at now: Double, maxSleep: Double, also: Double? = nil) -> Double {
        var deadline = min(due.values.min() ?? .infinity, now + maxSleep)
        if let resolveDue { deadline = min(deadline, resolveDue) }
        if let also { deadline = min(deadline, also) }
        if let heartbeat { deadline = min(deadline, lastBeat + heartbeat) }
        return deadline
    }
}
