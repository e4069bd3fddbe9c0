import FoundationEssentials
import Glibc

/// One command's hooks (Docs/HOOKS.md): runs the scripts of a
/// ``HookScripts`` with Taskwarrior's protocol, and remembers what the
/// command added and changed for `on-exit`.
///
/// A ``Store`` that carries one calls ``review(before:after:now:)`` for each
/// file it writes, under the store lock and before the write: new tasks go
/// through `on-add`, changed ones (a move included) and deleted ones through
/// `on-modify`. A script that exits non-zero refuses the change, and nothing
/// of that file is written. Merges, `resolve`, `sync` and `undo` never carry
/// one: they bring changes already made, here or on another machine.
public final class TaskHooks: @unchecked Sendable {
    /// What scripts are told about the command (Taskwarrior's arguments).
    public struct Invocation: Sendable {
        /// `start`, `done`, `add`.
        public var command: String
        /// The whole command line, as typed (`tick start 3`).
        public var commandLine: String
        /// Given as `rc:` (tick's config.toml).
        public var configPath: String
        /// Given as `data:` (the store).
        public var storePath: String
        public var version: String

        public init(command: String, commandLine: String, configPath: String, storePath: String, version: String) {
            self.command = command
            self.commandLine = commandLine
            self.configPath = configPath
            self.storePath = storePath
            self.version = version
        }
    }

    /// Where an existing task is now: its last saved version and its project
    /// (nil for the inbox); nil for a task the store does not hold.
    public typealias Locate = (UUID) -> (task: TaskItem, project: String?)?

    public let scripts: HookScripts
    let invocation: Invocation
    let environment: [String: String]
    let directory: String
    let timeout: Double
    let json: HookTaskJSON
    let feedback: (String) -> Void
    let locate: Locate

    /// What this run's hooks saw, shared with the copies ``invoked(as:feedback:)`` makes.
    private let seen: Seen

    /// What a run's hooks saw.
    private final class Seen: @unchecked Sendable {
        let lock = Lock()
        /// Each task a hook saw in this command: what it was given and what it answered
        /// (a write retried after a concurrent save does not run hooks twice).
        var reviewed: [UUID: (given: TaskItem, answer: TaskItem)] = [:]
        /// Lines for `on-exit`, in the order the tasks were first changed.
        var exitLines: [(id: UUID, line: String)] = []
    }

    /// - Parameters:
    ///   - environment: the scripts' environment (tick adds `TICK_HOOKS=off`,
    ///     so a `tick` a script runs does not run hooks again).
    ///   - timeout: seconds a script may run before it is stopped.
    ///   - feedback: receives each line a script prints besides its JSON.
    public init(scripts: HookScripts, invocation: Invocation, environment: [String: String], directory: String,
                timeout: Double, now: Date, timeZone: Zone,
                feedback: @escaping (String) -> Void, locate: @escaping Locate) {
        self.scripts = scripts
        self.invocation = invocation
        var env = environment
        env["TICK_HOOKS"] = "off"
        self.environment = env
        self.directory = directory
        self.timeout = timeout
        self.json = HookTaskJSON(context: InterchangeContext(path: "hook", now: now, timeZone: timeZone))
        self.feedback = feedback
        self.locate = locate
        seen = Seen()
    }

    private init(_ hooks: TaskHooks, invocation: Invocation, feedback: @escaping (String) -> Void) {
        scripts = hooks.scripts
        self.invocation = invocation
        environment = hooks.environment
        directory = hooks.directory
        timeout = hooks.timeout
        json = hooks.json
        self.feedback = feedback
        locate = hooks.locate
        seen = hooks.seen
    }

    /// The same hooks for one action of a long-running command (`tick ui`'s
    /// `done`): scripts are told `command:` and feedback goes to `feedback`;
    /// what they see still counts for the run's one `on-exit`.
    public func invoked(as command: String, feedback: @escaping (String) -> Void) -> TaskHooks {
        var invocation = self.invocation
        invocation.command = command
        return TaskHooks(self, invocation: invocation, feedback: feedback)
    }

    /// Runs the `on-launch` scripts; one that exits non-zero stops the command.
    public func launch() throws(HookError) {
        for script in scripts.scripts(for: .launch) {
            _ = try run(script, input: [], expecting: 0)
        }
    }

    /// Runs the `on-exit` scripts with every task the command added or changed.
    public func finish() throws(HookError) {
        let lines = seen.lock.withLock { seen.exitLines.map(\.line) }
        for script in scripts.scripts(for: .exit) {
            do {
                _ = try run(script, input: lines, expecting: 0)
            } catch {
                throw HookError(script: error.script, message: error.message + " (the command's changes are saved)")
            }
        }
    }

    /// Runs `on-add` and `on-modify` for what `after` adds, changes or drops
    /// compared with `before` (nil for a new file), and puts what the scripts
    /// answer into `after`, stamped at `now`.
    public func review(before: TaskFile?, after: inout TaskFile, now: Date) throws(HookError) {
        let project = after.kind == .inbox ? nil : after.displayName
        var old: [UUID: TaskItem] = [:]
        for task in before?.tasks ?? [] { old[task.id] = task }
        for i in after.tasks.indices {
            let task = after.tasks[i]
            if let known = seen.lock.withLock({ seen.reviewed[task.id] }), known.given == task {
                after.tasks[i] = known.answer
                continue
            }
            let original: (task: TaskItem, project: String?)?
            if let prior = old[task.id] {
                if prior.sameIgnoringOrder(as: task) { continue }
                original = (prior, project)
            } else {
                // Not in this file before: new, or moved here from another file.
                original = locate(task.id)
            }
            var answer = task
            let line = json.line(for: task, project: project)
            if let original {
                answer = try chain(.modify, original: json.line(for: original.task, project: original.project), line: line, task: task, project: project)
            } else {
                answer = try chain(.add, original: nil, line: line, task: task, project: project)
            }
            if answer != task { answer.stampChanges(since: task, at: now) }
            after.tasks[i] = answer
            let finalLine = answer == task ? line : json.line(for: answer, project: project)
            seen.lock.withLock {
                seen.reviewed[task.id] = (task, answer)
                note(task.id, finalLine)
            }
        }
        // Dropped from this file and not placed in another by this command: deleted.
        let kept = Set(after.tasks.map(\.id))
        for task in before?.tasks ?? [] where !kept.contains(task.id) {
            if seen.lock.withLock({ seen.reviewed[task.id] != nil }) { continue }
            let deleted = json.line(for: task, project: project, deleted: true)
            let before = json.line(for: task, project: project)
            for script in scripts.scripts(for: .modify) {
                _ = try run(script, input: [before, deleted], expecting: 1)
            }
            seen.lock.withLock { note(task.id, deleted) }
        }
    }

    /// Keeps the latest line of each task for `on-exit`.
    private func note(_ id: UUID, _ line: String) {
        if let i = seen.exitLines.firstIndex(where: { $0.id == id }) {
            seen.exitLines[i].line = line
        } else {
            seen.exitLines.append((id, line))
        }
    }

    /// Runs `event`'s scripts one after the other, each given the task as the
    /// previous one answered it, and returns the task as the last answered.
    private func chain(_ event: HookEvent, original: String?, line: String, task: TaskItem, project: String?) throws(HookError) -> TaskItem {
        let list = scripts.scripts(for: event)
        guard !list.isEmpty else { return task }
        var current = line
        var result = task
        for script in list {
            let answer = try run(script, input: (original.map { [$0] } ?? []) + [current], expecting: 1)[0]
            if answer != current {
                do {
                    result = try json.apply(returned: answer, sent: current, to: result, project: project)
                } catch {
                    throw HookError(script: Self.name(script), message: error.message)
                }
                current = json.line(for: result, project: project)
            }
        }
        return result
    }

    /// Runs one script: `input` lines on stdin; returns its JSON lines, of
    /// which there must be `expecting` (a task for on-add and on-modify, none
    /// for on-launch and on-exit, whose every line is feedback).
    private func run(_ script: String, input: [String], expecting: Int) throws(HookError) -> [String] {
        let name = Self.name(script)
        let arguments = [
            "api:2", "args:" + invocation.commandLine, "command:" + invocation.command,
            "rc:" + invocation.configPath, "data:" + invocation.storePath, "version:" + invocation.version,
        ]
        let result: ProcessResult
        do {
            result = try ProcessRunner.run(ProcessRequest(
                program: script, arguments: arguments, directory: directory, environment: environment,
                input: Array(input.map { $0 + "\n" }.joined().utf8), timeout: timeout))
        } catch {
            throw HookError(script: name, message: error.message + (error.message.contains("did not finish")
                ? "; the change was not made (raise TICK_HOOK_TIMEOUT, or chmod -x the hook to turn it off)" : ""))
        }
        var jsonLines: [String] = []
        var feedbackLines: [String] = []
        for raw in String(decoding: result.stdout, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true) {
            let text = raw.trimmingWhitespace()
            if expecting > 0, text.hasPrefix("{") { jsonLines.append(text) } else if !text.isEmpty { feedbackLines.append(text) }
        }
        let errorLines = result.stderr.split(separator: "\n").map(String.init).filter { !$0.trimmingWhitespace().isEmpty }
        guard result.succeeded else {
            let said = (feedbackLines + errorLines).joined(separator: "; ")
            throw HookError(script: name, message: (said.isEmpty ? "exited with status \(result.status)" : said)
                + (expecting > 0 ? " (the change was not made)" : ""))
        }
        feedbackLines.forEach(feedback)
        errorLines.forEach(feedback)
        guard jsonLines.count == expecting else {
            throw HookError(script: name, message: "printed \(jsonLines.count) JSON task lines, expected \(expecting) (the change was not made)")
        }
        return jsonLines
    }

    static func name(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
