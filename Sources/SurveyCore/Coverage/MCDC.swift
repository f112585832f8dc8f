/// Modified condition/decision coverage: for each leaf of a decision, a pair of observed evaluations in
/// which that leaf alone changed and the decision changed with it. Leaves an evaluation did not reach
/// (short-circuit) or that read an unanswered question are "don't care" (masking MC/DC), and a leaf must
/// itself have read an answer in both evaluations.
public enum MCDC {
    public struct Pair: Sendable, Equatable {
        /// The two rows: leaf values (`LeafValue` raw values) then the outcome (0 or 1).
        public let first: [UInt8]
        public let second: [UInt8]
    }

    /// For each leaf position, a pair showing its independent effect, or nil.
    public static func pairs(_ rows: Set<[UInt8]>, leafCount: Int) -> [Pair?] {
        let sorted = rows.sorted { $0.lexicographicallyPrecedes($1) }
        return (0..<leafCount).map { leaf in
            for first in sorted where first[leaf] == CoverageRecorder.LeafValue.true.rawValue {
                for second in sorted where second[leaf] == CoverageRecorder.LeafValue.false.rawValue && second[leafCount] != first[leafCount] {
                    if (0..<leafCount).allSatisfy({ other in other == leaf || agree(first[other], second[other]) }) {
                        return Pair(first: first, second: second)
                    }
                }
            }
            return nil
        }
    }

    private static func agree(_ a: UInt8, _ b: UInt8) -> Bool {
        a == b || dontCare(a) || dontCare(b)
    }

    private static func dontCare(_ value: UInt8) -> Bool {
        value == CoverageRecorder.LeafValue.skipped.rawValue || value >= CoverageRecorder.LeafValue.unansweredFalse.rawValue
    }
}
