import Foundation

/// The position of each id in a list of ids, looked up as `[String: Int]` looks up (ids equal as Swift
/// strings are equal, canonical equivalence included) but faster for the ids surveys use. Sessions look up
/// the question an action names on every step, and Swift's seeded string hashing is much of that cost.
///
/// When every id is ASCII the index is an open-addressing table keyed by an FNV-1a hash of the bytes: an
/// ASCII string is its own normal form, so byte equality is string equality. A looked-up id that is not
/// ASCII can still equal an ASCII id (U+212A KELVIN SIGN is "K"), so it is first brought to its canonical
/// composition. An index with any non-ASCII id is a plain dictionary.
public struct IDIndex: Sendable {
    private enum Storage: Sendable {
        /// `buckets[i]` is 0 when empty, else the entry's position + 1 in the low 32 bits and the top 32
        /// bits of its hash in the high ones.
        case ascii(buckets: [UInt64], ids: [String], positions: [Int32])
        case dictionary([String: Int])
    }

    private let storage: Storage
    /// How many ids were indexed (the first position of each distinct id is kept).
    public let count: Int

    /// Indexes `ids`, keeping each id's first position; also returns the positions of later repeats, with
    /// the position of the id's first occurrence.
    public static func build(_ ids: [String]) -> (index: IDIndex, repeats: [(position: Int, first: Int)]) {
        let hashes = ids.map(asciiHash)
        guard ids.count < Int(Int32.max), !hashes.contains(nil) else {
            var dictionary = [String: Int](minimumCapacity: ids.count)
            var repeats: [(Int, Int)] = []
            for (position, id) in ids.enumerated() {
                if let first = dictionary[id] { repeats.append((position, first)) } else { dictionary[id] = position }
            }
            return (IDIndex(storage: .dictionary(dictionary), count: dictionary.count), repeats)
        }
        var capacity = 8
        while capacity < ids.count * 2 { capacity *= 2 }
        var buckets = [UInt64](repeating: 0, count: capacity)
        var kept: [String] = []
        var positions: [Int32] = []
        kept.reserveCapacity(ids.count)
        positions.reserveCapacity(ids.count)
        var repeats: [(Int, Int)] = []
        for (position, id) in ids.enumerated() {
            let hash = hashes[position]!
            let (bucket, entry) = probe(id, hash: hash, buckets: buckets, ids: kept)
            if let entry {
                repeats.append((position, Int(positions[entry])))
                continue
            }
            buckets[bucket] = (hash & 0xFFFF_FFFF_0000_0000) | UInt64(kept.count + 1)
            kept.append(id)
            positions.append(Int32(position))
        }
        return (IDIndex(storage: .ascii(buckets: buckets, ids: kept, positions: positions), count: kept.count), repeats)
    }

    private init(storage: Storage, count: Int) {
        self.storage = storage
        self.count = count
    }

    /// The first position of `id`, or nil.
    public subscript(id: String) -> Int? {
        switch storage {
        case .dictionary(let dictionary):
            return dictionary[id]
        case .ascii(let buckets, let ids, let positions):
            guard let hash = IDIndex.asciiHash(id) else {
                let composed = id.precomposedStringWithCanonicalMapping
                return IDIndex.asciiHash(composed) != nil ? self[composed] : nil
            }
            return IDIndex.probe(id, hash: hash, buckets: buckets, ids: ids).entry.map { Int(positions[$0]) }
        }
    }

    /// Where `id` is in the table: its entry, or nil and the empty bucket where it would go (linear
    /// probing from its hash's bucket; the table is at most half full, so an empty bucket is near).
    private static func probe(_ id: String, hash: UInt64, buckets: [UInt64], ids: [String]) -> (bucket: Int, entry: Int?) {
        let mask = buckets.count - 1
        var bucket = Int(truncatingIfNeeded: hash) & mask
        while buckets[bucket] != 0 {
            let entry = Int(buckets[bucket] & 0xFFFF_FFFF) - 1
            if buckets[bucket] >> 32 == hash >> 32, ids[entry] == id { return (bucket, entry) }
            bucket = (bucket + 1) & mask
        }
        return (bucket, nil)
    }

    /// FNV-1a over the bytes of an ASCII id, finished with a mix so that the low bits (the bucket) depend
    /// on every byte; nil when the id is not ASCII.
    private static func asciiHash(_ id: String) -> UInt64? {
        func hash(_ bytes: some Sequence<UInt8>) -> UInt64? {
            var hash: UInt64 = 0xCBF2_9CE4_8422_2325
            var bits: UInt8 = 0
            for byte in bytes {
                bits |= byte
                hash ^= UInt64(byte)
                hash &*= 0x0000_0100_0000_01B3
            }
            return bits < 0x80 ? StableHash.mix(hash) : nil
        }
        // Native strings (small ones included) lend their bytes directly; walking the view is far slower.
        return id.utf8.withContiguousStorageIfAvailable { hash($0) } ?? hash(id.utf8)
    }
}
