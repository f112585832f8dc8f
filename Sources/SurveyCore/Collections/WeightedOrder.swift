/// Distinct elements (small integers the caller assigns) in an order that changes by runs inserted or
/// removed together, each with four weights of 0 to 3. It answers how much weight of a kind lies before an
/// element, which element the running weight of a kind reaches `k` at, and which of two elements comes
/// first, in O(log c + B) for c chunks of at most B elements; inserting or removing a run costs O(B + run)
/// more, and O(c) when a chunk splits or empties. Sessions keep their instances in document order in one,
/// with weights such as "on screen" and "a question on screen", so walks pick the k-th question shown and
/// find the current one's place without building any list. A copy shares its storage until it changes, a
/// chunk at a time: an element's weights are kept in a byte apart from its place, so a copy that reweights
/// an element copies a chunk of bytes, and queries scan bytes.
public struct WeightedOrder: Sendable {
    public typealias Weights = SIMD4<Int32>

    /// How full a chunk is made, and how full it may grow before it splits.
    static let fill = 128
    static let limit = 256

    /// Where an element is.
    @usableFromInline struct Entry: Sendable {
        /// The id of the chunk holding the element; -1 when it is not in the order.
        @usableFromInline var chunk: Int32 = -1
        @usableFromInline var offset: Int32 = 0

        @inlinable init() {}

        @inlinable init(chunk: Int32, offset: Int32) {
            self.chunk = chunk
            self.offset = offset
        }
    }

    /// Where the order's lists are kept: one reference, so that a copy of the order (which sessions make as
    /// they read it out of their state) retains one object rather than each list. A change of an order whose
    /// box another copy shares gives it a box of its own first, holding the same lists, which still share
    /// their storage until they change.
    @usableFromInline final class Storage: @unchecked Sendable {
        /// Chunks in order, as element lists, and the stable id of each.
        @usableFromInline @exclusivity(unchecked) var chunks: [[Int32]] = []
        @usableFromInline @exclusivity(unchecked) var chunkIDs: [Int32] = []
        /// The position of each chunk id in `chunks`.
        @usableFromInline @exclusivity(unchecked) var positionOfChunk: [Int32] = []
        /// A Fenwick tree over the chunks' weight sums (1-based): the one array a change of weights touches,
        /// so a copy that changes weights copies little.
        @usableFromInline @exclusivity(unchecked) var tree: [Weights] = [.zero]
        @usableFromInline @exclusivity(unchecked) var entries = ChunkedArray<Entry>()
        /// Each element's weights, two bits a kind (`packed`); zero for an element not in the order.
        @usableFromInline @exclusivity(unchecked) var packedWeights = ChunkedArray<UInt8>()

        @usableFromInline init() {}

        @usableFromInline init(sharing other: Storage) {
            chunks = other.chunks
            chunkIDs = other.chunkIDs
            positionOfChunk = other.positionOfChunk
            tree = other.tree
            entries = other.entries
            packedWeights = other.packedWeights
        }
    }

    @usableFromInline var storage = Storage()

    /// The box, made this order's own before a change.
    @inlinable var ownStorage: Storage {
        mutating get {
            if !isKnownUniquelyReferenced(&storage) { storage = Storage(sharing: storage) }
            return storage
        }
    }

    @inlinable var chunks: [[Int32]] {
        _read { yield storage.chunks }
        _modify { yield &ownStorage.chunks }
    }

    @inlinable var chunkIDs: [Int32] {
        _read { yield storage.chunkIDs }
        _modify { yield &ownStorage.chunkIDs }
    }

    @inlinable var positionOfChunk: [Int32] {
        _read { yield storage.positionOfChunk }
        _modify { yield &ownStorage.positionOfChunk }
    }

    @inlinable var tree: [Weights] {
        _read { yield storage.tree }
        _modify { yield &ownStorage.tree }
    }

    @inlinable var entries: ChunkedArray<Entry> {
        _read { yield storage.entries }
        _modify { yield &ownStorage.entries }
    }

    @inlinable var packedWeights: ChunkedArray<UInt8> {
        _read { yield storage.packedWeights }
        _modify { yield &ownStorage.packedWeights }
    }

    @usableFromInline var storedTotals: Weights = .zero
    @usableFromInline var storedCount = 0

    /// The weights of every element, by kind.
    @inlinable public var totals: Weights { storedTotals }
    @inlinable public var count: Int { storedCount }

    public init() {}

    /// The elements in this order, with their weights.
    public init(_ order: [Int32], weights: (Int32) -> SIMD4<UInt8>) {
        var start = 0
        var sums: [Weights] = []
        while start < order.count {
            let end = min(order.count, start + Self.fill)
            sums.append(appendChunk(Array(order[start..<end]), weights: weights))
            start = end
        }
        rebuildTree(sums)
    }

    @inlinable public func contains(_ element: Int32) -> Bool {
        Int(element) < entries.count && entries[Int(element)].chunk >= 0
    }

    @inlinable public func weights(of element: Int32) -> SIMD4<UInt8> {
        Int(element) < packedWeights.count ? Self.unpack(packedWeights[Int(element)]) : .zero
    }

    /// Sets an element's weights (it must be in the order).
    @inlinable public mutating func setWeights(_ element: Int32, _ weights: SIMD4<UInt8>) {
        let chunk = entries[Int(element)].chunk
        precondition(chunk >= 0, "element \(element) is not in the order")
        let packed = Self.pack(weights)
        let old = packedWeights[Int(element)]
        guard old != packed else { return }
        let delta = Weights(truncatingIfNeeded: weights) &- Weights(truncatingIfNeeded: Self.unpack(old))
        packedWeights[Int(element)] = packed
        add(delta, at: Int(positionOfChunk[Int(chunk)]))
        storedTotals &+= delta
    }

    /// The total weight of a kind of the elements before `element`. Its chunk is summed from the nearer end:
    /// the elements before it onto the chunks before, or those from it on off the chunks up to its own.
    @inlinable public func rank(_ element: Int32, kind: Int) -> Int {
        let entry = entries[Int(element)]
        precondition(entry.chunk >= 0, "element \(element) is not in the order")
        let position = Int(positionOfChunk[Int(entry.chunk)])
        let chunk = chunks[position]
        let offset = Int(entry.offset)
        if offset * 2 <= chunk.count {
            var total = Int(prefix(position)[kind])
            for index in 0..<offset { total += Self.weight(packedWeights[Int(chunk[index])], kind: kind) }
            return total
        }
        var total = Int(prefix(position + 1)[kind])
        for index in offset..<chunk.count { total -= Self.weight(packedWeights[Int(chunk[index])], kind: kind) }
        return total
    }

    /// The element at which the running weight of a kind passes `k` (0-based): the one whose weight covers it.
    @inlinable public func select(kind: Int, _ k: Int) -> Int32 {
        precondition(k >= 0 && k < Int(totals[kind]), "no weight \(k) of kind \(kind): the total is \(totals[kind])")
        // The last chunk position whose prefix is at most k, by descending the Fenwick tree.
        var position = 0
        var remaining = Int32(k)
        var step = 1
        while step * 2 < tree.count { step *= 2 }
        while step > 0 {
            let next = position + step
            if next < tree.count, tree[next][kind] <= remaining {
                position = next
                remaining -= tree[next][kind]
            }
            step /= 2
        }
        // In the chunk from its nearer end: from its start, the element whose running weight passes what
        // remains; from its end, the one whose running weight reaches what remains of the chunk's total.
        let chunk = chunks[position]
        let chunkTotal = prefix(position + 1)[kind] - (Int32(k) - remaining)
        if remaining * 2 < chunkTotal {
            for element in chunk {
                let weight = Int32(Self.weight(packedWeights[Int(element)], kind: kind))
                if remaining < weight { return element }
                remaining -= weight
            }
        } else {
            let target = chunkTotal - remaining
            var running: Int32 = 0
            for element in chunk.reversed() {
                running += Int32(Self.weight(packedWeights[Int(element)], kind: kind))
                if running >= target { return element }
            }
        }
        preconditionFailure("the chunk sums and the weights disagree")
    }

    /// A number that orders elements as the order does; valid until the order next changes.
    @inlinable public func key(_ element: Int32) -> UInt64 {
        let entry = entries[Int(element)]
        return UInt64(positionOfChunk[Int(entry.chunk)]) << 32 | UInt64(entry.offset)
    }

    public var first: Int32? { chunks.first?.first }

    public var last: Int32? { chunks.last?.last }

    /// The element after `element`, if any.
    @inlinable public func next(after element: Int32) -> Int32? {
        let entry = entries[Int(element)]
        let position = Int(positionOfChunk[Int(entry.chunk)])
        let offset = Int(entry.offset) + 1
        if offset < chunks[position].count { return chunks[position][offset] }
        return position + 1 < chunks.count ? chunks[position + 1][0] : nil
    }

    /// The element before `element`, if any.
    @inlinable public func previous(before element: Int32) -> Int32? {
        let entry = entries[Int(element)]
        let position = Int(positionOfChunk[Int(entry.chunk)])
        if entry.offset > 0 { return chunks[position][Int(entry.offset) - 1] }
        return position > 0 ? chunks[position - 1].last : nil
    }

    /// Whether an element before `element` has a weight of the kind (`rank(element, kind:) > 0`), looked for
    /// from the element back through its chunk, then in the chunks before by their sums.
    @inlinable public func hasWeight(kind: Int, before element: Int32) -> Bool {
        let entry = entries[Int(element)]
        precondition(entry.chunk >= 0, "element \(element) is not in the order")
        let position = Int(positionOfChunk[Int(entry.chunk)])
        let chunk = chunks[position]
        for index in stride(from: Int(entry.offset) - 1, through: 0, by: -1) where Self.weight(packedWeights[Int(chunk[index])], kind: kind) > 0 {
            return true
        }
        return prefix(position)[kind] > 0
    }

    /// The first element after `element` with a weight of the kind (`select(kind:, rank + weight)`), looked for
    /// through the rest of its chunk, then in the chunks after by their sums.
    @inlinable public func next(after element: Int32, withWeightOf kind: Int) -> Int32? {
        let entry = entries[Int(element)]
        precondition(entry.chunk >= 0, "element \(element) is not in the order")
        let position = Int(positionOfChunk[Int(entry.chunk)])
        let chunk = chunks[position]
        for index in (Int(entry.offset) + 1)..<chunk.count where Self.weight(packedWeights[Int(chunk[index])], kind: kind) > 0 {
            return chunk[index]
        }
        let through = prefix(position + 1)[kind]
        return through < totals[kind] ? select(kind: kind, Int(through)) : nil
    }

    /// Every element, in order.
    public var elements: [Int32] { chunks.flatMap { $0 } }

    // MARK: changing the order

    /// Inserts a run of elements (not in the order yet) after `element`, or first when it is nil.
    public mutating func insert(_ run: [Int32], weights: [SIMD4<UInt8>], after element: Int32?) {
        precondition(run.count == weights.count)
        guard !run.isEmpty else { return }
        guard !chunks.isEmpty else {
            let weightOf = Dictionary(uniqueKeysWithValues: zip(run, weights))
            self = WeightedOrder(run, weights: { weightOf[$0]! })
            return
        }
        let position: Int
        let offset: Int
        if let element {
            let entry = entries[Int(element)]
            precondition(entry.chunk >= 0, "element \(element) is not in the order")
            position = Int(positionOfChunk[Int(entry.chunk)])
            offset = Int(entry.offset) + 1
        } else {
            (position, offset) = (0, 0)
        }
        chunks[position].insert(contentsOf: run, at: offset)
        var added = Weights.zero
        for (index, element) in run.enumerated() {
            reserveEntry(element)
            precondition(entries[Int(element)].chunk < 0, "element \(element) is already in the order")
            packedWeights[Int(element)] = Self.pack(weights[index])
            added &+= Weights(truncatingIfNeeded: weights[index])
        }
        storedTotals &+= added
        storedCount += run.count
        add(added, at: position)
        if chunks[position].count > Self.limit {
            split(position)
        } else {
            renumber(position, from: offset)
        }
    }

    /// Removes `length` consecutive elements, starting with `element`.
    public mutating func remove(from element: Int32, count length: Int) {
        var remaining = length
        let entry = entries[Int(element)]
        precondition(entry.chunk >= 0, "element \(element) is not in the order")
        var position = Int(positionOfChunk[Int(entry.chunk)])
        var offset = Int(entry.offset)
        var emptied = false
        while remaining > 0 {
            precondition(position < chunks.count, "the run passes the end of the order")
            let take = min(remaining, chunks[position].count - offset)
            var removed = Weights.zero
            for index in offset..<(offset + take) {
                let gone = Int(chunks[position][index])
                removed &+= Weights(truncatingIfNeeded: Self.unpack(packedWeights[gone]))
                entries[gone] = Entry()
                packedWeights[gone] = 0
            }
            chunks[position].removeSubrange(offset..<(offset + take))
            storedTotals &-= removed
            storedCount -= take
            remaining -= take
            add(.zero &- removed, at: position)
            if chunks[position].isEmpty {
                emptied = true
            } else {
                renumber(position, from: offset)
            }
            position += 1
            offset = 0
        }
        if emptied { dropEmptyChunks() }
    }

    // MARK: inside

    private mutating func reserveEntry(_ element: Int32) {
        while entries.count <= Int(element) {
            entries.append(Entry())
            packedWeights.append(0)
        }
    }

    /// Four weights in a byte, two bits each, the first kind lowest.
    @inlinable static func pack(_ weights: SIMD4<UInt8>) -> UInt8 {
        precondition(weights.max() <= 3, "weights \(weights) do not fit two bits a kind")
        return weights[0] | weights[1] << 2 | weights[2] << 4 | weights[3] << 6
    }

    @inlinable static func unpack(_ packed: UInt8) -> SIMD4<UInt8> {
        SIMD4(packed, packed >> 2, packed >> 4, packed >> 6) & 3
    }

    /// The weight of one kind in packed weights.
    @inlinable static func weight(_ packed: UInt8, kind: Int) -> Int {
        Int(packed &>> UInt8(2 * kind)) & 3
    }

    /// Adds a chunk at the end; its weight sum.
    private mutating func appendChunk(_ elements: [Int32], weights: (Int32) -> SIMD4<UInt8>) -> Weights {
        let id = Int32(positionOfChunk.count)
        positionOfChunk.append(Int32(chunks.count))
        var sum = Weights.zero
        for (offset, element) in elements.enumerated() {
            reserveEntry(element)
            let weight = weights(element)
            entries[Int(element)] = Entry(chunk: id, offset: Int32(offset))
            packedWeights[Int(element)] = Self.pack(weight)
            sum &+= Weights(truncatingIfNeeded: weight)
        }
        chunks.append(elements)
        chunkIDs.append(id)
        storedTotals &+= sum
        storedCount += elements.count
        return sum
    }

    /// Gives the elements of the chunk at `position`, from `offset` on, their chunk and offset.
    private mutating func renumber(_ position: Int, from offset: Int) {
        let id = chunkIDs[position]
        let chunk = chunks[position]
        for index in offset..<chunk.count {
            let element = Int(chunk[index])
            entries[element].chunk = id
            entries[element].offset = Int32(index)
        }
    }

    /// Splits an overfull chunk into chunks of `fill` elements.
    private mutating func split(_ position: Int) {
        var sums = chunkSums()
        let elements = chunks[position]
        var pieces: [[Int32]] = []
        var start = 0
        while start < elements.count {
            pieces.append(Array(elements[start..<min(elements.count, start + Self.fill)]))
            start += Self.fill
        }
        chunks.replaceSubrange(position...position, with: pieces)
        var ids = [chunkIDs[position]]
        for _ in 1..<pieces.count {
            ids.append(Int32(positionOfChunk.count))
            positionOfChunk.append(0)
        }
        chunkIDs.replaceSubrange(position...position, with: ids)
        sums.replaceSubrange(position...position, with: pieces.map { piece in piece.reduce(Weights.zero) { $0 &+ Weights(truncatingIfNeeded: weights(of: $1)) } })
        for index in position..<(position + pieces.count) { renumber(index, from: 0) }
        rebuildTree(sums)
    }

    private mutating func dropEmptyChunks() {
        let sums = chunkSums()
        var kept: [Int] = []
        for position in chunks.indices where !chunks[position].isEmpty { kept.append(position) }
        chunks = kept.map { chunks[$0] }
        chunkIDs = kept.map { chunkIDs[$0] }
        rebuildTree(kept.map { sums[$0] })
    }

    /// Each chunk's weight sum, read back from the tree.
    private func chunkSums() -> [Weights] {
        chunks.indices.map { prefix($0 + 1) &- prefix($0) }
    }

    private mutating func rebuildTree(_ sums: [Weights]) {
        for (position, id) in chunkIDs.enumerated() { positionOfChunk[Int(id)] = Int32(position) }
        tree = [.zero] + sums
        for index in 1..<tree.count {
            let parent = index + (index & -index)
            if parent < tree.count { tree[parent] &+= tree[index] }
        }
    }

    @inlinable mutating func add(_ delta: Weights, at position: Int) {
        var index = position + 1
        while index < tree.count {
            tree[index] &+= delta
            index += index & -index
        }
    }

    /// The sum of the chunks before `position`.
    @inlinable func prefix(_ position: Int) -> Weights {
        var index = position
        var total = Weights.zero
        while index > 0 {
            total &+= tree[index]
            index -= index & -index
        }
        return total
    }
}
