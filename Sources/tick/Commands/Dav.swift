import ArgumentParser
import TickKit

extension Tick {
    struct Dav: TickCommand {
        static let facts = CommandFacts.reads
        static let configuration = CommandConfiguration.sub(CommandConfiguration(
            commandName: "dav",
            abstract: "Sync the store with a CalDAV account (phones) through vdirsyncer.",
            discussion: """
            Each bridged list is a task calendar (a collection of VTODOs) on the \
            server, and the inbox is one too; one item per task, its UID the \
            task's id. tick keeps a vdir (a directory of .ics files, machine-local, \
            never in the store) in step with the store, and vdirsyncer keeps the \
            vdir in step with the server. See Docs/DAV.md.

            EXAMPLES
              tick dav setup https://dav.example.com/ --user me --password-command "pass show dav"
              tick dav sync
              tick dav restore work    # a calendar gone from the server: send tick's copy again
            """,
            subcommands: [DavSetupCommand.self, DavSyncCommand.self, DavRestoreCommand.self]
        ))
    }
}
