import ArgumentParser
import FoundationEssentials
import Glibc
import TickKit

extension Tick {
    struct DavSetupCommand: TickCommand {
        static let facts = CommandFacts.reads
        static let configuration = CommandConfiguration.sub(CommandConfiguration(
            commandName: "setup",
            abstract: "Write the vdirsyncer config for a CalDAV account and create its task calendars.",
            discussion: """
            Writes vdirsyncer.conf next to config.toml (mode 0600) with the URL, \
            the user name and, with --password-command, the command vdirsyncer \
            runs to get the password at each sync: tick never stores the \
            password. Then creates a collection per bridged list in the vdir \
            ([dav] path, default ~/.local/share/tick-dav/vdir) and runs \
            `vdirsyncer discover`, which creates them on the server, and \
            `vdirsyncer metasync` (display names). The configuration is tried \
            first from a temporary file and only moved into place once this \
            worked: a failed setup leaves the previous one as it was.

            Only https URLs are accepted, except for a server on this machine \
            (127.0.0.1, localhost, ::1), which may use http.

            EXAMPLES
              tick dav setup https://cloud.example.com/remote.php/dav/ --user me --password-command "pass show dav"
              tick dav setup http://127.0.0.1:5232/ --user me --password-command "secret-tool lookup service dav"
            """))

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The CalDAV server's URL (https://, or http:// on this machine).")
        var url: String

        @Option(name: .long, help: "The account's user name.")
        var user: String

        @Option(name: .customLong("password-command"), help: "A command that prints the password (e.g. \"pass show dav\").")
        var passwordCommand: String?

        func run() throws {
            let context = try Context(global)
            let t = context.terminal
            let config = try context.config()
            _ = try DavSetup.checkURL(url)
            let root = config.dav.resolvedPath(environment: context.environment)
            let configPath = DavSetup.configPath(environment: context.environment)
            let command = passwordCommand.map(DavSetup.splitCommand)
            if let command, command.isEmpty { throw CLIError("--password-command is empty", status: .usage) }
            let text = DavSetup.config(url: url, user: user, passwordCommand: command, root: root)
            let bridge = DavBridge(store: context.store, settings: config.dav, root: root, now: context.now, timeZone: context.timeZone, fields: config.fields)
            let sync = DavSync(bridge: bridge, configPath: configPath, environment: context.environment, clock: context.clock)
            // Written only once discover worked with it: a failure leaves the old one.
            let (collections, report) = try sync.setUp(config: text)
            t.out("Wrote \(configPath) (mode 0600)")
            if command == nil {
                t.out("No password command: vdirsyncer will ask for no password. If the server needs one, run this again with")
                t.out("  --password-command \"pass show dav\"   or   --password-command \"secret-tool lookup service dav user \(user)\"")
                t.out("(any command that prints the password; tick never stores it).")
            }
            t.out("Bridged \(collections.count) collection\(collections.count == 1 ? "" : "s") (\(collections.joined(separator: ", "))); \(report.sent) item\(report.sent == 1 ? "" : "s") ready to send. Run `tick dav sync`.")
        }
    }
}
