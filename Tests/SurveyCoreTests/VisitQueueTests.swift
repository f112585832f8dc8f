import Testing
@testable import SurveyCore

/// `VisitQueue` is a FIFO that takes each element once until `removeAll()`: checked against an Array + Set,
/// on both sides of the 24-element switch from a linear scan to a set.
@Suite struct VisitQueueTests {
    /// The reference work list.
    private struct Reference {
        var elements: [Int] = []
        var seen: Set<Int> = []
        var head = 0

        mutating func insert(_ element: Int) -> Bool {
            guard seen.insert(element).inserted else { return false }
            elements.append(element)
            return true
        }

        mutating func next() -> (element: Int, position: Int)? {
            guard head < elements.count else { return nil }
            head += 1
            return (elements[head - 1], head - 1)
        }

        mutating func removeAll() { self = Reference() }
    }

    /// Inserts each element; whether each was added.
    private static func insert(_ elements: some Sequence<Int>, into queue: inout VisitQueue) -> [Bool] {
        elements.map { queue.insert($0) }
    }

    /// Calls `next()` until nil; each result as [element, position].
    private static func drain(_ queue: inout VisitQueue) -> [[Int]] {
        var taken: [[Int]] = []
        while let (element, position) = queue.next() { taken.append([element, position]) }
        return taken
    }

    @Test("elements come out in insertion order with their positions, then nil")
    func returnsElementsInInsertionOrderWithPositions() {
        var queue = VisitQueue()
        let first = queue.next()
        #expect(first == nil)
        #expect(Self.insert([7, -3, 0], into: &queue) == [true, true, true])
        let seven = queue.next()
        let minusThree = queue.next()
        #expect(seven?.element == 7 && seven?.position == 0)
        #expect(minusThree?.element == -3 && minusThree?.position == 1)
        #expect(Self.insert([42], into: &queue) == [true])  // inserting while draining appends behind the head
        #expect(Self.drain(&queue) == [[0, 2], [42, 3]])
        let after = queue.next()
        #expect(after == nil)
        #expect(queue.elements == [7, -3, 0, 42])
    }

    @Test("an element is taken once, even after it has been returned by next()")
    func takesEachElementOnce() {
        var queue = VisitQueue()
        #expect(Self.insert([5, 5], into: &queue) == [true, false])
        #expect(Self.drain(&queue) == [[5, 0]])
        #expect(Self.insert([5], into: &queue) == [false])  // already visited, not only already queued
        #expect(Self.drain(&queue) == [])
        #expect(queue.elements == [5])
    }

    @Test("past 24 distinct elements duplicates are still refused, including ones inserted before the switch")
    func refusesDuplicatesAcrossTheScanLimit() {
        var queue = VisitQueue()
        let tens = (0..<100).map { $0 * 10 }
        #expect(Self.insert(tens[0..<24], into: &queue) == Array(repeating: true, count: 24))
        #expect(Self.insert([0, 230], into: &queue) == [false, false])
        #expect(Self.insert([240], into: &queue) == [true])  // the 25th: the set takes over here
        #expect(Self.insert(tens[0..<25], into: &queue) == Array(repeating: false, count: 25))
        #expect(Self.insert(tens[25...], into: &queue) == Array(repeating: true, count: 75))
        #expect(Self.insert(tens, into: &queue) == Array(repeating: false, count: 100))
        #expect(queue.elements == tens)
        #expect(Self.drain(&queue) == tens.enumerated().map { [$0.element, $0.offset] })
    }

    @Test("after removeAll() the list is empty and every earlier element can be inserted again, from position 0")
    func removeAllEmptiesTheListForReuse() {
        for size in [0, 1, 5, 24, 25, 60] {
            var queue = VisitQueue()
            _ = Self.insert(0..<size, into: &queue)
            _ = queue.next()
            queue.removeAll()
            #expect(queue.elements.isEmpty)
            #expect(Self.drain(&queue) == [], "size \(size)")
            // Reverse order, so positions differ from the first pass.
            let reversed = Array((0..<size).reversed())
            #expect(Self.insert(reversed, into: &queue) == Array(repeating: true, count: size), "size \(size)")
            #expect(Self.insert(0..<size, into: &queue) == Array(repeating: false, count: size), "size \(size)")
            #expect(Self.drain(&queue) == reversed.enumerated().map { [$0.element, $0.offset] }, "size \(size)")
            // A short pass after a long one is back on the scan and still refuses repeats.
            queue.removeAll()
            #expect(Self.insert([1000, 1000, size], into: &queue) == [true, false, true], "size \(size)")
            #expect(Self.drain(&queue) == [[1000, 0], [size, 1]], "size \(size)")
        }
    }

    @Test("a seeded random mix of inserts, nexts and removeAlls matches an Array + Set reference step by step")
    func randomOperationsMatchTheReference() {
        var state: UInt64 = 0x0155_0EDE
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33)
        }
        var queue = VisitQueue()
        var reference = Reference()
        var longestPass = 0
        var divergence: String?  // the first step where the queue and the reference differ
        passes: for pass in 0..<40 {
            // Element ranges below and well above the scan limit.
            let range = [8, 30, 64, 500][next() % 4]
            for step in 0..<(next() % 400) {
                switch next() % 10 {
                case 0..<6:
                    let element = next() % range - range / 4  // some negatives
                    let added = queue.insert(element)
                    let expected = reference.insert(element)
                    if added != expected {
                        divergence = "pass \(pass) step \(step): insert(\(element)) returned \(added), expected \(expected)"
                        break passes
                    }
                case 6..<9:
                    let actual = queue.next()
                    let expected = reference.next()
                    if actual?.element != expected?.element || actual?.position != expected?.position {
                        divergence = "pass \(pass) step \(step): next() returned \(String(describing: actual)), expected \(String(describing: expected))"
                        break passes
                    }
                default:
                    if queue.elements != reference.elements {
                        divergence = "pass \(pass) step \(step): elements \(queue.elements), expected \(reference.elements)"
                        break passes
                    }
                }
            }
            longestPass = max(longestPass, reference.elements.count)
            queue.removeAll()
            reference.removeAll()
            if !queue.elements.isEmpty || queue.next() != nil {
                divergence = "pass \(pass): not empty after removeAll()"
                break passes
            }
        }
        #expect(divergence == nil)
        #expect(longestPass > 100)  // the set path was exercised, not only the scan
    }
}
