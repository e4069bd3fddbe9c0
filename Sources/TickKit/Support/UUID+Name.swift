import FoundationEssentials

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

    /// Parses the canonical 8-4-4-4-12 hex form (any case) without
    /// Foundation's scanf-based parser: the index reads 100,000s of them.
    public init?(fastString text: String) {
        var text = text
        guard let parsed = text.withUTF8({ UUID(fastBytes: $0) }) else { return nil }
        self = parsed
    }

    /// ``init(fastString:)`` on UTF-8 bytes (SQLite's own, with no String made).
    public init?(fastBytes text: UnsafeBufferPointer<UInt8>) {
        guard text.count == 36 else { return nil }
        var bytes = (UInt64(0), UInt64(0))
        var count = 0
        for c in text {
            let v: UInt64
            switch c {
            case 0x30...0x39: v = UInt64(c - 0x30)
            case 0x61...0x66: v = UInt64(c - 0x61 + 10)
            case 0x41...0x46: v = UInt64(c - 0x41 + 10)
            case 0x2D:
                guard count == 8 || count == 12 || count == 16 || count == 20 else { return nil }
                continue
            default: return nil
            }
            if count < 16 { bytes.0 = bytes.0 << 4 | v } else { bytes.1 = bytes.1 << 4 | v }
            count += 1
            if count > 32 { return nil }
        }
        guard count == 32 else { return nil }
        let a = bytes.0.bigEndian, b = bytes.1.bigEndian
        let u = withUnsafeBytes(of: (a, b)) { raw in
            (raw[0], raw[1], raw[2], raw[3], raw[4], raw[5], raw[6], raw[7],
             raw[8], raw[9], raw[10], raw[11], raw[12], raw[13], raw[14], raw[15])
        }
        self.init(uuid: u)
    }

    /// The lowercase form tick writes to files (8-4-4-4-12 hex digits),
    /// written directly: `uuidString` formats with `snprintf` and then
    /// needs lowercasing, and the index writes 100,000s of these.
    public var lowercased: String {
        withUnsafeBytes(of: uuid) { raw in
            String(unsafeUninitializedCapacity: 36) { out in
                let hex: StaticString = "0123456789abcdef"
                let digits = hex.utf8Start
                var o = 0
                for i in 0..<16 {
                    if i == 4 || i == 6 || i == 8 || i == 10 {
                        out[o] = 0x2D
                        o += 1
                    }
                    out[o] = digits[Int(raw[i] >> 4)]
                    out[o + 1] = digits[Int(raw[i] & 0x0F)]
                    o += 2
                }
                return o
            }
        }
    }
}
