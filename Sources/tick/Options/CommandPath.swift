import ArgumentParser

/// The subcommand path of this process (`done`, `lists rm`), for the undo journal.
enum CommandPath {
    /// Commands whose writes are not journaled: they rewrite files wholesale
    /// from outside data (merges, git), so undo could only half revert them.
    static let notJournaled: Set<String> = ["resolve", "merge-driver", "sync", "git", "init", "watch"]

    /// The canonical names of the subcommands named in `arguments` (argv with
    /// the executable first); aliases resolved, no other arguments.
    static func of(_ arguments: [String]) -> String {
        let args = Tick.hoistingGlobalOptions(Array(arguments.dropFirst()))
        var type: ParsableCommand.Type = Tick.self
        var words: [String] = []
        for arg in args {
            let subcommands = type.configuration.subcommands
            guard !arg.hasPrefix("-"),
                  let match = subcommands.first(where: { $0._commandName == arg || $0.configuration.aliases.contains(arg) })
            else { break }
            words.append(match._commandName)
            type = match
        }
        return words.joined(separator: " ")
    }

    /// True when the command's writes go into the undo journal.
    static func journaled(_ command: String) -> Bool {
        guard let top = top(command) else { return false }
        return !notJournaled.contains(top)
    }

    /// The top-level command of a path (`lists` of `lists rm`); nil for none.
    static func top(_ command: String) -> String? {
        command.split(separator: " ").first.map(String.init)
    }
}
