import ArgumentParser
import FoundationEssentials
import Glibc
import TickKit

extension Tick {
    struct ListsRemove: TickCommand {
        static let facts = CommandFacts.writesStore
        static let configuration = CommandConfiguration.sub(CommandConfiguration(
            commandName: "rm",
            abstract: "Delete a list and all its tasks.",
            discussion: """
            Asks for confirmation, saying how many tasks go with it. --yes skips the \
            question. Without a terminal to ask on, and without --yes, tick refuses \
            (exit status 1).

            With the CalDAV bridge, the next `tick dav sync` deletes the list's \
            tasks on the server and stops syncing its calendar (detached: the \
            empty calendar stays until you delete it on the phone or server).

            EXAMPLE
              tick lists rm Errands --yes
            """))

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The list's name.", completion: ShellCompletion.lists)
        var name: String

        @Flag(name: [.short, .long], help: "Do not ask for confirmation.")
        var yes = false

        func run() throws {
            let context = try Context(global)
            let t = context.terminal
            let editing = ListEditing(context: context)
            let list = try editing.removal(of: name)
            let (count, pending) = (list.count, list.pending)
            if !yes {
                guard t.stdinIsTTY else {
                    throw CLIError("refusing to delete list \(list.displayName) and its \(count) task(s) without confirmation; pass --yes")
                }
                guard askYesNo("Delete list \(list.displayName) and its \(count) task(s) (\(pending) not done)?") else {
                    throw CLIError("cancelled; nothing was deleted")
                }
            }
            try editing.remove(list)
            _ = try context.resyncIDs()
            // The CalDAV bridge: the next `tick dav sync` empties the list's calendar and detaches it.
            if let dav = try? context.config().dav {
                try? DavState.noteRemoved(collection: DavBridge.collection(of: list.kind), root: dav.resolvedPath(environment: context.environment),
                                              at: context.now, tasks: list.taskIDs, deleted: list.deleted)
            }
            t.out("Deleted list \(list.displayName) (\(list.kind.relativePath)) and its \(count) task\(count == 1 ? "" : "s")")
        }
    }
}
