import ArgumentParser
import FoundationEssentials
import Glibc
import TickKit

extension Tick {
    struct Export: TickCommand {
        static let facts = CommandFacts.reads
        static let configuration = CommandConfiguration.sub(CommandConfiguration(
            commandName: "export",
            abstract: "Export tasks: tick JSON, Markdown, Taskwarrior, todo.txt, iCalendar or CSV.",
            discussion: """
            json is tick's own export: every file with every field, including unknown
            keys; `tick import` of it gives back the same tasks. markdown is GitHub
            task-list checkboxes, one section per list, with dates. taskwarrior
            (`task import`), todotxt, ics (VTODO) and csv hold what those formats
            can; Docs/INTERCHANGE.md says what maps, what is approximated and what
            is dropped.

            EXAMPLES
              tick export -o backup.json
              tick export --format markdown --list Work
              tick export -o tasks.ics
              tick export --format taskwarrior | task import -
            """))

        @OptionGroup var global: GlobalOptions

        @Option(name: .long, help: ArgumentHelp(
            "json, markdown, taskwarrior, todotxt, ics or csv.",
            discussion: "Default: from the -o file's extension (.json, .md, .txt, .ics, .csv), else json. See Docs/INTERCHANGE.md.",
            valueName: "format"))
        var format: InterchangeFormat?

        @Option(name: .long, help: ArgumentHelp("Export only this list (or `inbox`).", valueName: "name"),
                completion: ShellCompletion.listsOrInbox)
        var list: String?

        @Option(name: [.short, .customLong("output")], help: ArgumentHelp("Write to FILE (atomically) instead of stdout.", valueName: "file"), completion: .file())
        var output: String?

        func run() throws {
            let context = try Context(global)
            let snapshot = try context.snapshot()
            if let broken = snapshot.problems.first, list == nil {
                throw StoreError.invalidFile(broken)
            }
            // An inbox that does not exist on disk is not exported.
            let inboxExists = try context.store.kinds().contains(.inbox)
            var files = snapshot.files.filter { $0.kind != .inbox || inboxExists }
            if let list {
                // Export reads the files themselves; the index is not needed.
                let kind = try ListResolver(snapshot: snapshot, existingSlugs: Set(try context.store.kinds().compactMap(\.slug))).resolve(list)
                if let problem = snapshot.broken[kind] {
                    throw StoreError.invalidFile(problem)
                }
                files = files.filter { $0.kind == kind }
            }
            let chosen = format ?? output.flatMap(InterchangeFormat.infer(fromPath:)) ?? .json
            let bytes = chosen.encode(files, context: InterchangeContext(path: output ?? "-", now: context.now, timeZone: context.timeZone, fields: try context.userFields()))
            if let output {
                let path = output.hasPrefix("/") ? output : FileManager.default.currentDirectoryPath + "/" + output
                let parent = PathString.deletingLastComponent(path)
                guard PathStat.isDirectory(parent) == true else {
                    throw CLIError("cannot write \(output): the directory \(parent) does not exist")
                }
                if PathStat.isDirectory(path) == true {
                    throw CLIError("cannot write \(output): it is a directory; give a file name")
                }
                try AtomicFile.write(bytes, to: path, mode: nil)
                let count = files.reduce(0) { $0 + $1.tasks.count }
                context.terminal.err("Exported \(count) task(s) to \(output)")
            } else {
                StandardStream.writeOut(bytes)
            }
        }
    }
}
