import ArgumentParser
import FoundationEssentials
import Glibc
import TickKit

extension Tick {
    struct GitSetup: TickCommand {
        static let facts = CommandFacts.outsideTheJournal
        static let configuration = CommandConfiguration.sub(CommandConfiguration(
            commandName: "setup",
            abstract: "Make git merge the store's task files with tick.",
            discussion: """
            The store must be a git repository or a directory inside one (use \
            `tick init --git PATH` to create one). This:

              - adds `*.json merge=tick` to the store's .gitattributes and commits
                it (only that file), so every clone shares it;
              - sets merge.tick.driver (this tick binary, by absolute path) and
                merge.tick.name in the repository's local config (.git/config),
                which git never copies: run `tick git setup` in every clone;
              - installs the git hooks post-merge and post-rewrite (in the
                repository's hooks directory, core.hooksPath respected): after a
                plain `git pull`, merge or rebase, they run
                `tick --store STORE resolve --quiet`. A hook that tick did not
                write is left alone; the line to add to it is printed instead.

            Running it again changes nothing and says so.
            """))

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let process = try ProcessEnvironment.current()
            let location = process.storeLocation(explicit: global.store)
            let terminal = Terminal(noColorFlag: global.noColor, environment: process.variables)
            try GitSetupRunner(root: location.root, terminal: terminal, environment: process.variables).run()
        }
    }
}

/// `tick git setup` for one store directory; also the last step of `tick init --git`.
struct GitSetupRunner {
    let root: String
    let terminal: Terminal
    /// The command's environment (git gets its tools' variables).
    let environment: [String: String]

    func run() throws {
        let t = terminal
        guard let isDir = PathStat.isDirectory(root) else {
            throw CLIError("the store \(root) does not exist; create it as a git repository with `tick init --git \(root)`")
        }
        guard isDir else { throw StoreError.notADirectory(path: root) }
        guard let repo = try GitRepository.discover(at: root, environment: environment) else {
            throw CLIError("the store \(root) is not in a git repository; run `tick init --git \(root)` (it runs git init) or `git init` there first")
        }
        var changes: [String] = []

        // 1. .gitattributes in the store directory (git applies it to files below it).
        let attributesPath = PathString.appending(root, ".gitattributes")
        let existing = try AtomicFile.read(path: attributesPath)
        let oldText = existing.map { String(decoding: $0.bytes, as: UTF8.self) }
        if let newText = GitMergeSetup.attributes(adding: oldText) {
            try AtomicFile.write(Array(newText.utf8), to: attributesPath, mode: existing?.stamp.mode)
            changes.append("Added \"\(GitMergeSetup.attributesLine)\" to \(attributesPath)")
        }

        // 2. The driver, in the local config (never shared by git).
        let executable = ProcessRunner.currentExecutablePath()
        let command = GitMergeSetup.driverCommand(executable: executable)
        for (key, value) in [("merge.tick.name", GitMergeSetup.driverName), ("merge.tick.driver", command)] {
            if try repo.localConfig(key) != value {
                try repo.setLocalConfig(key, value)
                changes.append("Set \(key) = \(value) in the repository's local config")
            }
        }

        // 3. Hooks that run `tick resolve` after a plain `git pull` (core.hooksPath respected).
        let hooks = try repo.gitPath("hooks")
        for name in GitHooks.names {
            let path = PathString.appending(hooks, name)
            switch try GitHooks.install(name, in: hooks, executable: executable, store: root) {
            case .unchanged: break
            case .installed: changes.append("Installed the git hook \(name) (runs `tick resolve` after git pull): \(path)")
            case .updated: changes.append("Updated the git hook \(name): \(path)")
            case .foreign:
                t.warn("\(path) is not tick's hook, so it was left alone. To run `tick resolve` after git pull, add this line to it:\n  \(GitHooks.command(executable: executable, store: root))")
            }
        }

        // 4. Commit .gitattributes when it differs from HEAD (only that file).
        let status = try repo.check(["status", "--porcelain", "--untracked-files=all", "--", ".gitattributes"])
        if !status.output.isEmpty {
            try repo.check(["add", "--", ".gitattributes"])
            let commit = try repo.git(["commit", "-q", "-m", GitMergeSetup.commitMessage, "--", ".gitattributes"])
            changes.forEach { t.out($0) }
            guard commit.succeeded else {
                throw CLIError("could not commit \(repo.prefix).gitattributes (it is staged; commit it yourself so every clone uses the driver):\n\(commit.message)")
            }
            t.out("Committed \(repo.prefix).gitattributes: \(GitMergeSetup.commitMessage)")
        } else {
            changes.forEach { t.out($0) }
        }

        // 5. Check that git really routes store files to the driver.
        let probe = try repo.check(["check-attr", "merge", "--", "inbox.json", "lists/x.json"])
        let values = probe.output.split(separator: "\n").map { $0.components(separatedBy: ": ").last ?? "" }
        if values.contains(where: { $0 != "tick" }) {
            t.warn("git does not use the tick driver for the store's files (another attributes file overrides it?):\n\(probe.output)")
        }
        if changes.isEmpty && status.output.isEmpty {
            t.out("Already set up: git merges the task files in \(root) with tick (nothing changed)")
        } else {
            t.out("git now merges the task files in \(root) with tick. Run `tick git setup` in every clone too (the driver lives in each clone's local config).")
        }
    }
}
