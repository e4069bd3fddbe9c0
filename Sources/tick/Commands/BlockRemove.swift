import ArgumentParser
import Foundation
import TickKit

extension Tick {
    struct BlockRemove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rm",
            abstract: "Remove fixed commitments.",
            discussion: """
            ID is the block's number in `tick blocks` (its position in blocks.json) \
            or 4+ hex digits of its id. Several may be given; all are resolved \
            before anything is removed, so numbers do not shift under you.

            EXAMPLES
              tick block rm 2
              tick block rm 1 3
              tick block rm 6f1c
            """)

        @OptionGroup var global: GlobalOptions

        @Argument(help: ArgumentHelp("Block numbers or id prefixes.", valueName: "id"))
        var ids: [String] = []

        func validate() throws {
            guard !ids.isEmpty else { throw ValidationError("give the block to remove: its number in `tick blocks` or an id prefix") }
        }

        func run() throws {
            let context = try Context(global)
            let removed = try context.store.withLock { writer in
                try writer.updateCommitments { file -> [Commitment] in
                    var targets: [UUID] = []
                    for ref in ids {
                        let id = try Self.resolve(ref, in: file)
                        if !targets.contains(id) { targets.append(id) }
                    }
                    let gone = file.blocks.filter { targets.contains($0.id) }
                    file.blocks.removeAll { targets.contains($0.id) }
                    return gone
                }
            }
            let t = context.terminal
            for block in removed {
                t.out("Removed block \(t.bold(String(block.id.lowercased.prefix(8)))): \(block.title)  \(block.start)-\(block.end)  \(block.daysText)")
            }
        }

        /// A block by number (1-based position) or by id prefix (4+ hex digits).
        static func resolve(_ ref: String, in file: CommitmentFile) throws -> UUID {
            let text = ref.trimmingCharacters(in: .whitespaces).lowercased()
            if let n = Int(text), text.count < 4 || n <= file.blocks.count {
                guard n >= 1, n <= file.blocks.count else {
                    throw CLIError("no block number \(n); there \(file.blocks.count == 1 ? "is 1 block" : "are \(file.blocks.count) blocks") (see `tick blocks`)", status: .notFound)
                }
                return file.blocks[n - 1].id
            }
            let hex = text.filter { $0 != "-" }
            guard hex.count >= 4, hex.allSatisfy(\.isHexDigit) else {
                throw CLIError("\"\(ref)\" is not a block number or 4+ hex digits of a block id (see `tick blocks`)", status: .usage)
            }
            let matches = file.blocks.filter { $0.id.lowercased.replacingOccurrences(of: "-", with: "").hasPrefix(hex) }
            switch matches.count {
            case 1: return matches[0].id
            case 0: throw CLIError("no block id starts with \(ref) (see `tick blocks`)", status: .notFound)
            default: throw CLIError("\(ref) matches \(matches.count) blocks; give more digits (see `tick blocks --json`)", status: .notFound)
            }
        }
    }
}
