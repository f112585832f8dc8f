import SurveyCore

/// Runs seeded random walks over a survey, collects statistics and findings, and shrinks each distinct
/// finding to a minimal scenario.
public struct Fuzzer {
    public struct Configuration: Sendable {
        public var walks: Int
        public var seed: UInt64
        public var maxSteps: Int
        /// 0-based shard index and shard count: walk `w` runs in shard `w % count`.
        public var shard: (index: Int, count: Int)
        public var settings: SessionSettings
        public var builtInProperties: Bool
        public var properties: PropertiesFile?

        public init(
            walks: Int, seed: UInt64, maxSteps: Int, shard: (index: Int, count: Int) = (0, 1),
            settings: SessionSettings, builtInProperties: Bool = true, properties: PropertiesFile? = nil
        ) {
            self.walks = walks
            self.seed = seed
            self.maxSteps = maxSteps
            self.shard = shard
            self.settings = settings
            self.builtInProperties = builtInProperties
            self.properties = properties
        }
    }

    /// One distinct finding, with where it was first found and its shrunk path.
    public struct Report: Sendable {
        public var finding: Finding
        public var firstWalk: Int
        /// How many walks found it.
        public var walks: Int
        public var originalSteps: Int
        public var shrunk: [Action]
        public var token: ReplayToken
    }

    public struct Result: Sendable {
        public var walks = 0
        public var steps = 0
        public var submitted = 0
        public var distinctPaths = 0
        public var distinctVisibleLists = 0
        public var findings: [Report] = []

        public init(walks: Int = 0, findings: [Report] = []) {
            self.walks = walks
            self.findings = findings
        }
    }

    public let survey: any Survey
    public let configuration: Configuration

    public init(survey: any Survey, configuration: Configuration) {
        self.survey = survey
        self.configuration = configuration
    }

    private func walker() -> Walker {
        var walker = Walker(
            survey: survey, settings: configuration.settings, maxSteps: configuration.maxSteps,
            builtInProperties: configuration.builtInProperties, properties: configuration.properties)
        walker.recordsVisibleLists = true
        return walker
    }

    /// The walk with this index, exactly as in any run with this seed.
    public func walk(_ index: Int, using walker: inout Walker) -> Walker.Outcome {
        var stream = ChoiceStream(generator: SplitMix64(seed: SplitMix64.walkSeed(configuration.seed, walk: index)))
        return walker.walk(&stream)
    }

    public func run(progress: ((Int, Int) -> Void)? = nil) -> Result {
        var result = Result()
        var walker = walker()
        var visibleLists = FingerprintSet()
        var firstFound: [String: (walk: Int, step: Int, finding: Finding, choices: [[Int]], steps: Int)] = [:]
        var counts: [String: Int] = [:]
        var order: [String] = []
        let mine = stride(from: configuration.shard.index, to: configuration.walks, by: configuration.shard.count)
        let total = mine.underestimatedCount
        // One path a walk: room for all of them at once, not a rehash at each doubling.
        var paths = FingerprintSet(capacity: total)
        for (done, index) in mine.enumerated() {
            let outcome = walk(index, using: &walker)
            result.walks += 1
            result.steps += outcome.actions.count
            if outcome.submitted { result.submitted += 1 }
            paths.insert(outcome.path)
            // A visible list stays as it was over most steps: each is looked up once where it changes.
            var previous: UInt64?
            for list in outcome.visibleLists where list != previous {
                visibleLists.insert(list)
                previous = list
            }
            var seenInWalk: Set<String> = []
            for (step, finding) in outcome.findings {
                let key = finding.key
                guard seenInWalk.insert(key).inserted else { continue }
                counts[key, default: 0] += 1
                if firstFound[key] == nil {
                    firstFound[key] = (index, step, finding, outcome.choices, outcome.actions.count)
                    order.append(key)
                }
            }
            progress?(done + 1, total)
        }
        result.distinctPaths = paths.count
        result.distinctVisibleLists = visibleLists.count
        result.findings = order.map { key in
            let first = firstFound[key]!
            let shrunk = shrink(first.choices, failedAt: first.step, key: key, property: first.finding.property)
            return Report(
                finding: first.finding, firstWalk: first.walk, walks: counts[key]!, originalSteps: first.steps, shrunk: shrunk,
                token: ReplayToken(seed: configuration.seed, walk: first.walk, maxSteps: configuration.maxSteps, today: configuration.settings.today))
        }
        return result
    }

    /// Reruns the walk a token names: its statistics, and its findings shrunk.
    public func replay(_ token: ReplayToken) -> Result {
        var walker = walker()
        let outcome = walk(token.walk, using: &walker)
        var result = Result(walks: 1)
        result.steps = outcome.actions.count
        result.submitted = outcome.submitted ? 1 : 0
        result.distinctPaths = 1
        result.distinctVisibleLists = Set(outcome.visibleLists).count
        var seen: Set<String> = []
        result.findings = outcome.findings.compactMap { step, finding in
            guard seen.insert(finding.key).inserted else { return nil }
            return Report(
                finding: finding, firstWalk: token.walk, walks: 1, originalSteps: outcome.actions.count,
                shrunk: shrink(outcome.choices, failedAt: step, key: finding.key, property: finding.property), token: token)
        }
        return result
    }

    private func shrink(_ choices: [[Int]], failedAt step: Int, key: String, property: String) -> [Action] {
        var walker = walker()
        walker.wholeWalkChecks = Walker.wholeWalkProperties.contains(property)
        var shrinker = Shrinker(
            failsWithChoices: { candidate in
                var stream = ChoiceStream(recorded: candidate)
                return walker.walk(&stream).findings.contains { $0.finding.key == key }
            },
            failsWithActions: { actions in walker.check(actions).findings.contains { $0.finding.key == key } },
            actionsOf: { candidate in
                var stream = ChoiceStream(recorded: candidate)
                return walker.walk(&stream).actions
            })
        return shrinker.shrink(choices, failedAt: step).actions
    }
}

