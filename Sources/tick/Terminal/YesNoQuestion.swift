import FoundationEssentials
import Glibc
import TickKit

/// The one yes/no question: asks on stderr (`question [y/N] `, or `[Y/n] `
/// when `defaultYes`) and reads the answer from stdin (a pipe works).
/// `y`/`yes` is yes and `n`/`no` (anything else) is no, in any case and
/// spacing; an empty answer is the default; end of input is always no.
/// Callers decide first what happens without a terminal (most refuse).
func askYesNo(_ question: String, defaultYes: Bool = false) -> Bool {
    StandardStream.writeErr((Terminal.shown(question) + (defaultYes ? " [Y/n] " : " [y/N] ")).utf8)
    guard let line = readLine() else { return false }
    let answer = line.trimmingWhitespace().lowercased()
    if answer.isEmpty { return defaultYes }
    return answer == "y" || answer == "yes"
}
