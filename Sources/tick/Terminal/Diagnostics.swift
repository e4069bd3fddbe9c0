import FoundationEssentials
import Glibc
import TickKit

/// The one place that prints tick's diagnostics on stderr: warnings
/// (`tick: warning: …`, from TickKit's ``TickWarning`` values and the CLI's
/// own) and errors (`tick: error: …`, or `path:line:column: error: …` through
/// ``FileLocation/errorLine(_:at:)``). `main` prints its errors here; commands
/// print their warnings through ``Terminal/warn(_:)``.
enum Diagnostics {
    /// `tick: warning: <warning>`.
    static func line(_ warning: TickWarning) -> String {
        "tick: warning: " + warning.description
    }

    /// Prints a warning (its own newlines kept: hints, git output).
    static func warn(_ warning: TickWarning) {
        write(line(warning), keepingNewlines: true)
    }

    /// Prints a typed error: its location first when it has one (a caret
    /// line and hints may follow).
    static func error(_ error: TickError) {
        write(error.errorLine, keepingNewlines: true)
    }

    /// Prints an error that has no type of tick's (ArgumentParser's), on one line.
    static func error(oneLine text: String) {
        write(FileLocation.errorLine(text, at: nil), keepingNewlines: false)
    }

    /// Prints an error about a place in a file that is reported, not thrown
    /// (`tick resolve` goes on with the next file).
    static func error(_ report: String, at location: FileLocation) {
        write(FileLocation.errorLine(report, at: location.description), keepingNewlines: true)
    }

    private static func write(_ line: String, keepingNewlines: Bool) {
        StandardStream.writeErr((Terminal.shown(line, keepingNewlines: keepingNewlines) + "\n").utf8)
    }
}

extension Terminal {
    /// Prints a warning (``Diagnostics/warn(_:)``).
    func warn(_ warning: TickWarning) {
        Diagnostics.warn(warning)
    }

    /// Prints a warning written by the CLI itself: `tick: warning: <message>`.
    func warn(_ message: String) {
        Diagnostics.warn(TickWarning(message))
    }
}
