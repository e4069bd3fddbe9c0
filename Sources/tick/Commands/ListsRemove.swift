import ArgumentParser
import Foundation
import TickKit

extension Tick {
    struct ListsRemove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rm",
            abstract: "Delete a list and all its tasks.",
            discussion: """
            Asks for confirmation, saying how many tasks go with it. --yes skips the \
            question. Without a terminal to ask on, and without --yes, tick refuses \
            (exit status 1).

            EXAMPLE
              tick lists rm Errands --yes
            """)

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The list's name.", completion: ShellCompletion.lists)
        var name: String

        @Flag(name: [.short, .long], help: "Do not ask for confirmation.")
        var yes = false

        func run() throws {
            let context = try Context(global)
            let t = context.terminal
            let loaded = try context.load()
            let kind = try loaded.lists.resolve(name)
            guard kind != .inbox else { throw LookupError.invalidListName(name, reason: "the inbox cannot be deleted") }
            if let problem = loaded.broken[kind] {
                throw StoreError.invalidFile(problem)
            }
            guard let file = try context.store.read(kind)?.file else {
                throw LookupError.listNotFound(name, known: loaded.listInfos.filter { $0.kind != .inbox }.map(\.name))
            }
            let count = file.tasks.count
            let pending = file.tasks.filter { $0.state.isPending }.count
            if !yes {
                guard t.stdinIsTTY else {
                    throw CLIError("refusing to delete list \(file.displayName) and its \(count) task(s) without confirmation; pass --yes")
                }
                FileHandle.standardError.write(Data(Terminal.shown("Delete list \(file.displayName) and its \(count) task(s) (\(pending) not done)? [y/N] ").utf8))
                let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
                guard answer == "y" || answer == "yes" else {
                    throw CLIError("cancelled; nothing was deleted")
                }
            }
            try context.store.withLock { writer in
                // Re-read under the lock: refuse if tasks were added meanwhile.
                guard let current = try context.store.read(kind)?.file else { return }
                guard current.tasks.count == count else {
                    throw CLIError("list \(file.displayName) changed while asking (now \(current.tasks.count) tasks); nothing was deleted, run the command again")
                }
                try writer.remove(kind)
            }
            _ = try context.resyncIDs()
            t.out("Deleted list \(file.displayName) (\(kind.relativePath)) and its \(count) task\(count == 1 ? "" : "s")")
        }
    }
}
