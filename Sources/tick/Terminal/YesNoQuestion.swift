import Foundation

/// Asks a yes/no question on stderr and reads the answer from stdin (a pipe works).
/// EOF or anything but y/yes is no.
func askYesNo(_ question: String) -> Bool {
    FileHandle.standardError.write(Data((Terminal.shown(question) + " [y/N] ").utf8))
    let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
    return answer == "y" || answer == "yes"
}
