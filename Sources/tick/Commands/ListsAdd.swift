import ArgumentParser
import TickKit

extension Tick {
    struct ListsAdd: TickCommand {
        static let facts = CommandFacts.writesStore
        static let configuration = CommandConfiguration.sub(CommandConfiguration(
            commandName: "add",
            abstract: "Create a list (lists/<slug>.json).",
            discussion: "EXAMPLE\n  tick lists add Reading --color 10b981"))

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The list's name; any Unicode text except `inbox`.")
        var name: String

        @Option(name: .long, help: ArgumentHelp("Color as 6 hex digits, e.g. #3b82f6 (default: picked from the name).", valueName: "hex"))
        var color: String?

        func run() throws {
            let context = try Context(global)
            var normalizedColor: String?
            if let color {
                guard let c = ColorCode.normalize(color) else {
                    throw InputError.invalid("--color: \"\(color)\" is not 6 hex digits like #3b82f6")
                }
                normalizedColor = c
            }
            let (trimmed, slug) = try ListEditing(context: context).add(named: name, color: normalizedColor)
            _ = try context.resyncIDs()
            context.terminal.out("Created list \(trimmed) (lists/\(slug).json)")
        }
    }
}
