import ArgumentParser

/// The subcommand path of this process (`done`, `lists rm`), for the undo journal.
enum CommandPath {
    /// The canonical names of the subcommands named in `arguments` (argv with
    /// the executable first); aliases resolved, no other arguments. Read in
    /// Taskwarrior's order too (`tick 3 done`, `tick +work modify …` are
    /// `done` and `edit`), so such a command's writes are journaled for undo.
    static func of(_ arguments: [String]) -> String {
        let args = TaskwarriorVerbs.movingCommandFirst(Invocation.hoistingGlobalOptions(Array(arguments.dropFirst())))
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

    /// True when the command's writes go into the undo journal (its
    /// ``CommandFacts/journaled``).
    static func journaled(_ command: String) -> Bool {
        CommandFacts.of(path: command)?.journaled ?? false
    }
}
