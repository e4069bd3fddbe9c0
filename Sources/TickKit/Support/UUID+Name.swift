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
        // Dashes at 8, 13, 18 and 23; 32 hex digits between them, read in a
        // fixed walk and checked once at the end (a listing parses one per row).
        guard text.count == 36, let base = text.baseAddress,
              base[8] == 0x2D, base[13] == 0x2D, base[18] == 0x2D, base[23] == 0x2D
        else { return nil }
        var high: UInt64 = 0, low: UInt64 = 0
        var bad: UInt8 = 0
        var i = 0
        for n in 0..<32 {
            if i == 8 || i == 13 || i == 18 || i == 23 { i += 1 }
            let v = UUID.hexValue(base[i])
            bad |= v
            if n < 16 { high = high << 4 | UInt64(v & 0x0F) } else { low = low << 4 | UInt64(v & 0x0F) }
            i += 1
        }
        guard bad & 0xF0 == 0 else { return nil }
        let a = high.bigEndian, b = low.bigEndian
        let u = withUnsafeBytes(of: (a, b)) { raw in
            (raw[0], raw[1], raw[2], raw[3], raw[4], raw[5], raw[6], raw[7],
             raw[8], raw[9], raw[10], raw[11], raw[12], raw[13], raw[14], raw[15])
        }
        self.init(uuid: u)
    }

    /// A hex digit's value (either case), or 0xFF for any other byte.
    @inline(__always)
    static func hexValue(_ c: UInt8) -> UInt8 {
        switch c {
        case 0x30...0x39: c &- 0x30
        case 0x61...0x66: c &- 0x61 &+ 10
        case 0x41...0x46: c &- 0x41 &+ 10
        default: 0xFF
        }
    }

    /// Two numbers that order ids as their `uuidString`s order (byte by
    /// byte), for sorting without formatting a string per comparison.
    public var orderKey: (UInt64, UInt64) {
        withUnsafeBytes(of: uuid) { raw in
            (UInt64(bigEndian: raw.loadUnaligned(as: UInt64.self)), UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
        }
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
