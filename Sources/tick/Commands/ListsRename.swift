import ArgumentParser
import TickKit

extension Tick {
    struct ListsRename: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rename",
            abstract: "Rename a list (its file keeps its name).",
            discussion: "EXAMPLE\n  tick lists rename Work Office")

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The current name.", completion: ShellCompletion.lists)
        var old: String

        @Argument(help: "The new name.")
        var new: String

        func run() throws {
            let context = try Context(global)
            let newName = new.trimmingCharacters(in: .whitespacesAndNewlines)
            var oldName = old
            let now = context.now
            try context.store.withLock { writer in
                let loaded = try context.load()
                // A list file that cannot be read may carry the new name.
                if let problem = loaded.broken.values.first { throw StoreError.invalidFile(problem) }
                let kind = try loaded.lists.resolve(old)
                oldName = loaded.name(of: kind)
                guard kind != .inbox else { throw LookupError.invalidListName(old, reason: "the inbox has no name to change") }
                if newName.lowercased() != loaded.name(of: kind).lowercased() {
                    _ = try loaded.lists.slugForNewList(named: newName)
                } else if newName.isEmpty {
                    throw LookupError.invalidListName(new, reason: "the name is empty")
                }
                try writer.update(kind) { file in
                    guard file.name != newName else { return }
                    file.name = newName
                    file.modifiedAt = now
                }
            }
            context.terminal.out(oldName == newName ? "\(oldName) is already named \(newName)" : "Renamed list \(oldName) to \(newName)")
        }
    }
}
