import ArgumentParser
import Dispatch
import Foundation
import TickKit

extension Tick {
    struct Watch: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Watch the store and keep the index current (a foreground daemon).",
            discussion: """
            Watches the store with inotify and reindexes a file within milliseconds of
            any change to it, whoever made it: tick, an editor, sed -i, git or
            Syncthing. Temporary and swap files are ignored. A file that fails to parse
            is reported once per change, with file:line:column; its last good tasks
            stay listed, and tick never rewrites it.

            Logs one line per reindex to stderr (file, task count, milliseconds; never
            a title). Only one watcher runs per store. SIGINT and SIGTERM stop it
            cleanly. See Docs/tick-watch.service for a systemd user unit.

            Commands stay correct without a watcher: each one checks the files first.

            EXAMPLE
              tick watch &
            """)

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let context = try Context(global)
            let lock = try WatchLock(location: context.store.location)
            defer { lock.release() }
            let t = context.terminal
            let formatter = ISO8601DateFormatter()
            let watcher = StoreWatcher(store: context.store, index: context.index) { event in
                t.err("\(formatter.string(from: Date())) \(Self.describe(event))")
            }
            let stop = watcher.stopper
            var sources: [DispatchSourceSignal] = []
            for (sig, name) in [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")] {
                signal(sig, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
                source.setEventHandler { stop(name) }
                source.resume()
                sources.append(source)
            }
            t.err("\(formatter.string(from: Date())) watching \(context.store.location.root) (pid \(getpid()))")
            try watcher.run()
            sources.forEach { $0.cancel() }
        }

        static func describe(_ event: WatchEvent) -> String {
            switch event {
            case let .watching(root, watches): return "watch established on \(root) (\(watches) directories)"
            case let .reindexed(path, tasks, ms): return "reindexed \(path): \(tasks) tasks in \(String(format: "%.1f", ms)) ms"
            case .removed(let path): return "removed \(path)"
            case .parseError(let error): return "error: \(error.summary) (keeping its last good tasks, marked stale)"
            case let .rescanned(reason, files, ms): return "rescanned \(files) files in \(String(format: "%.1f", ms)) ms (\(reason))"
            case .storeGone(let root): return "store \(root) is gone; waiting for it to come back"
            case .failure(let message): return "error: \(message)"
            case .stopping(let signal): return "stopping (\(signal))"
            }
        }
    }
}
