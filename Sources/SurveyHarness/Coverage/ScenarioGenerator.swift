import SurveyCore

/// Finds a small set of scenarios that together take every branch of a survey's logic that it can reach.
///
/// The search is coverage-guided: walks draw their answers from the format's candidate values (the
/// condition literals and their neighbours, validation bounds, each option), and every walk that takes a
/// branch no earlier walk took is kept; later walks often start as a kept one did (a random prefix of its
/// choices) and explore from there, so branches deep behind a rare answer are reached from the walks that
/// got close. The search stops when every branch not proved impossible is taken, or when `patience` walks
/// in a row took nothing new. Then a greedy set cover picks kept walks, each shrunk action by action to the
/// fewest actions that still take the branches it was picked for.
public struct ScenarioGenerator {
    public struct Configuration: Sendable {
        public var seed: UInt64
        /// Walks at most.
        public var walks: Int
        /// Stop after this many walks in a row that took no new branch.
        public var patience: Int
        public var maxSteps: Int
        public var settings: SessionSettings

        public init(seed: UInt64 = 1, walks: Int = 20_000, patience: Int = 2_000, maxSteps: Int = 100, settings: SessionSettings) {
            self.seed = seed
            self.walks = walks
            self.patience = patience
            self.maxSteps = maxSteps
            self.settings = settings
        }
    }

    /// One generated scenario: its actions and the branches it was the first of the set to take.
    public struct Generated: Sendable {
        public var actions: [Action]
        public var covers: [CoverageReport.BranchInfo]
    }

    public struct Result: Sendable {
        public var scenarios: [Generated]
        /// The coverage of the scenarios together.
        public var report: CoverageReport
        /// Walks the search ran.
        public var walks: Int
        /// Branches not proved impossible that the search did not take.
        public var notFound: [CoverageReport.Branch] {
            report.branches.filter { !$0.status.isTaken && !$0.status.isImpossible }
        }
    }

    public let survey: any Survey
    public let configuration: Configuration
    private let plan: CoveragePlan
    private let layout: [CoverageReport.BranchInfo]

    public init(survey: any Survey, configuration: Configuration) {
        self.survey = survey
        self.configuration = configuration
        self.plan = survey.coveragePlan()
        self.layout = CoverageReport.layout(of: plan)
    }

    private struct Kept {
        var choices: [[Int]]
        var actions: [Action]
        var taken: Set<Int>
    }

    public func run() -> Result {
        var walker = Walker(
            survey: survey, settings: configuration.settings, maxSteps: configuration.maxSteps, builtInProperties: false, properties: nil)
        let (kept, walks) = search(&walker)
        let scenarios = cover(kept, walker: walker)
        let recorder = CoverageRecorder(plan: plan)
        walker.coverage = recorder
        for scenario in scenarios { _ = walker.check(scenario.actions) }
        return Result(scenarios: scenarios, report: CoverageReport(plan: plan, layout: layout, counts: recorder.counts), walks: walks)
    }

    /// The walks that each took a branch none before it took, and how many walks were run.
    private func search(_ walker: inout Walker) -> (kept: [Kept], walks: Int) {
        let possible = Set(layout.indices.filter { layout[$0].impossible == nil })
        var kept: [Kept] = []
        var union: Set<Int> = []
        var picker = SplitMix64(seed: configuration.seed ^ 0x6765_6E65_7261_7465)  // "generate"
        var lastGain = 0
        var walks = 0
        while walks < configuration.walks, walks - lastGain < configuration.patience, !possible.isSubset(of: union) {
            let generator = SplitMix64(seed: SplitMix64.walkSeed(configuration.seed, walk: walks))
            var stream: ChoiceStream
            if kept.isEmpty || walks % 2 == 0 {
                stream = ChoiceStream(generator: generator)
            } else {
                let parent = kept[picker.next(below: kept.count)].choices
                stream = ChoiceStream(recorded: Array(parent.prefix(picker.next(below: parent.count + 1))), continuingWith: generator)
            }
            walks += 1
            let recorder = CoverageRecorder(plan: plan)
            walker.coverage = recorder
            let outcome = walker.walk(&stream)
            let taken = CoverageReport.taken(layout, in: recorder.counts, plan: plan)
            if !taken.isSubset(of: union) {
                union.formUnion(taken)
                kept.append(Kept(choices: outcome.choices, actions: outcome.actions, taken: taken))
                lastGain = walks
            }
        }
        return (kept, walks)
    }

    /// A greedy set cover of the kept walks, each picked walk shrunk to what it was picked for; then any
    /// scenario the others make redundant is dropped.
    private func cover(_ kept: [Kept], walker: Walker) -> [Generated] {
        var covered: Set<Int> = []
        var picked: [(actions: [Action], taken: Set<Int>)] = []
        var candidates = kept
        while let best = candidates.indices.max(by: { gain(candidates[$0], covered) < gain(candidates[$1], covered) }),
            gain(candidates[best], covered) > 0
        {
            let wanted = candidates[best].taken.subtracting(covered)
            let actions = shrink(candidates[best].actions, keeping: wanted, walker: walker)
            let taken = taken(by: actions, walker: walker)
            covered.formUnion(taken)
            picked.append((actions, taken))
            candidates.remove(at: best)
        }
        for index in picked.indices.reversed() {
            let others = picked.indices.filter { $0 != index }.reduce(into: Set<Int>()) { $0.formUnion(picked[$1].taken) }
            if picked[index].taken.isSubset(of: others) { picked.remove(at: index) }
            else if let (host, merged) = absorb(index, into: picked, others: others, walker: walker) {
                picked[host] = merged
                picked.remove(at: index)
            }
        }
        var first: Set<Int> = []
        return picked.map { scenario in
            let new = scenario.taken.subtracting(first).sorted()
            first.formUnion(scenario.taken)
            return Generated(actions: scenario.actions, covers: new.map { layout[$0] })
        }
    }

    /// Another scenario that can take what scenario `index` alone takes by ending the way it ends (its last
    /// few actions appended, or put before a final Submit): often a last answer changed to another option.
    private func absorb(
        _ index: Int, into picked: [(actions: [Action], taken: Set<Int>)], others: Set<Int>, walker: Walker
    ) -> (host: Int, scenario: (actions: [Action], taken: Set<Int>))? {
        let own = picked[index].taken.subtracting(others)
        let actions = picked[index].actions
        for host in picked.indices where host != index {
            let base = picked[host].actions
            let wanted = picked[host].taken.union(own)
            for length in 1...min(actions.count, 8) {
                let tail = actions.suffix(length)
                var candidates = [base + tail]
                if base.last == .submit { candidates.append(base.dropLast() + tail + [.submit]) }
                for candidate in candidates {
                    let taken = taken(by: candidate, walker: walker)
                    if wanted.isSubset(of: taken) { return (host, (candidate, taken)) }
                }
            }
        }
        return nil
    }

    private func gain(_ walk: Kept, _ covered: Set<Int>) -> Int {
        walk.taken.subtracting(covered).count
    }

    private func taken(by actions: [Action], walker: Walker) -> Set<Int> {
        var walker = walker
        let recorder = CoverageRecorder(plan: plan)
        walker.coverage = recorder
        _ = walker.check(actions)
        return CoverageReport.taken(layout, in: recorder.counts, plan: plan)
    }

    /// The fewest actions (removing runs, then single actions) that still take every branch in `wanted`.
    private func shrink(_ actions: [Action], keeping wanted: Set<Int>, walker: Walker) -> [Action] {
        var best = actions
        var budget = 3_000
        for size in [16, 8, 4, 2, 1] {
            var start = best.count - size
            while start >= 0, budget > 0 {
                var candidate = best
                candidate.removeSubrange(start..<(start + size))
                budget -= 1
                if wanted.isSubset(of: taken(by: candidate, walker: walker)) {
                    best = candidate
                    start = min(start, best.count - size)
                } else {
                    start -= 1
                }
            }
        }
        return best
    }
}
