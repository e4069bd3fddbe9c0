import ArgumentParser
import TickKit

/// Completion of `tick help COMMAND [SUBCOMMAND]`.
///
/// ArgumentParser adds the `help` command itself and gives its words no
/// completion, so the scripts it generates are completed here: after
/// `help`, the command names (with their abstracts in zsh and fish), and
/// after `help lists`, the subcommands of `lists`.
enum HelpCompletion {
    /// A command that has subcommands: its path below `tick` ("" for tick itself) and its subcommands.
    struct Level {
        var path: String
        var commands: [(name: String, abstract: String)]
    }

    /// Every level of the command tree, the root first.
    static func levels(_ root: ParsableCommand.Type = Tick.self) -> [Level] {
        var result: [Level] = []
        func walk(_ type: ParsableCommand.Type, path: [String]) {
            let subs = type.configuration.subcommands.filter { $0.configuration.shouldDisplay }
            guard !subs.isEmpty else { return }
            result.append(Level(path: path.joined(separator: " "),
                                commands: subs.map { ($0._commandName, $0.configuration.abstract) }))
            for sub in subs { walk(sub, path: path + [sub._commandName]) }
        }
        walk(root, path: [])
        return result
    }

    /// The shell of `--generate-completion-script SHELL` (or `=SHELL`) when
    /// that is the whole command line: tick adds `help` completion to the script.
    static func requestedShell(_ args: [String]) -> CompletionShell? {
        let name: String?
        if args.count == 2, args[0] == "--generate-completion-script" {
            name = args[1]
        } else if args.count == 1, args[0].hasPrefix("--generate-completion-script=") {
            name = String(args[0].dropFirst("--generate-completion-script=".count))
        } else {
            name = nil
        }
        return name.flatMap(CompletionShell.init(rawValue:))
    }

    /// `script` (ArgumentParser's, for `shell`) with `help` completing command names.
    static func patched(_ script: String, shell: CompletionShell) -> String {
        switch shell {
        case .bash: return patchedBash(script)
        case .zsh: return patchedZsh(script)
        case .fish: return script + fishLines()
        default: return script
        }
    }

    /// bash: `_tick_help` also offers the commands at the level the words after `help` name.
    static func patchedBash(_ script: String) -> String {
        let marker = "_tick_help() {\n"
        guard let range = script.literalRange(of: marker) else { return script }
        var cases = ""
        for level in levels() {
            // One word per line: __tick_add_completions splits on newlines only.
            cases += "    '\(level.path)') __tick_add_completions -W $'\(level.commands.map(\.name).joined(separator: "\\n"))' ;;\n"
        }
        let body = """
            local -i h
            for (( h = 1; h < COMP_CWORD; h++ )); do [[ ${COMP_WORDS[h]} == help ]] && break; done
            local path="${COMP_WORDS[*]:h+1:COMP_CWORD-h-1}"
            case "${path}" in
        \(cases)    esac

        """
        var out = script
        out.replaceSubrange(range, with: marker + body)
        return out
    }

    /// zsh: the words of `help` go to `__tick_help_commands`, which describes the commands.
    static func patchedZsh(_ script: String) -> String {
        let spec = "'*:subcommands:'"
        let tail = "if [[ \"${funcstack[1]}\" = _tick ]]; then"
        guard script.contains(spec), let end = script.lastLiteralRange(of: tail) else { return script }
        var cases = ""
        for level in levels() {
            let described = level.commands.map { "'\($0.name):\(zshQuoted($0.abstract))'" }.joined(separator: " ")
            cases += "    '\(level.path)') commands=(\(described)) ;;\n"
        }
        let function = """
        __tick_help_commands() {
            local -a commands
            case "${(j: :)words[2,CURRENT-1]}" in
        \(cases)    esac
            _describe -t commands command commands
        }


        """
        var out = script
        out.replaceSubrange(end, with: function + tail)
        return out.replacingAll(spec, with: "'*:subcommands:__tick_help_commands'")
    }

    /// fish: one `complete` line per command, under the condition that the words so far are `help PATH`.
    static func fishLines() -> String {
        var lines = "\n# `tick help COMMAND`: added by tick (HelpCompletion).\n"
        for level in levels() {
            let words = (["help"] + (level.path.isEmpty ? [] : [level.path])).joined(separator: " ")
            for command in level.commands {
                lines += "complete -c tick -n 'test \"$(string join \\' \\' (commandline -opc)[2..])\" = \\'\(words)\\'' "
                    + "-fa '\(fishQuoted(command.name))' -d '\(fishQuoted(command.abstract))'\n"
            }
        }
        return lines
    }

    /// Text inside a zsh single-quoted `name:description` word.
    static func zshQuoted(_ text: String) -> String {
        text.replacingAll("'", with: "'\\''")
    }

    /// Text inside fish single quotes.
    static func fishQuoted(_ text: String) -> String {
        text.replacingAll("\\", with: "\\\\").replacingAll("'", with: "\\'")
    }
}
