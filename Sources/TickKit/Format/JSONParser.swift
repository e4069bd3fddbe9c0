/// A strict RFC 8259 JSON parser that keeps member order, number text and
/// byte offsets, so errors can point at `line:column`.
public struct JSONParser {
    private let bytes: [UInt8]
    private var pos = 0
    private var depth = 0
    /// True when the whole input is valid UTF-8, so strings need no check of their own.
    private var validUTF8 = false
    private static let maxDepth = 256

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Parses a complete JSON document.
    public static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONNode {
        var parser = JSONParser(bytes: bytes)
        parser.validUTF8 = bytes.withUnsafeBufferPointer { String(validating: $0, as: UTF8.self) != nil }
        // A UTF-8 byte order mark is tolerated.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.pos = 3 }
        parser.skipWhitespace()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        if parser.pos < bytes.count {
            throw JSONSyntaxError(offset: parser.pos, message: "unexpected \(parser.describeCurrent()) after the end of the JSON value")
        }
        return value
    }

    /// Parses a JSON document from a string.
    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONNode {
        try parse(Array(text.utf8))
    }

    private mutating func skipWhitespace() {
        while pos < bytes.count {
            switch bytes[pos] {
            case 0x20, 0x0A, 0x0D, 0x09: pos += 1
            default: return
            }
        }
    }

    private func describeCurrent() -> String {
        guard pos < bytes.count else { return "end of file" }
        let b = bytes[pos]
        if b >= 0x21 && b < 0x7F { return "'\(Character(Unicode.Scalar(b)))'" }
        return "byte 0x\(String(b, radix: 16))"
    }

    private func fail(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(offset: pos, message: message)
    }

    private mutating func parseValue() throws(JSONSyntaxError) -> JSONNode {
        guard pos < bytes.count else { throw fail("unexpected end of file; expected a value") }
        let start = pos
        switch bytes[pos] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return JSONNode(.string(try parseString()), offset: start)
        case UInt8(ascii: "t"): try expectLiteral("true"); return JSONNode(.bool(true), offset: start)
        case UInt8(ascii: "f"): try expectLiteral("false"); return JSONNode(.bool(false), offset: start)
        case UInt8(ascii: "n"): try expectLiteral("null"); return JSONNode(.null, offset: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return JSONNode(.number(try parseNumber()), offset: start)
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
            throw fail("unexpected \(describeCurrent()); expected a value (is there a trailing comma before it?)")
        case UInt8(ascii: "'"):
            throw fail("strings must use double quotes, not single quotes")
        default:
            throw fail("unexpected \(describeCurrent()); expected a value")
        }
    }

    private mutating func expectLiteral(_ word: StaticString) throws(JSONSyntaxError) {
        let start = pos
        let count = word.utf8CodeUnitCount
        let ok = word.withUTF8Buffer { lit -> Bool in
            guard start + count <= bytes.count else { return false }
            for i in 0..<count where bytes[start + i] != lit[i] { return false }
            return true
        }
        guard ok else { throw fail("invalid literal; expected \(word)") }
        pos += count
    }

    private mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth > Self.maxDepth { throw fail("nesting deeper than \(Self.maxDepth) levels") }
    }

    private mutating func parseObject() throws(JSONSyntaxError) -> JSONNode {
        let start = pos
        try enter()
        pos += 1
        var members: [JSONMember] = []
        skipWhitespace()
        if pos < bytes.count, bytes[pos] == UInt8(ascii: "}") {
            pos += 1
            depth -= 1
            return JSONNode(.object(members), offset: start)
        }
        while true {
            skipWhitespace()
            guard pos < bytes.count else { throw fail("unexpected end of file inside an object; expected '}'") }
            guard bytes[pos] == UInt8(ascii: "\"") else {
                if bytes[pos] == UInt8(ascii: "}") { throw fail("trailing comma before '}'") }
                throw fail("expected a key in double quotes, found \(describeCurrent())")
            }
            let keyOffset = pos
            let key = try parseString()
            skipWhitespace()
            guard pos < bytes.count, bytes[pos] == UInt8(ascii: ":") else {
                throw fail("expected ':' after the key \"\(key)\", found \(describeCurrent())")
            }
            pos += 1
            skipWhitespace()
            let value = try parseValue()
            members.append(JSONMember(key, value, keyOffset: keyOffset))
            skipWhitespace()
            guard pos < bytes.count else { throw fail("unexpected end of file inside an object; expected ',' or '}'") }
            if bytes[pos] == UInt8(ascii: ",") {
                pos += 1
                continue
            }
            if bytes[pos] == UInt8(ascii: "}") {
                pos += 1
                depth -= 1
                return JSONNode(.object(members), offset: start)
            }
            throw fail("expected ',' or '}' after the value of \"\(key)\", found \(describeCurrent()) (missing comma?)")
        }
    }

    private mutating func parseArray() throws(JSONSyntaxError) -> JSONNode {
        let start = pos
        try enter()
        pos += 1
        var items: [JSONNode] = []
        skipWhitespace()
        if pos < bytes.count, bytes[pos] == UInt8(ascii: "]") {
            pos += 1
            depth -= 1
            return JSONNode(.array(items), offset: start)
        }
        while true {
            skipWhitespace()
            if pos < bytes.count, bytes[pos] == UInt8(ascii: "]") { throw fail("trailing comma before ']'") }
            items.append(try parseValue())
            skipWhitespace()
            guard pos < bytes.count else { throw fail("unexpected end of file inside an array; expected ',' or ']'") }
            if bytes[pos] == UInt8(ascii: ",") {
                pos += 1
                continue
            }
            if bytes[pos] == UInt8(ascii: "]") {
                pos += 1
                depth -= 1
                return JSONNode(.array(items), offset: start)
            }
            throw fail("expected ',' or ']' in array, found \(describeCurrent()) (missing comma?)")
        }
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> String {
        let start = pos
        if bytes[pos] == UInt8(ascii: "-") { pos += 1 }
        guard pos < bytes.count, isDigit(bytes[pos]) else { throw fail("invalid number") }
        if bytes[pos] == UInt8(ascii: "0") {
            pos += 1
            if pos < bytes.count, isDigit(bytes[pos]) { throw fail("numbers must not have leading zeros") }
        } else {
            while pos < bytes.count, isDigit(bytes[pos]) { pos += 1 }
        }
        if pos < bytes.count, bytes[pos] == UInt8(ascii: ".") {
            pos += 1
            guard pos < bytes.count, isDigit(bytes[pos]) else { throw fail("invalid number: expected a digit after '.'") }
            while pos < bytes.count, isDigit(bytes[pos]) { pos += 1 }
        }
        if pos < bytes.count, bytes[pos] == UInt8(ascii: "e") || bytes[pos] == UInt8(ascii: "E") {
            pos += 1
            if pos < bytes.count, bytes[pos] == UInt8(ascii: "+") || bytes[pos] == UInt8(ascii: "-") { pos += 1 }
            guard pos < bytes.count, isDigit(bytes[pos]) else { throw fail("invalid number: expected a digit in the exponent") }
            while pos < bytes.count, isDigit(bytes[pos]) { pos += 1 }
        }
        return String(decoding: bytes[start..<pos], as: UTF8.self)
    }

    private func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        let open = pos
        pos += 1
        let start = pos
        var hasEscape = false
        while true {
            guard pos < bytes.count else {
                pos = open
                throw fail("unterminated string")
            }
            let b = bytes[pos]
            if b == UInt8(ascii: "\"") { break }
            if b == UInt8(ascii: "\\") {
                hasEscape = true
                pos += 2
                continue
            }
            if b < 0x20 {
                throw fail(b == 0x0A ? "unterminated string (a raw newline is not allowed; write \\n)" : "control character in string; escape it")
            }
            pos += 1
        }
        let end = pos
        pos += 1
        if !hasEscape {
            if validUTF8 {
                return bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[start..<end]), as: UTF8.self) }
            }
            guard let s = String(validating: bytes[start..<end], as: UTF8.self) else {
                pos = start
                throw fail("invalid UTF-8 in string")
            }
            return s
        }
        return try unescape(start, end)
    }

    private mutating func unescape(_ start: Int, _ end: Int) throws(JSONSyntaxError) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(end - start)
        var i = start
        while i < end {
            let b = bytes[i]
            guard b == UInt8(ascii: "\\") else {
                out.append(b)
                i += 1
                continue
            }
            guard i + 1 < end else { pos = i; throw fail("invalid escape") }
            let e = bytes[i + 1]
            i += 2
            switch e {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4(at: i, end: end)
                i += 4
                if (0xD800...0xDBFF).contains(scalar) {
                    guard i + 6 <= end, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
                        pos = i
                        throw fail("unpaired UTF-16 surrogate in \\u escape")
                    }
                    let low = try hex4(at: i + 2, end: end)
                    guard (0xDC00...0xDFFF).contains(low) else { pos = i; throw fail("invalid UTF-16 low surrogate") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    i += 6
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    pos = i
                    throw fail("unpaired UTF-16 surrogate in \\u escape")
                }
                guard let u = Unicode.Scalar(scalar) else { pos = i; throw fail("invalid \\u escape") }
                out.append(contentsOf: Array(String(Character(u)).utf8))
            default:
                pos = i - 2
                throw fail("invalid escape '\\\(Character(Unicode.Scalar(e)))'")
            }
        }
        guard let s = String(validating: out, as: UTF8.self) else {
            pos = start
            throw fail("invalid UTF-8 in string")
        }
        return s
    }

    private mutating func hex4(at i: Int, end: Int) throws(JSONSyntaxError) -> UInt32 {
        guard i + 4 <= end else { pos = i; throw fail("\\u escape needs 4 hex digits") }
        var v: UInt32 = 0
        for k in 0..<4 {
            let c = bytes[i + k]
            let d: UInt32
            switch c {
            case 0x30...0x39: d = UInt32(c - 0x30)
            case 0x41...0x46: d = UInt32(c - 0x41 + 10)
            case 0x61...0x66: d = UInt32(c - 0x61 + 10)
            default: pos = i + k; throw fail("\\u escape needs 4 hex digits")
            }
            v = v << 4 | d
        }
        return v
    }
}
