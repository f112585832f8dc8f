/// What sessions report while they run, counted per branch of a `CoveragePlan`. One recorder serves one
/// thread; counts (and saved coverage files) merge by adding.
public final class CoverageRecorder: @unchecked Sendable {
    /// How a leaf came out in one evaluation of its decision.
    public enum LeafValue: UInt8, Sendable {
        /// Not evaluated: an earlier leaf decided the tree (short-circuit).
        case skipped = 0
        case `false` = 1
        case `true` = 2
        /// Evaluated on a question with no answer; the engine still gives it a value.
        case unansweredFalse = 3
        case unansweredTrue = 4
    }

    public let plan: CoveragePlan
    public private(set) var counts: CoverageCounts

    public init(plan: CoveragePlan) {
        self.plan = plan
        self.counts = CoverageCounts(plan: plan)
    }

    /// One evaluation of a decision: its outcome and the value of each of its leaves, in `leafIndices` order.
    public func decision(_ index: Int, outcome: Bool, leaves: [LeafValue]) {
        counts.decisions[index][outcome ? 1 : 0] += 1
        for (leaf, value) in zip(plan.decisions[index].leafIndices, leaves) {
            switch value {
            case .skipped: break
            case .false: counts.leaves[leaf][0] += 1
            case .true: counts.leaves[leaf][1] += 1
            case .unansweredFalse, .unansweredTrue: counts.leaves[leaf][2] += 1
            }
        }
        if leaves.count > 1, counts.rows[index].count < CoverageCounts.maximumRows {
            counts.rows[index].insert(leaves.map(\.rawValue) + [outcome ? 1 : 0])
        }
    }

    public func validation(_ index: Int, passed: Bool) { counts.validations[index][passed ? 1 : 0] += 1 }
    public func choice(_ index: Int) { counts.choices[index] += 1 }
    public func question(_ index: Int, shown: Bool) { counts.questions[index][shown ? 0 : 1] += 1 }
    public func answered(_ index: Int) { counts.questions[index][2] += 1 }
    public func terminal(_ index: Int) { counts.terminals[index] += 1 }

    /// Puts the counts back as they were (a session undoing an action it refused, whose branches were never
    /// taken).
    public func restore(_ counts: CoverageCounts) {
        self.counts = counts
    }

    /// Adds counts of the same plan (from another recorder or a saved file); whether a count reached
    /// `CoverageCounts.maximum` and stopped there.
    @discardableResult
    public func merge(_ other: CoverageCounts) -> Bool {
        counts.add(other)
    }
}

/// The counts of a coverage run, shaped by its plan.
public struct CoverageCounts: Sendable, Equatable {
    /// Per decision: evaluations that came out false, and true.
    public var decisions: [[Int]]
    /// Per leaf: evaluations false, true, and on an unanswered question ("not evaluable").
    public var leaves: [[Int]]
    /// Per decision: the distinct leaf vectors seen with their outcome (`LeafValue` raw values, then 0 or
    /// 1), for MC/DC.
    public var rows: [Set<[UInt8]>]
    /// Per validation: failed, passed.
    public var validations: [[Int]]
    public var choices: [Int]
    /// Per question: shown, hidden, answered.
    public var questions: [[Int]]
    public var terminals: [Int]

    /// At most this many distinct rows are kept per decision for MC/DC.
    public static let maximumRows = 4096

    /// The largest count: 2^53 − 1, the largest whole number a JSON number holds exactly along with every
    /// smaller one. Coverage files are read and written by this one rule: a count read past it is an error,
    /// and adding stops there (a merge that reaches it is refused by `coverage merge`).
    public static let maximum = (1 << 53) - 1

    public init(
        decisions: [[Int]], leaves: [[Int]], rows: [Set<[UInt8]>], validations: [[Int]], choices: [Int], questions: [[Int]], terminals: [Int]
    ) {
        self.decisions = decisions
        self.leaves = leaves
        self.rows = rows
        self.validations = validations
        self.choices = choices
        self.questions = questions
        self.terminals = terminals
    }

    public init(plan: CoveragePlan) {
        decisions = Array(repeating: [0, 0], count: plan.decisions.count)
        leaves = Array(repeating: [0, 0, 0], count: plan.leaves.count)
        rows = Array(repeating: [], count: plan.decisions.count)
        validations = Array(repeating: [0, 0], count: plan.validations.count)
        choices = Array(repeating: 0, count: plan.choices.count)
        questions = Array(repeating: [0, 0, 0], count: plan.questions.count)
        terminals = Array(repeating: 0, count: plan.terminals.count)
    }

    /// Adds counts of the same plan; a count that would pass `maximum` stays there, and the result says
    /// whether one did.
    @discardableResult
    public mutating func add(_ other: CoverageCounts) -> Bool {
        var capped = false
        func plus(_ a: Int, _ b: Int) -> Int {
            guard a <= Self.maximum - b else {
                capped = true
                return Self.maximum
            }
            return a + b
        }
        func sum(_ a: [[Int]], _ b: [[Int]]) -> [[Int]] { zip(a, b).map { zip($0, $1).map(plus) } }
        decisions = sum(decisions, other.decisions)
        leaves = sum(leaves, other.leaves)
        validations = sum(validations, other.validations)
        questions = sum(questions, other.questions)
        choices = zip(choices, other.choices).map(plus)
        terminals = zip(terminals, other.terminals).map(plus)
        for index in rows.indices {
            for row in other.rows[index] where rows[index].count < Self.maximumRows { rows[index].insert(row) }
        }
        return capped
    }
}
