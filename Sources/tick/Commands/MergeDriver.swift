import ArgumentParser
import FoundationEssentials
import Glibc
import TickKit

extension Tick {
    struct MergeDriver: TickCommand {
        static let facts = CommandFacts(writes: true, journaled: false, runsHooks: false)
        static let configuration = CommandConfiguration.sub(CommandConfiguration(
            commandName: "merge-driver",
            abstract: "Merge three versions of a task file (called by git, not by you).",
            discussion: """
            git runs this during merge, rebase, cherry-pick and pull for every store \
            file that changed on both sides, once `tick git setup` has added \
            `*.json merge=tick` to the store's .gitattributes and set \
            merge.tick.driver to `tick merge-driver %O %A %B %P`.

            BASE is the common ancestor (empty or missing when both sides added the \
            file), OURS and THEIRS the two versions, PATH the file's path in the \
            repository (it tells an inbox from a list). The result of merging task \
            by task and field by field is written to OURS in canonical form, and the \
            exit status is 0. The work tree is never touched; git takes the result \
            from OURS.

            blocks.json (fixed commitments) is merged the same way, block by block.

            When a version is not a valid tick file, tick falls back to git's text \
            merge (`git merge-file`), which writes conflict markers into OURS, and \
            exits non-zero so that git reports a conflict; run `tick resolve` once \
            the file is fixed or to merge the marked versions. Nothing is printed on \
            stdout; a one-line summary (counts only) goes to stderr.
            """))

        @OptionGroup var global: GlobalOptions

        @Argument(help: ArgumentHelp("The common ancestor's version (git's %O).", valueName: "base"))
        var base: String

        @Argument(help: ArgumentHelp("Our version, replaced by the result (git's %A).", valueName: "ours"))
        var ours: String

        @Argument(help: ArgumentHelp("Their version (git's %B).", valueName: "theirs"))
        var theirs: String

        @Argument(help: ArgumentHelp("The file's path in the repository (git's %P).", valueName: "path"))
        var path: String

        func run() throws {
            let process = try ProcessEnvironment.current()
            let status = try MergeDriverRun(base: base, ours: ours, theirs: theirs, path: path, currentDirectory: process.currentDirectory,
                                            temporaryDirectory: process.temporaryDirectory, environment: process.variables,
                                            fallbackDate: Self.fallbackDate(process), processID: getpid()).run(note: Self.note)
            if status != 0 { throw ExitCode(status) }
        }

        /// For fields missing in hand-made versions: the same instant for all three.
        static func fallbackDate(_ process: ProcessEnvironment) -> Date {
            process.isPinned ? process.now : Date(timeIntervalSince1970: process.now.timeIntervalSince1970.rounded(.down))
        }

        static func note(_ line: String) {
            StandardStream.writeErr((Terminal.shown(line, keepingNewlines: true) + "\n").utf8)
        }
    }
}
