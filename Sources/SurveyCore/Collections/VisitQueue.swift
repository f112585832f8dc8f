/// A first-in, first-out work list that takes each element once: what a breadth-first pass over a
/// dependency map needs. The usual list is short, and a linear scan of a short list is cheaper than
/// hashing; past `scanLimit` elements a set takes over, so a long pass stays linear.
public struct VisitQueue {
    /// Every element ever taken, in order.
    public private(set) var elements: [Int] = []
    /// The position of the next element `next()` returns.
    private var head = 0
    private var index: Set<Int>?
    private static let scanLimit = 24

    public init() {}

    /// Adds the element unless it was added before; whether it was added.
    @discardableResult
    public mutating func insert(_ element: Int) -> Bool {
        if index != nil {
            // Inserting in place: a bound copy of the set would make every insertion copy it whole.
            guard index!.insert(element).inserted else { return false }
        } else {
            guard !elements.contains(element) else { return false }
            if elements.count == VisitQueue.scanLimit { index = Set(elements + [element]) }
        }
        elements.append(element)
        return true
    }

    /// Empties the list, keeping its storage for the next pass.
    public mutating func removeAll() {
        if !elements.isEmpty { elements.removeAll(keepingCapacity: true) }
        head = 0
        if index != nil { index = nil }
    }

    /// The next element not yet returned, with its position among the elements taken; nil when none is left.
    public mutating func next() -> (element: Int, position: Int)? {
        guard head < elements.count else { return nil }
        head += 1
        return (elements[head - 1], head - 1)
    }
}
