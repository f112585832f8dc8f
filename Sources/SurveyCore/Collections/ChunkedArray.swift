/// An array kept in chunks of 512 elements, each copied on write on its own: copying the array copies a
/// table of chunk references, and a change to a copy copies only the chunk it touches. Sessions keep their
/// per-instance state in these, so a session started from a survey's opening state costs little whatever
/// the survey's size.
public struct ChunkedArray<Element>: RandomAccessCollection, MutableCollection {
    @usableFromInline static var shift: Int { 9 }
    @usableFromInline static var chunkSize: Int { 1 << shift }
    @usableFromInline static var mask: Int { chunkSize - 1 }

    @usableFromInline var chunks: [[Element]] = []
    @usableFromInline var storedCount = 0

    @inlinable public var count: Int { storedCount }

    @inlinable public init() {}

    @inlinable public init(repeating element: Element, count: Int) {
        self.init()
        reserveChunks(for: count)
        for _ in 0..<count { append(element) }
    }

    @inlinable public init<S: Sequence>(_ elements: S) where S.Element == Element {
        self.init()
        for element in elements { append(element) }
    }

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { count }

    @inlinable public subscript(position: Int) -> Element {
        get {
            precondition(position >= 0 && position < count, "index \(position) out of range 0..<\(count)")
            return chunks[position &>> Self.shift][position & Self.mask]
        }
        _modify {
            precondition(position >= 0 && position < count, "index \(position) out of range 0..<\(count)")
            yield &chunks[position &>> Self.shift][position & Self.mask]
        }
    }

    @inlinable public mutating func append(_ element: Element) {
        if count & Self.mask == 0 {
            var chunk: [Element] = []
            chunk.reserveCapacity(Self.chunkSize)
            chunks.append(chunk)
        }
        chunks[chunks.count - 1].append(element)
        storedCount += 1
    }

    @inlinable mutating func reserveChunks(for count: Int) {
        chunks.reserveCapacity((count + Self.mask) >> Self.shift)
    }
}

extension ChunkedArray: Sendable where Element: Sendable {}

extension ChunkedArray: Equatable where Element: Equatable {
    public static func == (lhs: ChunkedArray, rhs: ChunkedArray) -> Bool { lhs.elementsEqual(rhs) }
}
