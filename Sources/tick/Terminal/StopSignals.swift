import Dispatch
import FoundationEssentials
import Glibc

/// Turns SIGINT and SIGTERM into a clean stop of a long-running command
/// (`tick watch`, `tick status-line --follow`). Keep the value alive while
/// the command runs; ``cancel()`` when it returns.
struct StopSignals {
    private var sources: [DispatchSourceSignal] = []

    init(_ stop: @escaping @Sendable (String) -> Void) {
        for (sig, name) in [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { stop(name) }
            source.resume()
            sources.append(source)
        }
    }

    func cancel() {
        sources.forEach { $0.cancel() }
    }
}
