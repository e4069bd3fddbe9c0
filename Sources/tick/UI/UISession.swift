import FoundationEssentials
import Glibc
import TickKit

/// The `tick ui` loop: waits on the keyboard and on the store follower
/// together (`poll(2)`), feeds events to the ``UIState`` machine, performs its
/// effects through ``UIWriter`` (TickKit's operations, their results on the
/// status line) and ``UILoader``, and repaints.
final class UISession {
    private let context: Context
    private let screen: Screen
    private let follower: StoreFollower
    private let writer: UIWriter
    private let loader: UILoader
    private let painter: ScreenPainter
    private var state: UIState
    private var layout = ScreenPainter.Layout()
    /// The problem the last load noted (an unreadable file, a warning): a
    /// load that finds the same one again does not note it again, so it
    /// never replaces what came after it (a refused write's error).
    private var loadProblem: String?

    init(context: Context, global: GlobalOptions, filter: String) throws {
        self.context = context
        let noColor = global.noColor || !(context.environment["NO_COLOR"] ?? "").isEmpty
        screen = try Screen(ttyFD: STDOUT_FILENO, noColor: noColor, term: context.environment["TERM"])
        follower = StoreFollower()
        writer = UIWriter(base: context)
        loader = UILoader(base: context)
        let plain = Terminal(noColorFlag: true, environment: context.environment)
        painter = ScreenPainter(renderer: TaskRenderer(terminal: plain, dates: context.dates, query: context.query), dates: context.dates)
        state = UIState(timeZone: context.timeZone, view: .today, filter: filter, fields: try context.userFields())
    }

    /// Runs until `q`; the terminal is given back however it ends.
    func run() {
        defer { screen.end() }
        // A parent may have left termination signals blocked (they are inherited):
        // a full-screen program must still end when told to or when its terminal hangs up.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for sig in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&unblock, sig) }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        // SIGTERM and SIGINT end the loop like q, so the terminal is given back.
        let follower = self.follower
        let signals = StopSignals { _ in follower.requestStop() }
        defer { signals.cancel() }
        resize()
        load()
        paint()
        // Started after the first screen (it would compete for the CPU); its
        // first rescan catches anything that changed in between.
        follower.start(store: context.store)
        var fds = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: follower.wakeFD, events: Int16(POLLIN), revents: 0)]
        while true {
            paint()
            fds[0].revents = 0
            fds[1].revents = 0
            let n = poll(&fds, 2, 60_000)
            if n < 0 && errno != EINTR { return }
            // The terminal went away (its window closed, tmux killed): nothing to draw on.
            if fds[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 { return }
            if fds[1].revents & Int16(POLLIN) != 0, follower.drain() {
                if follower.stopRequested { return }
                load()
            }
            // A resize interrupts poll; get_wch then reports it.
            for input in screen.pending() {
                if !handle(input) { return }
            }
            if n == 0 { load() }
        }
    }

    /// One input; false to quit.
    private func handle(_ input: Screen.Input) -> Bool {
        switch input {
        case .key(let key): return send(.key(key))
        case .resize:
            resize()
            return true
        case .wheel(let n): return send(.scrolled(n))
        case let .click(y, x):
            if y == 0, let tab = layout.tabs.first(where: { $0.range.contains(x) }) { return send(.clickedTab(tab.index)) }
            if y == layout.inputRow { return send(.clickedInput) }
            if y >= layout.firstRow, y < layout.firstRow + layout.rowCount, !state.showHelp { return send(.clickedRow(y - layout.firstRow)) }
            return true
        case let .release(y, x):
            if y == 0, let tab = layout.tabs.first(where: { $0.range.contains(x) }) { return send(.released(.tab(tab.index))) }
            if y >= layout.firstRow, y < layout.firstRow + layout.rowCount, !state.showHelp { return send(.released(.row(y - layout.firstRow))) }
            return send(.released(.nowhere))
        }
    }

    /// Feeds an event and performs what it asks; false to quit.
    private func send(_ event: UIEvent) -> Bool {
        let wasDetails = state.showDetails
        let effects = state.handle(event)
        if state.showDetails != wasDetails { resize() }
        for effect in effects {
            switch effect {
            case .quit:
                return false
            case .load:
                load()
            default:
                let result = writer.perform(effect, suspend: { screen.suspend() }, resume: { screen.resume() })
                load()
                if let result { _ = state.handle(.wrote(result)) }
            }
        }
        return true
    }

    private func resize() {
        _ = state.handle(.resized(rows: ScreenPainter.taskRows(screenRows: screen.rows, details: state.showDetails)))
    }

    /// Loads the current view; a refused load (an unreadable file) shows the CLI's error text.
    private func load() {
        do {
            let (refresh, problems) = try loader.load(state)
            _ = state.handle(.refreshed(refresh))
            note(problems.first.map { Diagnostics.line(TickWarning($0)) })
        } catch {
            note(UIWriter.errorLine(error))
        }
    }

    /// Shows a load's problem on the status line when it is new.
    private func note(_ problem: String?) {
        defer { loadProblem = problem }
        if let problem, problem != loadProblem { _ = state.handle(.noted(problem)) }
    }

    private func paint() {
        let live = follower.failure ?? "live"
        layout = painter.paint(state, on: screen, live: live)
    }
}
