/// An array kept in chunks of 512 elements, each copied on write on its own: copying the array copies a
/// table of chunk references, and a change to a copy copies only the chunk it touches. Sessions keep their
/// per-instance state in these, so a session started from a survey's opening state costs little whatever
/// the survey's size.
public struct ChunkedArray<Element>: RandomAccessCollection, MutableCollection {
    static var shift: Int { 9 }
    static var chunkSize: Int { 1 << shift }
    static var mask: Int { chunkSize - 1 }

    private var chunks: [[Element]] = []
    public private(set) var count = 0

    public init() {}

    public init(repeating element: Element, count: Int) {
        self.init()
        reserveChunks(for: count)
        for _ in 0..<count { append(element) }
    }

    public init<S: Sequence>(_ elements: S) where S.Element == Element {
        self.init()
        for element in elements { append(element) }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    public subscript(position: Int) -> Element {
        get {
            precondition(position >= 0 && position < count, "index \(position) out of range 0..<\(count)")
            return chunks[position &>> Self.shift][position & Self.mask]
        }
        _modify {
            precondition(position >= 0 && position < count, "index \(position) out of range 0..<\(count)")
            yield &chunks[position &>> Self.shift][position & Self.mask]
        }
    }

    public mutating func append(_ element: Element) {
        if count & Self.mask == 0 {
            var chunk: [Element] = []
            chunk.reserveCapacity(Self.chunkSize)
            chunks.append(chunk)
        }
        chunks[chunks.count - 1].append(element)
        count += 1
    }

    private mutating func reserveChunks(for count: Int) {
        chunks.reserveCapacity((count + Self.mask) >> Self.shift)
    }
}

extension ChunkedArray: Sendable where Element: Sendable {}

extension ChunkedArray: Equatable where Element: Equatable {
    public static func == (lhs: ChunkedArray, rhs: ChunkedArray) -> Bool { lhs.elementsEqual(rhs) }
}
