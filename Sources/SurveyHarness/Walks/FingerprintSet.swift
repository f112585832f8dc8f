/// A set of fingerprints (stable hashes, already mixed), for counting the distinct paths and visible lists of
/// a fuzz run, which looks one up at most steps: open addressing on the fingerprint's own bits, where a
/// `Set<UInt64>` would hash each again.
struct FingerprintSet {
    /// Each slot holds a fingerprint if `occupied` says so; never more than half of them do.
    private var slots: [UInt64]
    private var occupied: [Bool]
    private(set) var count = 0

    /// Room for `capacity` fingerprints before the table grows.
    init(capacity: Int = 0) {
        var size = 64
        while size < capacity * 2 { size *= 2 }
        slots = Array(repeating: 0, count: size)
        occupied = Array(repeating: false, count: size)
    }

    mutating func insert(_ fingerprint: UInt64) {
        var slot = Int(truncatingIfNeeded: fingerprint) & (slots.count - 1)
        while occupied[slot] {
            if slots[slot] == fingerprint { return }
            slot = (slot + 1) & (slots.count - 1)
        }
        slots[slot] = fingerprint
        occupied[slot] = true
        count += 1
        if count * 2 > slots.count {
            let held = slots.indices.filter { occupied[$0] }.map { slots[$0] }
            self = FingerprintSet(capacity: slots.count)
            for fingerprint in held { insert(fingerprint) }
        }
    }
}
