/// A plan's branches in a fixed order with stable ids, and a run's counts read against them: each branch
/// taken, reached but not taken, never reached, or impossible (with the reason); plus MC/DC.
public struct CoverageReport: Sendable {
    public enum Status: Sendable, Equatable {
        case taken(Int)
        /// The decision point was reached but never came out this way.
        case notTaken
        /// The decision point itself was never reached.
        case notReached
        /// It can never happen, for the reason given.
        case impossible(String)

        public var isTaken: Bool {
            if case .taken = self { return true }
            return false
        }

        public var isImpossible: Bool {
            if case .impossible = self { return true }
            return false
        }
    }

    public enum Kind: String, Sendable, CaseIterable {
        case decision, leaf, validation, choice, question, terminal
    }

    /// A branch of the plan, without counts.
    public struct BranchInfo: Sendable {
        /// Stable id: `decision:3:true`, `leaf:7:false`, `validation:2:pass`, `choice:5`, `question:4:shown`.
        public let id: String
        public let kind: Kind
        public let question: String
        public let description: String
        public let location: SourceLocation
        public let impossible: String?
        /// For LCOV: the branch's block (one decision point) and its number within it.
        public let block: Int
        public let branch: Int
        /// Where its count is: the index within its kind, and which outcome.
        let index: Int
        let outcome: Int
        /// For a choice: the index (in the plan's questions) of its question, whose being shown reaches it.
        let shownWith: Int?
    }

    public struct Branch: Sendable {
        public let info: BranchInfo
        public let status: Status

        public var id: String { info.id }
        public var kind: Kind { info.kind }
        public var question: String { info.question }
        public var description: String { info.description }
        public var location: SourceLocation { info.location }
        public var block: Int { info.block }
        public var branch: Int { info.branch }
    }

    public struct MCDCResult: Sendable {
        public let decision: Int
        public let question: String
        public let location: SourceLocation
        /// Per leaf (in the plan's leaf indices): the pair found, or nil.
        public let leaves: [(leaf: Int, pair: MCDC.Pair?)]
    }

    public let plan: CoveragePlan
    public let branches: [Branch]
    public let mcdc: [MCDCResult]
    /// Per leaf: evaluations on an unanswered question ("not evaluable"), counted apart from branches.
    public let notEvaluable: [Int]

    public init(_ recorder: CoverageRecorder) {
        self.init(plan: recorder.plan, layout: CoverageReport.layout(of: recorder.plan), counts: recorder.counts)
    }

    public init(plan: CoveragePlan, layout: [BranchInfo], counts: CoverageCounts) {
        self.plan = plan
        self.branches = layout.map { info in
            let (count, reached) = CoverageReport.count(of: info, in: counts, plan: plan)
            let status: Status =
                if count > 0 { .taken(count) } else if let reason = info.impossible { .impossible(reason) } else if reached { .notTaken } else { .notReached }
            return Branch(info: info, status: status)
        }
        self.notEvaluable = counts.leaves.map { $0[2] }
        self.mcdc = plan.decisions.enumerated().compactMap { index, decision in
            let leaves = decision.leafIndices
            guard leaves.count > 1 else { return nil }
            let pairs = MCDC.pairs(counts.rows[index], leafCount: leaves.count)
            return MCDCResult(decision: index, question: decision.question, location: decision.location, leaves: Array(zip(leaves, pairs)))
        }
    }

    /// Every branch of a plan, in report order.
    public static func layout(of plan: CoveragePlan) -> [BranchInfo] {
        var layout: [BranchInfo] = []
        var block = 0
        let questionIndex = Dictionary(plan.questions.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        func add(
            _ id: String, _ kind: Kind, _ question: String, _ description: String, _ location: SourceLocation, _ impossible: String?,
            index: Int, outcome: Int, branch: Int, shownWith: Int? = nil
        ) {
            layout.append(
                BranchInfo(
                    id: id, kind: kind, question: question, description: description, location: location, impossible: impossible,
                    block: block, branch: branch, index: index, outcome: outcome, shownWith: shownWith))
        }
        for (index, decision) in plan.decisions.enumerated() {
            for (number, outcome) in [true, false].enumerated() {
                add("decision:\(index):\(outcome)", .decision, decision.question, "\(decision.kind) of '\(decision.question)' is \(outcome)", decision.location, decision.impossible[outcome], index: index, outcome: outcome ? 1 : 0, branch: number)
            }
            block += 1
        }
        for (index, leaf) in plan.leaves.enumerated() {
            for (number, outcome) in [true, false].enumerated() {
                add("leaf:\(index):\(outcome)", .leaf, leaf.question, "\(leaf.description) is \(outcome)", leaf.location, leaf.impossible[outcome], index: index, outcome: outcome ? 1 : 0, branch: number)
            }
            block += 1
        }
        for (index, validation) in plan.validations.enumerated() {
            for (number, outcome) in [true, false].enumerated() {
                add("validation:\(index):\(outcome ? "pass" : "fail")", .validation, validation.question, "\(validation.description) \(outcome ? "passes" : "fails")", validation.location, validation.impossible[outcome], index: index, outcome: outcome ? 1 : 0, branch: number)
            }
            block += 1
        }
        for (index, choice) in plan.choices.enumerated() {
            add("choice:\(index)", .choice, choice.question, "\(choice.description) picked", choice.location, choice.impossible[true], index: index, outcome: 0, branch: 0, shownWith: questionIndex[choice.question])
            block += 1
        }
        for (index, question) in plan.questions.enumerated() {
            for (number, (name, outcome)) in [("shown", 0), ("answered", 2)].enumerated() {
                add("question:\(index):\(name)", .question, question.id, "'\(question.id)' \(name)", question.location, question.neverShown, index: index, outcome: outcome, branch: number)
            }
            block += 1
        }
        for (index, terminal) in plan.terminals.enumerated() {
            add("terminal:\(index)", .terminal, terminal.question, terminal.description, terminal.location, terminal.impossible[true], index: index, outcome: 0, branch: 0)
            block += 1
        }
        return layout
    }

    /// How often a branch was taken, and whether its decision point was reached at all.
    static func count(of info: BranchInfo, in counts: CoverageCounts, plan: CoveragePlan) -> (count: Int, reached: Bool) {
        switch info.kind {
        case .decision: (counts.decisions[info.index][info.outcome], counts.decisions[info.index].reduce(0, +) > 0)
        case .leaf: (counts.leaves[info.index][info.outcome], counts.leaves[info.index].reduce(0, +) > 0)
        case .validation: (counts.validations[info.index][info.outcome], counts.validations[info.index].reduce(0, +) > 0)
        case .choice:
            (counts.choices[info.index], info.shownWith.map { counts.questions[$0][0] > 0 } ?? true)
        case .question: (counts.questions[info.index][info.outcome], true)
        case .terminal: (counts.terminals[info.index], true)
        }
    }

    /// The positions (in `layout`) of the branches these counts took.
    public static func taken(_ layout: [BranchInfo], in counts: CoverageCounts, plan: CoveragePlan) -> Set<Int> {
        Set(layout.indices.filter { count(of: layout[$0], in: counts, plan: plan).count > 0 })
    }

    /// Branches that can happen (not proved impossible), and those of them taken.
    public var totals: (possible: Int, taken: Int, impossible: Int) {
        let impossible = branches.filter(\.status.isImpossible).count
        return (branches.count - impossible, branches.filter(\.status.isTaken).count, impossible)
    }

    /// Branch coverage in percent of the branches that can happen.
    public var percent: Double {
        let (possible, taken, _) = totals
        return possible == 0 ? 100 : Double(taken) * 100 / Double(possible)
    }

    public var mcdcTotals: (leaves: Int, shown: Int) {
        let leaves = mcdc.flatMap(\.leaves)
        return (leaves.count, leaves.filter { $0.pair != nil }.count)
    }
}
