import FoundationEssentials

/// A file with git conflict markers that cannot be split into its sides.
public struct ConflictMarkerError: Error, Sendable, Equatable, LocalizedError {
    /// 1-based line of the problem.
    public var line: Int
    public var message: String

    public init(line: Int, message: String) {
        self.line = line
        self.message = message
    }

    public var errorDescription: String? { "line \(line): \(message)" }
}

/// Git's conflict markers, as `git merge` and `git merge-file` write them:
///
/// ```
/// <<<<<<< ours
/// our lines
/// ||||||| base        (only with merge.conflictStyle=diff3 or zdiff3)
/// base lines
/// =======
/// their lines
/// >>>>>>> theirs
/// ```
public enum ConflictMarkers {
    /// The two (or three) versions a file with conflict markers stands for.
    public struct Sides: Sendable, Equatable {
        /// The common lines plus the first section of every conflict.
        public var ours: [UInt8]
        /// The common lines plus the last section of every conflict.
        public var theirs: [UInt8]
        /// The common lines plus every base section, when every conflict has one (diff3).
        public var base: [UInt8]?
        /// How many conflicts the file has.
        public var conflicts: Int
        /// For each line of ``ours``, ``theirs`` and ``base``: its 1-based line in the file.
        public var oursLines: [Int] = []
        public var theirsLines: [Int] = []
        public var baseLines: [Int] = []

        /// The line in the conflicted file of a 1-based line of one side.
        public static func fileLine(_ line: Int, in map: [Int]) -> Int {
            guard !map.isEmpty else { return line }
            return map[min(max(line, 1), map.count) - 1]
        }
    }

    enum Marker { case start, base, separator, end }

    /// The marker a line is, if any: exactly 7 marker characters, then the end
    /// of the line or a space (and a label). `=======` takes no label.
    static func marker(_ line: ArraySlice<UInt8>) -> Marker? {
        guard line.count >= 7, let first = line.first else { return nil }
        let kind: Marker
        switch first {
        case UInt8(ascii: "<"): kind = .start
        case UInt8(ascii: "|"): kind = .base
        case UInt8(ascii: "="): kind = .separator
        case UInt8(ascii: ">"): kind = .end
        default: return nil
        }
        let start = line.startIndex
        for i in start..<start + 7 where line[i] != first { return nil }
        var rest = line[(start + 7)...]
        if rest.last == UInt8(ascii: "\r") { rest = rest.dropLast() }
        if rest.isEmpty { return kind }
        if kind == .separator { return nil }
        return rest.first == UInt8(ascii: " ") ? kind : nil
    }

    /// The lines of a text, each with its line ending.
    static func lines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var out: [ArraySlice<UInt8>] = []
        var start = 0
        for i in bytes.indices where bytes[i] == UInt8(ascii: "\n") {
            out.append(bytes[start...i])
            start = i + 1
        }
        if start < bytes.count { out.append(bytes[start...]) }
        return out
    }

    /// A line without its line ending.
    static func content(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        line.last == UInt8(ascii: "\n") ? line.dropLast() : line
    }

    /// True when some line is a start marker (`<<<<<<<`). Such a line can never
    /// be part of valid JSON, so a file that has one is a conflicted file.
    public static func contains(_ bytes: [UInt8]) -> Bool {
        let n = bytes.count
        var i = 0
        let lt = UInt8(ascii: "<")
        while i + 7 <= n {
            // At the start of a line.
            if bytes[i] == lt {
                var end = i
                while end < n && bytes[end] != UInt8(ascii: "\n") { end += 1 }
                if marker(bytes[i..<end]) == .start { return true }
                i = end + 1
                continue
            }
            guard let nl = bytes[i...].firstIndex(of: UInt8(ascii: "\n")) else { return false }
            i = nl + 1
        }
        return false
    }

    /// Splits a conflicted file into its sides. Throws when the markers are
    /// unbalanced (a conflict that is not closed, a separator outside a conflict).
    public static func split(_ bytes: [UInt8]) throws(ConflictMarkerError) -> Sides {
        enum Section { case common, ours, base, theirs }
        var ours: [UInt8] = []
        var theirs: [UInt8] = []
        var base: [UInt8] = []
        var section = Section.common
        var conflicts = 0
        var allHaveBase = true
        var thisHasBase = false
        var startLine = 0
        var oursLines: [Int] = []
        var theirsLines: [Int] = []
        var baseLines: [Int] = []
        for (n, line) in lines(bytes).enumerated() {
            let number = n + 1
            switch (marker(content(line)), section) {
            case (.start, .common):
                section = .ours
                conflicts += 1
                thisHasBase = false
                startLine = number
            case (.start, _):
                throw ConflictMarkerError(line: number, message: "a conflict starts inside the conflict that starts at line \(startLine)")
            case (.base, .ours):
                section = .base
                thisHasBase = true
            case (.separator, .ours), (.separator, .base):
                section = .theirs
            case (.end, .theirs):
                section = .common
                if !thisHasBase { allHaveBase = false }
            case (.base, .common), (.separator, .common), (.end, .common):
                throw ConflictMarkerError(line: number, message: "a conflict marker outside a conflict")
            case (.some, _):
                throw ConflictMarkerError(line: number, message: "a conflict marker out of order in the conflict that starts at line \(startLine)")
            case (nil, .common):
                ours.append(contentsOf: line)
                theirs.append(contentsOf: line)
                base.append(contentsOf: line)
                oursLines.append(number)
                theirsLines.append(number)
                baseLines.append(number)
            case (nil, .ours):
                ours.append(contentsOf: line)
                oursLines.append(number)
            case (nil, .base):
                base.append(contentsOf: line)
                baseLines.append(number)
            case (nil, .theirs):
                theirs.append(contentsOf: line)
                theirsLines.append(number)
            }
        }
        guard section == .common else {
            throw ConflictMarkerError(line: startLine, message: "the conflict that starts here is not closed with >>>>>>>")
        }
        let hasBase = conflicts > 0 && allHaveBase
        return Sides(ours: ours, theirs: theirs, base: hasBase ? base : nil, conflicts: conflicts,
                     oursLines: oursLines, theirsLines: theirsLines, baseLines: hasBase ? baseLines : [])
    }
}
