import FoundationEssentials

/// Typed reads of the values in a parsed store file, for the decoders of
/// list files and of `blocks.json`. Every error points at the value's
/// file:line:column.
struct JSONFieldReader {
    let bytes: [UInt8]
    /// The path shown in messages.
    let path: String

    /// An error at a byte offset (none when negative).
    func error(at offset: Int, _ message: String) -> FormatError {
        FormatError(path: path, location: offset >= 0 ? SourceLocation(offset: offset, in: bytes) : nil, message: message)
    }

    /// The members of an object; a duplicate key is an error.
    func members(of node: JSONNode, what: String) throws(FormatError) -> [JSONMember] {
        guard case .object(let members) = node.kind else {
            throw error(at: node.offset, "\(what) must be an object, found \(node.typeName)")
        }
        if members.count > 24 {
            var seen = Set<String>()
            for m in members where !seen.insert(m.key).inserted {
                throw error(at: m.keyOffset, "duplicate key \"\(m.key)\" in \(what)")
            }
            return members
        }
        // A task has a dozen keys: comparing them pairwise costs less than
        // hashing them into a set (reindexing reads 100,000s of objects).
        for i in members.indices.dropFirst() {
            let key = members[i].key
            let count = key.utf8.count
            for j in 0..<i where members[j].key.utf8.count == count && members[j].key == key {
                throw error(at: members[i].keyOffset, "duplicate key \"\(key)\" in \(what)")
            }
        }
        return members
    }

    func string(_ v: JSONNode, key: String) throws(FormatError) -> String {
        guard case .string(let s) = v.kind else {
            throw error(at: v.offset, "\"\(key)\" must be a string, found \(v.typeName)")
        }
        return s
    }

    func uuid(_ v: JSONNode, key: String) throws(FormatError) -> UUID {
        let s = try string(v, key: key)
        guard let u = UUID(fastString: s) ?? UUID(uuidString: s) else {
            throw error(at: v.offset, "\"\(key)\" must be a UUID like \"6b1c7e2a-940d-4f3b-8e51-2f60a7d319c4\" (found \"\(s)\")")
        }
        return u
    }

    func timestamp(_ v: JSONNode, key: String) throws(FormatError) -> Date {
        let s = try string(v, key: key)
        guard let d = Timestamp.parse(s) else {
            throw error(at: v.offset, "\"\(key)\" must be an ISO 8601 timestamp like \"2026-11-21T07:20:25Z\" (found \"\(s)\")")
        }
        return d
    }

    func enumValue<E: RawRepresentable & CaseIterable>(_ v: JSONNode, key: String) throws(FormatError) -> E where E.RawValue == String {
        let s = try string(v, key: key)
        guard let e = E(rawValue: s) else {
            let allowed = E.allCases.map(\.rawValue).joined(separator: ", ")
            throw error(at: v.offset, "\"\(key)\" must be one of \(allowed) (found \"\(s)\")")
        }
        return e
    }

    /// A string `parse` reads; else "\"KEY\" must be WHAT (found \"…\")".
    func parsed<T>(_ v: JSONNode, key: String, _ parse: (String) -> T?, or what: String) throws(FormatError) -> T {
        let s = try string(v, key: key)
        guard let value = parse(s) else { throw error(at: v.offset, "\"\(key)\" must be \(what) (found \"\(s)\")") }
        return value
    }

    /// A whole number of minutes in `1...max`.
    func minutes(_ v: JSONNode, key: String, max: Int) throws(FormatError) -> Int {
        guard case .number(let text) = v.kind, let n = Int(text), (1...max).contains(n) else {
            throw error(at: v.offset, "\"\(key)\" must be a whole number of minutes from 1 to \(max), like 45")
        }
        return n
    }
}
