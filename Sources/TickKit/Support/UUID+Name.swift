import Foundation

extension UUID {
    /// tick's namespace for name-based ids.
    public static let tickNamespace = UUID(uuid: (0x6b, 0x1c, 0x7e, 0x2a, 0x94, 0x0d, 0x4f, 0x3b, 0x8e, 0x51, 0x2f, 0x60, 0xa7, 0xd3, 0x19, 0xc4))

    /// A name-based UUID (RFC 9562 version 5): the same name always gives the same id.
    public init(name: String, namespace: UUID = .tickNamespace) {
        var bytes: [UInt8] = withUnsafeBytes(of: namespace.uuid) { Array($0) }
        bytes.append(contentsOf: Array(name.utf8))
        var d = SHA1.digest(bytes)
        d[6] = (d[6] & 0x0F) | 0x50
        d[8] = (d[8] & 0x3F) | 0x80
        self.init(uuid: (d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7], d[8], d[9], d[10], d[11], d[12], d[13], d[14], d[15]))
    }

    /// The lowercase form tick writes to files.
    public var lowercased: String { uuidString.lowercased() }
}
