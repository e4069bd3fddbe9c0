import ArgumentParser
import TickKit

/// The did-you-mean of an unknown command name: the closest command name or
/// alias (``Spelling``).
enum CommandSuggestion {
    /// The subcommand names and aliases of a command.
    static func names(of command: ParsableCommand.Type) -> [String] {
        command.configuration.subcommands.flatMap { [$0._commandName] + $0.configuration.aliases }
    }

    static func closest(to word: String, among names: [String]) -> String? {
        Spelling.closest(to: word, among: names)
    }
}
