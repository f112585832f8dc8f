import Testing
@testable import SurveyCore

@Suite struct FlagIndexTests {
    /// The invariant: counts and positions agree with a plain scan of the flags, whatever was appended or set.
    private func checkAgainstScan(_ index: FlagIndex) {
        let on = index.flags.indices.filter { index.flags[$0] }
        #expect(index.onCount == on.count)
        for position in 0...index.count { #expect(index.onCount(before: position) == on.filter { $0 < position }.count) }
        for (k, expected) in on.enumerated() { #expect(index.indexOfOn(k) == expected) }
    }

    @Test func countsAndSelectsLikeAScanAsItGrowsAndChanges() {
        var index = FlagIndex()
        var generator: UInt64 = 12345
        for step in 0..<200 {
            generator = generator &* 6364136223846793005 &+ 1442695040888963407
            if index.count == 0 || generator >> 60 < 10 {
                index.append(generator >> 33 & 1 == 1)
            } else {
                index.set(Int(generator >> 40) % index.count, generator >> 35 & 1 == 1)
            }
            if step % 20 == 19 { checkAgainstScan(index) }
        }
        checkAgainstScan(index)
    }

    @Test func anEmptyIndexCountsNothing() {
        let index = FlagIndex()
        #expect(index.onCount == 0)
        #expect(index.onCount(before: 0) == 0)
    }
}
