/// Writes JSON in tick's canonical layout.
///
/// Rules: 2-space indent; one object member per line; arrays whose items are
/// all scalars on one line (`["a", "b"]`); arrays holding objects or arrays one
/// item per block; `/` and non-ASCII never escaped; a trailing newline.
public enum JSONWriter {
    /// Serializes a document, with a trailing newline.
    public static func write(_ node: JSONNode) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(4096)
        write(node, indent: 0, into: &out)
        out.append(0x0A)
        return out
    }

    /// Serializes a value at the given indent level, without a trailing newline.
    public static func write(_ node: JSONNode, indent: Int, into out: inout [UInt8]) {
        switch node.kind {
        case .null: out.append(contentsOf: Array("null".utf8))
        case .bool(let b): out.append(contentsOf: Array((b ? "true" : "false").utf8))
        case .number(let n): out.append(contentsOf: Array(n.utf8))
        case .string(let s): writeString(s, into: &out)
        case .array(let items):
            if items.isEmpty {
                out.append(contentsOf: [0x5B, 0x5D])
            } else if items.allSatisfy(\.isScalar) {
                out.append(0x5B)
                for (i, item) in items.enumerated() {
                    if i > 0 { out.append(contentsOf: [0x2C, 0x20]) }
                    write(item, indent: indent, into: &out)
                }
                out.append(0x5D)
            } else {
                out.append(contentsOf: [0x5B, 0x0A])
                for (i, item) in items.enumerated() {
                    appendIndent(indent + 1, into: &out)
                    write(item, indent: indent + 1, into: &out)
                    if i < items.count - 1 { out.append(0x2C) }
                    out.append(0x0A)
                }
                appendIndent(indent, into: &out)
                out.append(0x5D)
            }
        case .object(let members):
            if members.isEmpty {
                out.append(contentsOf: [0x7B, 0x7D])
                return
            }
            out.append(contentsOf: [0x7B, 0x0A])
            for (i, member) in members.enumerated() {
                appendIndent(indent + 1, into: &out)
                writeString(member.key, into: &out)
                out.append(contentsOf: [0x3A, 0x20])
                write(member.value, indent: indent + 1, into: &out)
                if i < members.count - 1 { out.append(0x2C) }
                out.append(0x0A)
            }
            appendIndent(indent, into: &out)
            out.append(0x7D)
        }
    }

    private static func appendIndent(_ level: Int, into out: inout [UInt8]) {
        for _ in 0..<(level * 2) { out.append(0x20) }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Writes a JSON string literal, escaping only `"`, `\` and control characters.
    public static func writeString(_ s: String, into out: inout [UInt8]) {
        out.append(0x22)
        for b in s.utf8 {
            switch b {
            case 0x22: out.append(contentsOf: [0x5C, 0x22])
            case 0x5C: out.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: out.append(contentsOf: [0x5C, 0x6E])
            case 0x0D: out.append(contentsOf: [0x5C, 0x72])
            case 0x09: out.append(contentsOf: [0x5C, 0x74])
            case 0x08: out.append(contentsOf: [0x5C, 0x62])
            case 0x0C: out.append(contentsOf: [0x5C, 0x66])
            case 0x00..<0x20, 0x7F:
                out.append(contentsOf: Array("\\u00".utf8))
                out.append(hexDigits[Int(b >> 4)])
                out.append(hexDigits[Int(b & 0xF)])
            default: out.append(b)
            }
        }
        out.append(0x22)
    }
}

extension JSONNode {
    /// True for null, booleans, numbers and strings.
    public var isScalar: Bool {
        switch kind {
        case .array, .object: return false
        default: return true
        }
    }
}
