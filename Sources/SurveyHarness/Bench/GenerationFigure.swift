import SurveyCore

/// What `generate` achieves on one survey, beside how many plain random walks take as many branches.
public struct GenerationFigure: Sendable {
    public var path: String
    public var scenarios: Int
    /// Actions in all the generated scenarios together.
    public var actions: Int
    public var taken: Int
    public var possible: Int
    public var impossible: Int
    /// Walks the generator's search ran.
    public var searchWalks: Int
    public var seconds: Double
    /// Seeded random walks (fuzz's walker, no guidance) until they together took as many branches as the
    /// generated scenarios; nil when `randomCap` walks did not.
    public var randomWalks: Int?
    /// Actions in those random walks together.
    public var randomSteps: Int
    public var randomCap: Int
}

extension Benchmark {
    /// Generates the covering scenarios of a survey, then counts the random walks that reach the same
    /// number of branches taken.
    public func generation(_ survey: any Survey, path: String, randomCap: Int) -> GenerationFigure {
        let start = ProcessMeter.now()
        let result = ScenarioGenerator(survey: survey, configuration: .init(settings: settings)).run()
        let seconds = ProcessMeter.seconds(since: start)
        let (possible, taken, impossible) = result.report.totals

        let plan = survey.coveragePlan()
        let layout = CoverageReport.layout(of: plan)
        let recorder = CoverageRecorder(plan: plan)
        var walker = Walker(survey: survey, settings: settings, maxSteps: 100, builtInProperties: false, properties: nil)
        walker.coverage = recorder
        var randomWalks: Int?
        var randomSteps = 0
        for walk in 0..<randomCap {
            var stream = ChoiceStream(generator: SplitMix64(seed: SplitMix64.walkSeed(1, walk: walk)))
            randomSteps += walker.walk(&stream).actions.count
            if CoverageReport.taken(layout, in: recorder.counts, plan: plan).count >= taken {
                randomWalks = walk + 1
                break
            }
        }
        return GenerationFigure(
            path: path, scenarios: result.scenarios.count, actions: result.scenarios.map(\.actions.count).reduce(0, +), taken: taken,
            possible: possible, impossible: impossible, searchWalks: result.walks, seconds: seconds, randomWalks: randomWalks,
            randomSteps: randomSteps, randomCap: randomCap)
    }
}
