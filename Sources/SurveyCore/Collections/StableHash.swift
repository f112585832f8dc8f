/// Hashes that are the same in every process and on every machine (Swift's `Hasher` is seeded per
/// process): FNV-1a for text, and SplitMix64's finalizer for numbers.
public enum StableHash {
    public static func of(_ parts: [String]) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for part in parts { add(part, to: &hash) }
        return hash
    }

    /// `of([text])`, without the list.
    public static func of(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        add(text, to: &hash)
        return hash
    }

    /// FNV-1a over the text's UTF-8 bytes, then a separator: read in place when the string keeps them
    /// together, as native strings do (stepping through `utf8` costs several times as much a byte).
    private static func add(_ part: String, to hash: inout UInt64) {
        func add<Bytes: Sequence<UInt8>>(_ bytes: Bytes) {
            for byte in bytes {
                hash ^= UInt64(byte)
                hash &*= 0x0000_0100_0000_01B3
            }
        }
        if part.utf8.withContiguousStorageIfAvailable(add) == nil { add(part.utf8) }
        hash ^= 0xFF
        hash &*= 0x0000_0100_0000_01B3
    }

    public static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A session's `viewFingerprint`: its visible list's fingerprint, the current question's position in
    /// that list (nil when none is current) and whether Submit can be tapped.
    public static func view(visible: UInt64, currentPosition: Int?, submittable: Bool) -> UInt64 {
        view(visible: visible, currentPlace: UInt64(bitPattern: Int64(currentPosition ?? -1)), submittable: submittable)
    }

    /// The same with the current question's place as any number that tells places in one visible list apart
    /// (its position, or a hash of its id, which a session may keep where the position would be counted).
    public static func view(visible: UInt64, currentPlace: UInt64, submittable: Bool) -> UInt64 {
        visible ^ mix(currentPlace ^ 0x5EED) ^ (submittable ? 0x5B5B_5B5B : 0)
    }
}
