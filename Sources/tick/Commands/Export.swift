import ArgumentParser
import Foundation
import TickKit

extension Tick {
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Export tasks as JSON (full fidelity) or Markdown.",
            discussion: """
            json is tick's own export: every file with every field, including unknown \
            keys; `tick import` of it gives back the same tasks. markdown is GitHub \
            task-list checkboxes, one section per list, with dates.

            EXAMPLES
              tick export -o backup.json
              tick export --format markdown --list Work
            """)

        enum Format: String, ExpressibleByArgument, CaseIterable {
            case json, markdown
        }

        @OptionGroup var global: GlobalOptions

        @Option(name: .long, help: "json or markdown.")
        var format: Format = .json

        @Option(name: .long, help: ArgumentHelp("Export only this list (or `inbox`).", valueName: "name"))
        var list: String?

        @Option(name: [.short, .customLong("output")], help: ArgumentHelp("Write to FILE (atomically) instead of stdout.", valueName: "file"), completion: .file())
        var output: String?

        func run() throws {
            let context = try Context(global)
            let loaded = try context.load()
            let snapshot = try context.snapshot()
            if let broken = snapshot.problems.first, list == nil {
                throw StoreError.invalidFile(broken)
            }
            // An inbox that does not exist on disk is not exported.
            let inboxExists = try context.store.kinds().contains(.inbox)
            var files = snapshot.files.filter { $0.kind != .inbox || inboxExists }
            if let list {
                let kind = try loaded.lists.resolve(list)
                if let problem = snapshot.broken[kind] {
                    throw StoreError.invalidFile(problem)
                }
                files = files.filter { $0.kind == kind }
            }
            let bytes: [UInt8]
            switch format {
            case .json: bytes = JSONExport.encode(files, exportedAt: context.now)
            case .markdown: bytes = Array(MarkdownExport.render(files, timeZone: context.timeZone).utf8)
            }
            if let output {
                let path = output.hasPrefix("/") ? output : FileManager.default.currentDirectoryPath + "/" + output
                var isDir: ObjCBool = false
                let parent = (path as NSString).deletingLastPathComponent
                guard FileManager.default.fileExists(atPath: parent, isDirectory: &isDir), isDir.boolValue else {
                    throw CLIError("cannot write \(output): the directory \(parent) does not exist")
                }
                if FileManager.default.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue {
                    throw CLIError("cannot write \(output): it is a directory; give a file name")
                }
                try AtomicFile.write(bytes, to: path, mode: nil)
                let count = files.reduce(0) { $0 + $1.tasks.count }
                context.terminal.err("Exported \(count) task(s) to \(output)")
            } else {
                FileHandle.standardOutput.write(Data(bytes))
            }
        }
    }
}
