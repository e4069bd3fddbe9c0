/// FNV-1a, a fast non-cryptographic hash for keys and content fingerprints.
public enum FNV1a {
    /// The 64-bit FNV-1a hash of `bytes`.
    public static func hash64<S: Sequence>(_ bytes: S) -> UInt64 where S.Element == UInt8 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes {
            h ^= UInt64(b)
            h = h &* 0x0000_0100_0000_01B3
        }
        return h
    }

    /// The hash as 16 lowercase hex digits.
    public static func hex64<S: Sequence>(_ bytes: S) -> String where S.Element == UInt8 {
        let s = String(hash64(bytes), radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }
}
