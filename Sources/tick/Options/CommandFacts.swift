import ArgumentParser

/// What tick must know about a command before ArgumentParser reads its
/// arguments, and how its run is wrapped. Each command declares its facts in
/// its own file (``TickCommand/facts``); the argument rewrites
/// (``Invocation``), the undo journal (``Context``) and the hooks
/// (``HookSlot``) read them from there.
struct CommandFacts: Sendable, Equatable {
    /// Its positional arguments are task ids (`tick done 3`): a negative
    /// number there is refused as an id, not read as an option.
    var takesIDs = false
    /// Its positional arguments are a filter (`tick list -work`): `-word`
    /// terms are marked as terms, not options.
    var takesFilter = false
    /// Its words are quick-add words (`tick add`, `tick edit`): title text
    /// after `--`, and `-tag` removes a tag in an edit.
    var takesQuickAddWords = false
    /// It may write store files.
    var writes = false
    /// Its writes go into the undo journal. False for commands that rewrite
    /// files wholesale from outside data (merges, git, sync, init) or run for
    /// ever (watch): undo could only half revert them.
    var journaled = true
    /// It runs the user's hook scripts (Docs/HOOKS.md). False for the
    /// commands that are not journaled, and for undo, which takes a change back.
    var runsHooks = true

    /// A command that only reads.
    static let reads = CommandFacts()
    /// A command that writes, journaled and hooked.
    static let writesStore = CommandFacts(writes: true)
    /// A command that brings in changes made elsewhere or outside the store
    /// (a merge, git, sync, init, watch): neither journaled nor hooked.
    static let outsideTheJournal = CommandFacts(journaled: false, runsHooks: false)

    /// The facts of the command that `path` names (canonical names from the
    /// root, as ``CommandPath/of(_:)`` gives them: `done`, `lists rm`): the
    /// innermost command's (words after the last known command, as in
    /// `tick ui`'s `ui done`, are ignored); nil when no command is named.
    static func of(path: String) -> CommandFacts? {
        guard let type = command(at: path) else { return nil }
        return facts(of: type)
    }

    /// The facts a command type declares (``CommandFacts/reads`` for a type
    /// that declares none: the root).
    static func facts(of type: ParsableCommand.Type) -> CommandFacts {
        (type as? TickCommand.Type)?.facts ?? .reads
    }

    /// The innermost command type that `path` (canonical names) names, nil
    /// when its first word names none.
    static func command(at path: String) -> ParsableCommand.Type? {
        var type: ParsableCommand.Type?
        for word in path.split(separator: " ").map(String.init) {
            let parent = type ?? Tick.self
            guard let match = parent.configuration.subcommands.first(where: { $0._commandName == word }) else { break }
            type = match
        }
        return type
    }

    /// The paths of the commands under `type` that declare no facts (none should).
    static func undeclared(under type: ParsableCommand.Type = Tick.self, path: String = "") -> [String] {
        type.configuration.subcommands.flatMap { sub -> [String] in
            let name = path.isEmpty ? sub._commandName : path + " " + sub._commandName
            return (sub is TickCommand.Type ? [] : [name]) + undeclared(under: sub, path: name)
        }
    }

    /// The top-level command that `word` names (its name or an alias), nil for none.
    static func topLevel(_ word: String) -> ParsableCommand.Type? {
        Tick.configuration.subcommands.first { $0._commandName == word || $0.configuration.aliases.contains(word) }
    }
}

/// A tick command: an ArgumentParser command that declares its ``CommandFacts``.
protocol TickCommand: ParsableCommand {
    /// What tick must know about the command (see ``CommandFacts``).
    static var facts: CommandFacts { get }
}

extension CommandConfiguration {
    /// A tick subcommand's configuration, marked as run under `tick`
    /// (`_superCommandName`). ArgumentParser reads the mark in two places
    /// only: help rendered with the command as its root, which tick never
    /// asks for (``Tick/leafCommand(_:)`` leaves help to the root), and the
    /// check for completion-script requests, which it then skips when the
    /// command is parsed alone: that check parses two pseudo-commands by
    /// reflection, 12% of an empty `tick today` (issue 47). The root's parse
    /// still answers `--generate-completion-script`.
    static func sub(_ configuration: CommandConfiguration) -> CommandConfiguration {
        var marked = configuration
        marked._superCommandName = "tick"
        return marked
    }
}
