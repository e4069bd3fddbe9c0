import ArgumentParser
import FoundationEssentials
import Glibc
import TickKit

extension Tick {
    struct Init: TickCommand {
        static let facts = CommandFacts(writes: true, journaled: false, runsHooks: false)
        static let configuration = CommandConfiguration.sub(CommandConfiguration(
            commandName: "init",
            abstract: "Create a store directory, optionally as a git repository.",
            discussion: """
            tick creates the default store ($XDG_DATA_HOME/tick) on the first \
            write; a store named by --store or $TICK_STORE must exist, so it is \
            created here. With --git the store is put under git: the directory is \
            created if needed, `git init` runs unless it already is in a git \
            repository, then `tick git setup` (the tick merge driver).

            PATH defaults to the store (--store, $TICK_STORE, else \
            $XDG_DATA_HOME/tick). Point tick at it with --store PATH or TICK_STORE.

            EXAMPLES
              tick init --git ~/tasks && export TICK_STORE=~/tasks
            """))

        @OptionGroup var global: GlobalOptions

        @Flag(name: .long, help: "Make the store a git repository (if it is in none) and set up the tick merge driver.")
        var git = false

        @Argument(help: ArgumentHelp("The store directory.", valueName: "path"), completion: .directory)
        var path: String?

        func run() throws {
            let process = try ProcessEnvironment.current()
            let env = process.variables
            let location = process.storeLocation(explicit: path ?? global.store)
            let root = location.root
            let t = Terminal(noColorFlag: global.noColor, environment: env)
            if let isDir = PathStat.isDirectory(root) {
                guard isDir else {
                    throw CLIError("\(root) is a file, not a directory; a store is a directory: give `tick init` a new or empty directory's path (e.g. tick init ~/tasks)", status: .usage)
                }
                if !git { t.out("The store \(root) already exists") }
            } else {
                try AtomicFile.createDirectory(root)
                t.out("Created the store \(root)")
            }
            if git {
                if let repo = try GitRepository.discover(at: root, environment: process.variables) {
                    t.out("The store is in the git repository \(repo.topLevel)")
                } else {
                    let r = try GitRepository.run(["init", "-q"], in: root, environment: process.variables)
                    guard r.succeeded else { throw CLIError("git init failed in \(root):\n\(r.message)") }
                    t.out("Initialized a git repository in \(root)")
                }
                try GitSetupRunner(root: root, terminal: t, environment: process.variables).run()
            }
            let configured = process.storeLocation(explicit: global.store).root
            if configured != root {
                t.out("To use it: export TICK_STORE=\(Git.shellQuoteIfNeeded(root))  (or pass --store \(Git.shellQuoteIfNeeded(root)))")
            }
        }
    }
}

extension Tick.Git {
    /// A path as the user would type it in a shell.
    static func shellQuoteIfNeeded(_ s: String) -> String {
        s.unicodeScalars.allSatisfy({ TextClass.isAlphanumeric($0) || "/._-+,=:@%~".unicodeScalars.contains($0) }) ? s : ProcessRunner.shellQuote(s)
    }
}
