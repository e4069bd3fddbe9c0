import FoundationEssentials

/// The contents of a TZif file (RFC 8536, versions 1 to 4): transition instants,
/// the local time type after each, and the footer's POSIX TZ rule for instants
/// past the last transition.
///
/// For version 2 and later the 32-bit (version 1) block is skipped and the
/// 64-bit block read. Leap-second records are read past and not applied
/// (the "right/" zones are not what `TZ` names in practice).
struct TZifFile: Hashable, Sendable {
    /// Transition instants, ascending (seconds since 1970, UTC).
    let transitions: [Int64]
    /// For each transition, the index into `types` in effect from it on.
    let typeIndices: [Int]
    /// The local time types; type 0 is in effect before the first transition.
    let types: [LocalTimeType]
    /// The footer rule (version 2+), when the file has a non-empty one.
    let footer: PosixTimeZoneRule?
    /// For each type, whether the file marks its transitions as standard time (`isstd`)
    /// and as UT (`isut`); false where the file has no indicator. Used only to move a
    /// `posixrules` table to other offsets (``TZifFile/init(posixRules:standard:daylight:)``).
    let standardIndicators: [Bool]
    let utIndicators: [Bool]

    init(transitions: [Int64], typeIndices: [Int], types: [LocalTimeType], footer: PosixTimeZoneRule?,
         standardIndicators: [Bool], utIndicators: [Bool]) {
        self.transitions = transitions
        self.typeIndices = typeIndices
        self.types = types
        self.footer = footer
        self.standardIndicators = standardIndicators
        self.utIndicators = utIndicators
    }

    /// Parses TZif bytes; `path` only names the file in errors.
    init(bytes: [UInt8], path: String) throws(ZoneError) {
        var reader = Reader(bytes: bytes, path: path)
        let first = try reader.header()
        guard first.version == 0 || first.version >= UInt8(ascii: "2") else {
            throw .malformed(path: path, reason: "unknown version byte \(first.version)")
        }
        if first.version == 0 {
            let block = try reader.block(first, timeSize: 4)
            (transitions, typeIndices, types) = (block.transitions, block.typeIndices, block.types)
            (standardIndicators, utIndicators) = (block.isStandard, block.isUT)
            footer = nil
            return
        }
        try reader.skip(first.blockLength(timeSize: 4))
        let second = try reader.header()
        let block = try reader.block(second, timeSize: 8)
        (transitions, typeIndices, types) = (block.transitions, block.typeIndices, block.types)
        (standardIndicators, utIndicators) = (block.isStandard, block.isUT)
        // Footer: "\n" TZ-string "\n"; an empty string means no rule.
        guard try reader.byte() == UInt8(ascii: "\n") else {
            throw .malformed(path: path, reason: "the footer does not start with a newline")
        }
        var text: [UInt8] = []
        while true {
            let byte = try reader.byte()
            if byte == UInt8(ascii: "\n") { break }
            text.append(byte)
        }
        if text.isEmpty {
            footer = nil
        } else {
            let string = String(decoding: text, as: UTF8.self)
            do {
                footer = try PosixTimeZoneRule(parsing: string)
            } catch {
                throw .malformed(path: path, reason: "its footer \"\(string)\" is not a POSIX TZ string")
            }
        }
    }

    /// The local time type in effect at `instant` (seconds since 1970, UTC).
    func type(at instant: Int64) -> LocalTimeType {
        guard let last = transitions.last, instant >= transitions[0] else {
            // Before the first transition (or none at all): the footer when the file has
            // no table, else type 0 (RFC 8536 §3.2).
            if transitions.isEmpty, let footer { return footer.type(at: instant) }
            return types[0]
        }
        if instant >= last, let footer { return footer.type(at: instant) }
        // The last transition at or before the instant.
        var low = 0
        var high = transitions.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if transitions[mid] <= instant { low = mid } else { high = mid - 1 }
        }
        return types[typeIndices[low]]
    }

    /// The counts of one TZif header.
    struct Header {
        let version: UInt8
        let isUTCCount, isStandardCount, leapCount, timeCount, typeCount, charCount: Int

        func blockLength(timeSize: Int) -> Int {
            timeCount * timeSize + timeCount + typeCount * 6 + charCount
                + leapCount * (timeSize + 4) + isStandardCount + isUTCCount
        }
    }

    /// A big-endian cursor over the file's bytes.
    struct Reader {
        let bytes: [UInt8]
        let path: String
        var position = 0

        mutating func need(_ count: Int) throws(ZoneError) {
            guard count >= 0, bytes.count - position >= count else {
                throw .malformed(path: path, reason: "it ends early (byte \(position) of \(bytes.count))")
            }
        }

        mutating func skip(_ count: Int) throws(ZoneError) {
            try need(count)
            position += count
        }

        mutating func byte() throws(ZoneError) -> UInt8 {
            try need(1)
            position += 1
            return bytes[position - 1]
        }

        mutating func integer(size: Int) throws(ZoneError) -> Int64 {
            try need(size)
            var value: UInt64 = 0
            for index in position..<(position + size) { value = value << 8 | UInt64(bytes[index]) }
            position += size
            if size == 4 { return Int64(Int32(bitPattern: UInt32(truncatingIfNeeded: value))) }
            return Int64(bitPattern: value)
        }

        mutating func header() throws(ZoneError) -> Header {
            try need(44)
            guard bytes[position..<(position + 4)].elementsEqual("TZif".utf8) else {
                throw .malformed(path: path, reason: "no \"TZif\" magic at byte \(position)")
            }
            let version = bytes[position + 4]
            position += 20
            var counts: [Int] = []
            for _ in 0..<6 {
                let count = try integer(size: 4)
                guard count >= 0 else { throw .malformed(path: path, reason: "a negative count in the header") }
                counts.append(Int(count))
            }
            guard counts[4] >= 1 else { throw .malformed(path: path, reason: "no local time types") }
            return Header(version: version, isUTCCount: counts[0], isStandardCount: counts[1], leapCount: counts[2],
                          timeCount: counts[3], typeCount: counts[4], charCount: counts[5])
        }

        mutating func block(_ header: Header, timeSize: Int) throws(ZoneError)
            -> (transitions: [Int64], typeIndices: [Int], types: [LocalTimeType], isStandard: [Bool], isUT: [Bool]) {
            try need(header.blockLength(timeSize: timeSize))
            var transitions: [Int64] = []
            transitions.reserveCapacity(header.timeCount)
            for _ in 0..<header.timeCount {
                let instant = try integer(size: timeSize)
                if let previous = transitions.last, instant <= previous {
                    throw .malformed(path: path, reason: "transition times are not ascending")
                }
                transitions.append(instant)
            }
            var typeIndices: [Int] = []
            typeIndices.reserveCapacity(header.timeCount)
            for _ in 0..<header.timeCount {
                let index = Int(try byte())
                guard index < header.typeCount else { throw .malformed(path: path, reason: "a transition names type \(index) of \(header.typeCount)") }
                typeIndices.append(index)
            }
            var raw: [(offset: Int, isDST: Bool, designation: Int)] = []
            for _ in 0..<header.typeCount {
                let offset = Int(try integer(size: 4))
                let isDST = try byte() != 0
                let designation = Int(try byte())
                guard designation < header.charCount else { throw .malformed(path: path, reason: "a designation index past the end") }
                raw.append((offset, isDST, designation))
            }
            let chars = Array(bytes[position..<(position + header.charCount)])
            position += header.charCount
            let types = raw.map { entry in
                let tail = chars[entry.designation...]
                let name = tail.prefix { $0 != 0 }
                return LocalTimeType(utcOffset: entry.offset, isDaylightSavingTime: entry.isDST,
                                     abbreviation: String(decoding: name, as: UTF8.self))
            }
            // Leap-second records are not applied.
            position += header.leapCount * (timeSize + 4)
            // The indicators: one byte per type when present (a count of 0 means all false).
            func indicators(_ count: Int) -> [Bool] {
                let read = bytes[position..<(position + min(count, header.typeCount))].map { $0 != 0 }
                position += count
                return read + Array(repeating: false, count: header.typeCount - read.count)
            }
            let isStandard = indicators(header.isStandardCount)
            let isUT = indicators(header.isUTCCount)
            return (transitions, typeIndices, types, isStandard, isUT)
        }
    }
}
