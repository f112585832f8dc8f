import Testing

@testable import SurveyCore

@Suite("MC/DC pairs")
struct MCDCTests {
    /// Rows are leaf values (0 skipped, 1 false, 2 true, 3/4 unanswered) then the outcome.
    @Test("A and (B or C): each leaf gets a pair in which it alone changed the outcome")
    func andOfOr() {
        let rows: Set<[UInt8]> = [[2, 2, 0, 1], [1, 0, 0, 0], [2, 1, 2, 1], [2, 1, 1, 0]]
        let pairs = MCDC.pairs(rows, leafCount: 3)
        #expect(pairs[0] == MCDC.Pair(first: [2, 1, 2, 1], second: [1, 0, 0, 0]))
        #expect(pairs[1] == MCDC.Pair(first: [2, 2, 0, 1], second: [2, 1, 1, 0]))
        #expect(pairs[2] == MCDC.Pair(first: [2, 1, 2, 1], second: [2, 1, 1, 0]))
    }

    @Test("without A true, B false, C false, neither B nor C is shown to decide on its own")
    func missingRow() {
        let rows: Set<[UInt8]> = [[2, 2, 0, 1], [1, 0, 0, 0], [2, 1, 2, 1]]
        let pairs = MCDC.pairs(rows, leafCount: 3)
        #expect(pairs[0] != nil)
        #expect(pairs[1] == nil)
        #expect(pairs[2] == nil)
    }

    @Test("a leaf read on an unanswered question cannot be one side of its own pair")
    func unansweredLeaf() {
        let rows: Set<[UInt8]> = [[4, 2, 0, 1], [1, 0, 0, 0]]
        #expect(MCDC.pairs(rows, leafCount: 2)[0] == nil)
    }
}
