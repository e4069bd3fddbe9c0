import ArgumentParser
import Foundation
import TickKit

@main
struct Tick: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tick",
        abstract: "A task manager for plain JSON files you can edit, sync and grep.",
        discussion: """
        Tasks live in a store: a directory holding inbox.json and lists/<slug>.json. \
        Those files are the only source of truth; edit them in any editor, sync them \
        with git or Syncthing. See Docs/FORMAT.md.

        QUICK START
          tick add Buy milk due:tomorrow +errand
          tick today
          tick done 1

        TASK IDS
          Listings show a short number next to each pending task. It is local to this \
          machine and stays the same until the task is done or deleted. Anywhere an ID \
          is expected you may also give 4 or more hex digits of the task's UUID.

        DATES (WHEN)
          today, tomorrow, yesterday, mon..sun (the next one), next-week, in 3d, 2w, 1m, \
          eom, eow, 2026-11-24, 2026-11-24T17:00, 17:00, 5pm, and a day with a time: \
          tomorrow@17:00, fri@9am. Local time zone ($TZ), DST-correct.

        ENVIRONMENT
          TICK_STORE   store directory (overridden by --store)
          NO_COLOR     disables color when set to anything
          EDITOR       used by `tick edit ID` with no flags
          TZ           time zone for dates
          TICK_NOW     pin "now" (ISO 8601), for scripts and tests

        EXIT STATUS
          0  success
          1  failure (I/O, permissions, lock timeout, refused without confirmation)
          2  usage error (bad option, bad date, bad token)
          3  task or list not found, or an ambiguous id
          4  a store file cannot be parsed or breaks the schema
        """,
        version: "0.1.0",
        subcommands: [
            Add.self, List.self, Inbox.self, Today.self, Upcoming.self, Overdue.self,
            Show.self, Edit.self, Start.self, Done.self, Reopen.self, Remove.self,
            Move.self, Reorder.self, Lists.self, Export.self, Import.self,
        ]
    )

    static func main() {
        do {
            var command = try parseAsRoot(hoistingGlobalOptions(Array(CommandLine.arguments.dropFirst())))
            try command.run()
        } catch {
            exit(with: error)
        }
    }

    /// Global options may come before the subcommand (`tick --store DIR today`).
    /// ArgumentParser only knows them on each subcommand, so they are moved
    /// behind it (before a `--`, if any).
    static func hoistingGlobalOptions(_ args: [String]) -> [String] {
        var hoisted: [String] = []
        var i = 0
        while i < args.count, args[i].hasPrefix("-") {
            let a = args[i]
            if a == "--store", i + 1 < args.count {
                hoisted += [a, args[i + 1]]
                i += 2
            } else if a.hasPrefix("--store=") || a == "--no-color" {
                hoisted.append(a)
                i += 1
            } else {
                break
            }
        }
        guard !hoisted.isEmpty, i < args.count else { return args }
        var rest = Array(args[i...])
        let end = rest.firstIndex(of: "--") ?? rest.count
        rest.insert(contentsOf: hoisted, at: end)
        return rest
    }

    /// Prints an error the way terminal users expect and exits with tick's code.
    static func exit(with error: Error) -> Never {
        if error is InputError || error is LookupError || error is StoreError || error is FormatError || error is CLIError || error is DateError {
            let message = (error as? LocalizedError)?.errorDescription ?? "\(error)"
            FileHandle.standardError.write(Data("tick: error: \(message)\n".utf8))
            Foundation.exit(ExitStatus.of(error).rawValue)
        }
        let code = exitCode(for: error)
        let message = fullMessage(for: error)
        if code == .success {
            if !message.isEmpty { print(message) }
            Foundation.exit(0)
        }
        if !message.isEmpty {
            FileHandle.standardError.write(Data((message + "\n").utf8))
        }
        Foundation.exit(code == .validationFailure ? ExitStatus.usage.rawValue : code.rawValue)
    }
}
