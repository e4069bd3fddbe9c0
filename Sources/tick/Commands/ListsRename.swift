import ArgumentParser
import TickKit

extension Tick {
    struct ListsRename: TickCommand {
        static let facts = CommandFacts.writesStore
        static let configuration = CommandConfiguration.sub(CommandConfiguration(
            commandName: "rename",
            abstract: "Rename a list (its file keeps its name).",
            discussion: "EXAMPLE\n  tick lists rename Work Office"))

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The current name.", completion: ShellCompletion.lists)
        var old: String

        @Argument(help: "The new name.")
        var new: String

        func run() throws {
            let context = try Context(global)
            let (oldName, newName) = try ListEditing(context: context).rename(old, to: new)
            context.terminal.out(oldName == newName ? "\(oldName) is already named \(newName)" : "Renamed list \(oldName) to \(newName)")
        }
    }
}
