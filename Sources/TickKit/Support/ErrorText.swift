import FoundationEssentials
import Glibc

/// The text Foundation's `localizedDescription` gave for an error (which
/// FoundationEssentials does not have): a ``LocalizedError``'s description,
/// the sentence swift-corelibs-foundation gave for the file errors that
/// FileManager throws, a POSIX error's `strerror`, else the domain and code.
public enum ErrorText {
    /// What `ErrorText.describe(error)` said.
    public static func describe(_ error: any Error) -> String {
        if let described = (error as? any LocalizedError)?.errorDescription { return described }
        let prefix = "The operation could not be completed."
        if let posix = error as? POSIXError {
            return "\(prefix) \(String(cString: strerror(posix.code.rawValue)))"
        }
        if let cocoa = error as? CocoaError {
            if let text = cocoaText[cocoa.code.rawValue] { return "\(prefix) \(text)" }
            return "\(prefix) (NSCocoaErrorDomain error \(cocoa.code.rawValue).)"
        }
        return "\(prefix) (\(error._domain) error \(error._code).)"
    }

    private static let cocoaText: [Int: String] = [
        4: "The file doesn’t exist.", 257: "You don’t have permission.", 258: "The file name is invalid.",
        259: "The file isn’t in the correct format.", 260: "The file doesn’t exist.",
        261: "The specified text encoding isn’t applicable.", 262: "The specified URL type isn’t supported.",
        263: "The item is too large.", 264: "The text encoding of the contents couldn’t be determined.",
        513: "You don’t have permission.", 514: "The file name is invalid.",
        516: "A file with the same name already exists.", 517: "The specified text encoding isn’t applicable.",
        518: "The specified URL type isn’t supported.", 640: "There isn’t enough space.", 642: "The volume is read only.",
        3840: "The data is not in the correct format.", 4864: "The data isn’t in the correct format.", 4865: "The data is missing.",
    ]
}
