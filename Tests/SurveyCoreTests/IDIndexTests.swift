import Testing
@testable import SurveyCore

/// `IDIndex` must look up as a `[String: Int]` of each id's first position does, with Swift string equality
/// (canonical equivalence) for present and absent ids alike, and report every later repeat in order.
@Suite struct IDIndexTests {
    /// The reference: a dictionary keeping first positions, and the repeats a scan finds.
    private static func reference(_ ids: [String]) -> (positions: [String: Int], repeats: [[Int]]) {
        var positions: [String: Int] = [:]
        var repeats: [[Int]] = []
        for (position, id) in ids.enumerated() {
            if let first = positions[id] { repeats.append([position, first]) } else { positions[id] = position }
        }
        return (positions, repeats)
    }

    /// Builds the index and checks count, repeats and every id in `ids` and `lookups` against the reference.
    private static func checkAgainstDictionary(
        _ ids: [String], lookups: [String] = [], sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        let (index, repeats) = IDIndex.build(ids)
        let expected = reference(ids)
        #expect(index.count == expected.positions.count, sourceLocation: sourceLocation)
        #expect(repeats.map { [$0.position, $0.first] } == expected.repeats, sourceLocation: sourceLocation)
        var wrong: [String] = []
        for id in ids + lookups where index[id] != expected.positions[id] {
            wrong.append("\(id.debugDescription): \(index[id].map(String.init) ?? "nil") vs \(expected.positions[id].map(String.init) ?? "nil")")
        }
        #expect(wrong.isEmpty, "lookups that differ from the dictionary: \(wrong.prefix(10))", sourceLocation: sourceLocation)
    }

    /// Ids that are not in `ids` but look like them: prefixes, extensions, case changes.
    private static func nearMisses(_ ids: [String]) -> [String] {
        ids.flatMap { id in [id + "x", String(id.dropLast()), id.uppercased(), " " + id, id + "\u{0}"] }
    }

    @Test("an empty list indexes nothing and finds nothing")
    func emptyListFindsNothing() {
        let (index, repeats) = IDIndex.build([])
        #expect(index.count == 0)
        #expect(repeats.isEmpty)
        #expect(index[""] == nil)
        #expect(index["q1"] == nil)
    }

    @Test("ASCII ids short and long, the empty id and absent ids look up as in the dictionary")
    func asciiIdsLookUpLikeADictionary() {
        let ids = ["q1", "", "q2", "a-much-longer-question-identifier", "exactly15bytes!", "sixteen-bytes-id", "Q1", "q10"]
        let (index, repeats) = IDIndex.build(ids)
        #expect(repeats.isEmpty)
        #expect(index.count == 8)
        #expect(index[""] == 1)
        #expect(index["a-much-longer-question-identifier"] == 3)
        #expect(index["exactly15bytes!"] == 4)
        #expect(index["sixteen-bytes-id"] == 5)
        #expect(index["Q1"] == 6)
        #expect(index["q3"] == nil)
        #expect(index["a-much-longer-question-identifieR"] == nil)
        Self.checkAgainstDictionary(ids, lookups: Self.nearMisses(ids) + ["q", "q100", "sixteen-bytes-i"])
    }

    @Test("a duplicate keeps its first position and every later repeat is reported, in order, with that position")
    func duplicatesKeepTheFirstPositionAndAreReported() {
        let ids = ["a", "b", "a", "", "b", "a", "", "long-identifier-over-15", "long-identifier-over-15"]
        let (index, repeats) = IDIndex.build(ids)
        #expect(index.count == 4)
        #expect(index["a"] == 0)
        #expect(index["b"] == 1)
        #expect(index[""] == 3)
        #expect(index["long-identifier-over-15"] == 7)
        #expect(repeats.map { [$0.position, $0.first] } == [[2, 0], [4, 1], [5, 0], [6, 3], [8, 7]])
        Self.checkAgainstDictionary(ids)
    }

    @Test("every table size from 0 to 70 ids finds what the dictionary finds (full and growing tables)")
    func everySmallSizeMatchesTheDictionary() {
        for size in 0...70 {
            let ids = (0..<size).map { "q\($0)" }
            Self.checkAgainstDictionary(ids, lookups: ["q\(size)", "q-1", "", "q"])
        }
    }

    @Test("5,000 generated ids with many duplicates and probe collisions match the dictionary, absent ids included")
    func manyGeneratedIdsMatchTheDictionary() {
        var state: UInt64 = 0x1D1D_E5
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        let alphabet = Array("abcXYZ019_-.")
        var ids: [String] = []
        for _ in 0..<5_000 {
            if !ids.isEmpty, next() % 5 == 0 {
                ids.append(ids[Int(next() % UInt64(ids.count))])  // a duplicate
            } else {
                // Lengths 0...40: small strings (up to 15 bytes) and heap ones; a small alphabet, so ids
                // differ in few bytes and crowd each other's buckets.
                let length = Int(next() % 41)
                ids.append(String((0..<length).map { _ in alphabet[Int(next() % UInt64(alphabet.count))] }))
            }
        }
        ids += (0..<200).map { "q\($0)" }
        let absent = (0..<2_000).map { "absent-\($0)" } + Self.nearMisses(Array(ids.prefix(500)))
        Self.checkAgainstDictionary(ids, lookups: absent)
        #expect(IDIndex.build(ids).repeats.count > 900)
    }

    @Test("a precomposed and a decomposed é are the same id, whichever form was indexed")
    func canonicallyEquivalentIdsFindEachOther() {
        let precomposed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        #expect(precomposed == decomposed)  // Swift string equality is canonical equivalence
        #expect(Array(precomposed.utf8) != Array(decomposed.utf8))

        let (byPrecomposed, _) = IDIndex.build(["x", precomposed])
        #expect(byPrecomposed[decomposed] == 1)
        #expect(byPrecomposed[precomposed] == 1)
        #expect(byPrecomposed["cafe"] == nil)

        let (byDecomposed, _) = IDIndex.build(["x", decomposed])
        #expect(byDecomposed[precomposed] == 1)
        #expect(byDecomposed[decomposed] == 1)

        let (both, repeats) = IDIndex.build([precomposed, "y", decomposed])
        #expect(both.count == 2)
        #expect(repeats.map { [$0.position, $0.first] } == [[2, 0]])
        Self.checkAgainstDictionary([precomposed, "y", decomposed], lookups: ["cafe", "caf", "cafe\u{300}"])
    }

    @Test("a non-ASCII lookup equal to an ASCII id (Kelvin sign for K, Greek question mark for ;) finds it")
    func nonASCIILookupsFindEqualASCIIIds() {
        // Why this matters: these are equal Swift strings although their bytes differ.
        #expect("\u{212A}" == "K")
        #expect("\u{037E}" == ";")
        #expect("\u{212A}1" == "K1")

        let ids = ["J", "K", "k", ";", "K1", "long-id-with-K-inside-it"]
        let (index, _) = IDIndex.build(ids)
        #expect(index["\u{212A}"] == 1)
        #expect(index["\u{037E}"] == 3)
        #expect(index["\u{212A}1"] == 4)
        #expect(index["long-id-with-\u{212A}-inside-it"] == 5)
        // Non-ASCII lookups that equal no ASCII id find nothing.
        #expect(index["K\u{301}"] == nil)
        #expect(index["\u{212A}\u{301}"] == nil)
        #expect(index["\u{212B}"] == nil)
        Self.checkAgainstDictionary(
            ids, lookups: ["\u{212A}", "\u{037E}", "\u{212A}1", "K\u{301}", "\u{212A}\u{301}", "\u{212B}", "é", "ｋ", "\u{1FEF}"])
    }

    @Test("an indexed Kelvin sign and a later K are one id, as in the dictionary")
    func kelvinSignIndexedThenKRepeats() {
        let ids = ["\u{212A}", "x", "K"]
        let (index, repeats) = IDIndex.build(ids)
        #expect(index["K"] == 0)
        #expect(repeats.map { [$0.position, $0.first] } == [[2, 0]])
        Self.checkAgainstDictionary(ids, lookups: ["k", "\u{212A}\u{212A}"])
    }

    @Test("a list mixing ASCII and non-ASCII ids, with repeats, behaves like the dictionary")
    func mixedListBehavesLikeTheDictionary() {
        let ids = ["q1", "q2", "réponse", "q1", "re\u{301}ponse", "", "日本", "q3", "", "K", "\u{212A}", "ñ", "n\u{303}"]
        Self.checkAgainstDictionary(
            ids, lookups: ["q4", "reponse", "réponse ", "日", "k", "\u{212A}", "n", "N\u{303}"] + Self.nearMisses(ids))
    }

    @Test("seeded random lists over an alphabet with combining marks and look-alikes behave like the dictionary")
    func randomListsWithUnicodeBehaveLikeTheDictionary() {
        var state: UInt64 = 0xCAFE_0301
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33)
        }
        // Mostly ASCII pieces, some equal to each other under canonical equivalence.
        let asciiPieces = ["a", "e", "K", "q", "1", ";", "_"]
        let otherPieces = ["\u{E9}", "e\u{301}", "\u{301}", "\u{212A}", "\u{037E}", "\u{212B}", "A\u{30A}", "\u{C5}", "ß"]
        func randomId(asciiOnly: Bool) -> String {
            let length = next() % 6
            return (0..<length).map { _ in
                !asciiOnly && next() % 4 == 0 ? otherPieces[next() % otherPieces.count] : asciiPieces[next() % asciiPieces.count]
            }.joined()
        }
        for round in 0..<300 {
            let asciiOnly = round % 2 == 0
            let ids = (0..<(next() % 40)).map { _ in randomId(asciiOnly: asciiOnly) }
            let lookups = (0..<60).map { _ in randomId(asciiOnly: false) }
            Self.checkAgainstDictionary(ids, lookups: lookups)
        }
    }
}
