import ArgumentParser
import FoundationEssentials
import Glibc
import TickKit

extension Tick {
    struct Sync: TickCommand {
        static let facts = CommandFacts(writes: true, journaled: false, runsHooks: false)
        static let configuration = CommandConfiguration.sub(CommandConfiguration(
            commandName: "sync",
            abstract: "Commit the store's changes, pull and push (git).",
            discussion: """
            For a store in a git repository (see `tick init --git` and `tick git \
            setup`):

              1. commits the store's changes, with a message that counts them
                 ("tick: 3 tasks added, 1 completed in 2 files"; never titles);
              2. runs `git pull` (merge or rebase, as the repository is configured;
                 the tick merge driver merges task files in both);
              3. runs `git push` when the branch has an upstream;
              4. reports what came in, in counts per file.

            Without a remote or upstream it commits and says so. A list deleted on \
            one machine and edited on the other is kept (with the edits) and the \
            merge is completed. If git stops for anything else, its message is \
            shown, the repository is left as git left it (nothing is lost) and the \
            exit status is 1; fix it (`tick resolve` merges files with conflict \
            markers), then `git commit` or `git rebase --continue`, and run \
            `tick sync` again. A store file that cannot be parsed is never \
            committed (exit status 4).
            """))

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let context = try Context(global)
            let repo = try SyncRun.repository(for: context.store, environment: context.environment)
            let printer = SyncPrinter(context: context)
            _ = try SyncRun(store: context.store, repo: repo, now: context.now).run(progress: printer.print)
        }
    }
}

/// Prints `tick sync`'s events as they happen.
struct SyncPrinter {
    let context: Context
    var t: Terminal { context.terminal }

    func print(_ event: SyncEvent) {
        switch event {
        case .finishingStoppedMerge:
            t.out("Finishing the merge or rebase in progress")
        case .keptChangedFile(let path):
            t.out("\(path) was deleted on one side and changed on the other: kept the changed file")
        case .gitMessage(let message):
            t.err(message)
        case .unreadableFile(let problem):
            t.err("tick: " + problem)
        case .noLocalChanges:
            t.out("No local changes to commit")
        case .committed(let message):
            t.out("Committed: \(message)")
        case .noRemote(let branch):
            t.out("No git remote: the changes are committed in this repository only. Add one with `git remote add origin URL`, then `git push -u origin \(branch ?? "BRANCH")`.")
        case .detachedHead:
            t.out("HEAD is detached (not on a branch): not pulling or pushing. Check out a branch and run `tick sync` again.")
        case .noUpstream(let branch):
            t.out("The branch \(branch) has no upstream: the changes are committed here only. Set one with `git push -u origin \(branch)`.")
        case let .pushedNewBranch(remote, branch):
            t.out("Pushed to \(remote) (created its branch \(branch))")
        case .upToDate(let upstream):
            t.out("Already up to date with \(upstream)")
        case .noStoreChanges(let upstream):
            t.out("Pulled from \(upstream): no changes to the store")
        case let .incoming(upstream, summary):
            t.out("\(upstream.map { "Pulled from \($0)" } ?? "Merged"): \(summary.description)")
            for (path, description) in summary.perFile {
                t.out("  \(path): \(description)")
            }
        case .storeMerged(let steps):
            _ = ResolvePrinter(context: context, dryRun: false, quiet: false).print(steps)
        case .pushed(let upstream):
            t.out("Pushed to \(upstream)")
        case .nothingToPush(let upstream):
            t.out("Nothing to push to \(upstream)")
        case .conflictCopiesPending(let copies):
            t.err("tick: \(copies.count) Syncthing conflict cop\(copies.count == 1 ? "y" : "ies") pending; run `tick resolve`")
        }
    }
}
