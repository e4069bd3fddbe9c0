/// A parsed JSON value that remembers where it came from.
///
/// Objects keep their members in source order, and numbers keep their exact
/// source text, so that values tick does not understand (unknown keys) are
/// written back exactly as the user wrote them.
public struct JSONNode: Sendable {
    /// The value itself.
    public indirect enum Kind: Sendable {
        case null
        case bool(Bool)
        /// The number's literal text, kept verbatim.
        case number(String)
        case string(String)
        case array([JSONNode])
        case object([JSONMember])
    }

    public var kind: Kind
    /// Byte offset of the value in its source, or -1 for values built in code.
    public var offset: Int

    public init(_ kind: Kind, offset: Int = -1) {
        self.kind = kind
        self.offset = offset
    }

    public static func string(_ s: String) -> JSONNode { JSONNode(.string(s)) }
    public static func object(_ members: [JSONMember]) -> JSONNode { JSONNode(.object(members)) }
    public static func array(_ items: [JSONNode]) -> JSONNode { JSONNode(.array(items)) }

    /// A short name of the value's JSON type, for error messages.
    public var typeName: String {
        switch kind {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

/// One `"key": value` pair of a JSON object.
public struct JSONMember: Sendable {
    public var key: String
    public var keyOffset: Int
    public var value: JSONNode

    public init(_ key: String, _ value: JSONNode, keyOffset: Int = -1) {
        self.key = key
        self.value = value
        self.keyOffset = keyOffset
    }
}

extension JSONNode: Equatable {
    /// Structural equality; source offsets are ignored.
    public static func == (lhs: JSONNode, rhs: JSONNode) -> Bool {
        switch (lhs.kind, rhs.kind) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.number(a), .number(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)): return a == b
        default: return false
        }
    }
}

extension JSONMember: Equatable {
    public static func == (lhs: JSONMember, rhs: JSONMember) -> Bool {
        lhs.key == rhs.key && lhs.value == rhs.value
    }
}
