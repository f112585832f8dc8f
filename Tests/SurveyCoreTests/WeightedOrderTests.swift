import Testing

@testable import SurveyCore

@Suite("WeightedOrder and ChunkedArray against plain arrays")
struct WeightedOrderTests {
    /// The reference: the elements in order with their weights, as a plain array.
    private struct Reference {
        var order: [Int32] = []
        var weights: [Int32: SIMD4<UInt8>] = [:]

        func rank(_ element: Int32, kind: Int) -> Int {
            order.prefix { $0 != element }.reduce(0) { $0 + Int(weights[$1]![kind]) }
        }
    }

    /// Every query agrees with a scan of the reference.
    private func check(_ order: WeightedOrder, _ reference: Reference, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        #expect(order.elements == reference.order, sourceLocation: sourceLocation)
        #expect(order.count == reference.order.count, sourceLocation: sourceLocation)
        for kind in 0..<4 {
            let total = reference.order.reduce(0) { $0 + Int(reference.weights[$1]![kind]) }
            #expect(Int(order.totals[kind]) == total, sourceLocation: sourceLocation)
            var running = 0
            for (index, element) in reference.order.enumerated() {
                #expect(order.rank(element, kind: kind) == running, sourceLocation: sourceLocation)
                #expect(order.hasWeight(kind: kind, before: element) == (running > 0), sourceLocation: sourceLocation)
                let nextWeighted = reference.order[(index + 1)...].first { reference.weights[$0]![kind] > 0 }
                #expect(order.next(after: element, withWeightOf: kind) == nextWeighted, sourceLocation: sourceLocation)
                for k in running..<(running + Int(reference.weights[element]![kind])) {
                    #expect(order.select(kind: kind, k) == element, sourceLocation: sourceLocation)
                }
                running += Int(reference.weights[element]![kind])
            }
        }
        for (index, element) in reference.order.enumerated() {
            #expect(order.contains(element), sourceLocation: sourceLocation)
            #expect(order.next(after: element) == (index + 1 < reference.order.count ? reference.order[index + 1] : nil), sourceLocation: sourceLocation)
            #expect(order.previous(before: element) == (index > 0 ? reference.order[index - 1] : nil), sourceLocation: sourceLocation)
            if index > 0 { #expect(order.key(reference.order[index - 1]) < order.key(element), sourceLocation: sourceLocation) }
        }
        #expect(order.first == reference.order.first && order.last == reference.order.last, sourceLocation: sourceLocation)
    }

    private struct Random {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        /// Weights over the whole range an order keeps, 0 to 3 of each kind.
        mutating func weights() -> SIMD4<UInt8> { SIMD4(UInt8(next(2)), UInt8(next(4)), UInt8(next(3)), UInt8(next(4))) }
    }

    @Test("runs inserted, removed and reweighted anywhere, chunks splitting and emptying, agree with a plain array, and copies keep their state")
    func randomEdits() {
        var random = Random(state: 7)
        var reference = Reference()
        let start = (0..<600).map(Int32.init)
        for element in start { reference.weights[element] = random.weights() }
        reference.order = start
        var order = WeightedOrder(start, weights: { reference.weights[$0]! })
        check(order, reference)
        var nextElement: Int32 = 600
        var copies: [(WeightedOrder, Reference)] = []
        for step in 0..<400 {
            switch random.next(4) {
            case 0 where !reference.order.isEmpty:
                let at = random.next(reference.order.count)
                let length = 1 + random.next(min(300, reference.order.count - at))
                order.remove(from: reference.order[at], count: length)
                for element in reference.order[at..<(at + length)] { reference.weights[element] = nil }
                reference.order.removeSubrange(at..<(at + length))
            case 1, 0:
                let length = 1 + random.next(random.next(4) == 0 ? 400 : 5)
                let run = (0..<length).map { nextElement + Int32($0) }
                nextElement += Int32(length)
                let weights = run.map { _ in random.weights() }
                for (element, weight) in zip(run, weights) { reference.weights[element] = weight }
                let at = reference.order.isEmpty ? 0 : random.next(reference.order.count + 1)
                order.insert(run, weights: weights, after: at == 0 ? nil : reference.order[at - 1])
                reference.order.insert(contentsOf: run, at: at)
            default:
                guard !reference.order.isEmpty else { continue }
                let element = reference.order[random.next(reference.order.count)]
                let weights = random.weights()
                order.setWeights(element, weights)
                reference.weights[element] = weights
            }
            if step % 40 == 39 {
                check(order, reference)
                copies.append((order, reference))
            }
        }
        check(order, reference)
        // Each copy taken along the way is still the order it was, whatever changed the original since.
        for (copy, itsReference) in copies { check(copy, itsReference) }
    }

    @Test("a copy is unchanged by changes to the original")
    func copiesAreIndependent() {
        var order = WeightedOrder((0..<300).map(Int32.init), weights: { _ in SIMD4(1, 0, 0, 0) })
        let copy = order
        order.setWeights(5, SIMD4(0, 1, 0, 0))
        order.remove(from: 10, count: 20)
        order.insert([1000], weights: [SIMD4(1, 1, 1, 1)], after: 3)
        #expect(copy.count == 300 && copy.totals == SIMD4(300, 0, 0, 0))
        #expect(copy.elements == (0..<300).map(Int32.init))
        #expect(order.count == 281 && order.totals == SIMD4(280, 2, 1, 1))
    }

    @Test("an element's weights read back as set, for every value of every kind")
    func weightsReadBack() {
        var order = WeightedOrder([0, 1], weights: { _ in .zero })
        for value in UInt8(0)...3 {
            for kind in 0..<4 {
                var weights = SIMD4<UInt8>(3, 0, 2, 1)
                weights[kind] = value
                order.setWeights(1, weights)
                #expect(order.weights(of: 1) == weights && order.weights(of: 0) == .zero)
                #expect(order.totals == SIMD4<Int32>(truncatingIfNeeded: weights))
            }
        }
    }

    @Test("removing every element and inserting again starts a new order")
    func emptiedAndRefilled() {
        var order = WeightedOrder([0, 1, 2], weights: { _ in SIMD4(1, 1, 1, 1) })
        order.remove(from: 0, count: 3)
        #expect(order.count == 0 && order.first == nil && !order.contains(1))
        order.insert([4, 1], weights: [SIMD4(1, 0, 0, 0), SIMD4(0, 1, 0, 0)], after: nil)
        #expect(order.elements == [4, 1] && order.select(kind: 1, 0) == 1 && order.rank(1, kind: 0) == 1)
    }

    @Test("a chunked array reads and writes like an array, across chunks and pages, and a copy is its own")
    func chunkedArray() {
        var array = ChunkedArray<Int>()
        var plain: [Int] = []
        for value in 0..<20_000 {
            array.append(value * 3)
            plain.append(value * 3)
        }
        let copy = array
        for index in stride(from: 0, to: 20_000, by: 7) {
            array[index] += 1
            plain[index] += 1
        }
        #expect(Array(array) == plain)
        #expect(Array(copy) == (0..<20_000).map { $0 * 3 })
        let repeated = ChunkedArray(repeating: 9, count: 16_385)
        #expect(repeated.count == 16_385 && repeated.allSatisfy { $0 == 9 })
    }
}
