import FHIRPathConformance
import Foundation
import SurveyCore
import SurveyFormats
import SurveyHarness

/// The figures of one bench run and the targets of the performance issue.
struct BenchReport {
    var survey: String
    var loadMilliseconds: [(size: Int, figure: BenchFigure)] = []
    var walkOff: BenchFigure?
    var walkOn: BenchFigure?
    var replay: BenchFigure?
    var stepNanoseconds: [(size: Int, figure: BenchFigure)] = []
    var memory: (at100k: Int, at1M: Int, peak: Int)?
    var suite: (figure: BenchFigure, scenarios: Int)?
    var jobs: (one: BenchFigure, two: BenchFigure, scenarios: Int)?
    var generation: [GenerationFigure] = []
    /// FHIRPath: evaluations a second of the compiled score expression, and suite expressions a second (and
    /// how many tests), each per second of the thread's CPU time and per second of wall-clock time.
    var fhirpathScore: (cpu: BenchFigure, wall: BenchFigure)?
    var fhirpathSuite: (cpu: BenchFigure, wall: BenchFigure, tests: Int)?

    static let sizes = [100, 1_000, 10_000, 100_000]

    /// The parts of a bench run, which `--only` selects.
    enum Part: String, CaseIterable {
        case memory, walks, replay, sizes, suite, jobs, generate, fhirpath
    }

    static func measure(
        survey: any Survey, surveyPath: String, parts: Set<Part>, runs: Int, quick: Bool, corpus: String, progress: (String) -> Void
    ) -> BenchReport {
        let bench = Benchmark()
        var report = BenchReport(survey: surveyPath)
        if parts.contains(.memory), !quick {
            progress("memory")
            report.memory = bench.walkMemory(survey)
        }
        if parts.contains(.walks) {
            progress("walks")
            let steps = quick ? 20_000 : 500_000
            report.walkOff = BenchFigure.of(runs: runs) { bench.walkStepsPerSecond(survey, builtInProperties: false, steps: steps) }
            report.walkOn = BenchFigure.of(runs: runs) { bench.walkStepsPerSecond(survey, builtInProperties: true, steps: steps / 4) }
        }
        if parts.contains(.replay) {
            progress("replay")
            let actions = bench.walkActions(survey, walks: quick ? 200 : 2_000)
            report.replay = BenchFigure.of(runs: runs) { bench.replayStepsPerSecond(survey, actions: actions) }
        }
        for size in !parts.contains(.sizes) ? [] : quick ? [100, 1_000] : sizes {
            progress("\(size) questions")
            let file = SyntheticSurveyNative().file(size: size)
            report.loadMilliseconds.append((size, BenchFigure.of(runs: runs) { bench.loadSeconds(file) * 1000 }))
            guard let large = try? FormatRegistry.standard.load(file) else { continue }
            let perStep = quick ? 5_000 : 100_000
            report.stepNanoseconds.append((size, BenchFigure.of(runs: runs) { 1e9 / bench.walkStepsPerSecond(large, builtInProperties: false, steps: perStep) }))
        }
        if parts.contains(.jobs), let layout = bench.copiedSuite(of: "Scenarios", count: quick ? 40 : 200) {
            progress("jobs")
            var count = 0
            let one = BenchFigure.of(runs: runs) {
                let (seconds, scenarios) = bench.suiteSeconds(layout, jobs: 1, repeats: 5)
                count = scenarios
                return seconds
            }
            let two = BenchFigure.of(runs: runs) { bench.suiteSeconds(layout, jobs: 2, repeats: 5).seconds }
            report.jobs = (one, two, count)
            try? FileManager.default.removeItem(atPath: InputFiles.folder(of: layout.scenariosRoot))
        }
        if parts.contains(.suite), FileManager.default.fileExists(atPath: "Scenarios") {
            progress("suite")
            var count = 0
            let figure = BenchFigure.of(runs: runs) {
                let (seconds, scenarios) = bench.suiteSeconds(SnapshotLayout(), jobs: 1)
                count = scenarios
                return seconds
            }
            report.suite = (figure, count)
        }
        if parts.contains(.fhirpath) {
            progress("fhirpath")
            report.measureFHIRPath(corpus: corpus, runs: runs, quick: quick)
        }
        if parts.contains(.generate) {
            for (path, survey) in generationSurveys(corpus: corpus, quick: quick) {
                progress("generate \(path)")
                report.generation.append(bench.generation(survey, path: path, randomCap: quick ? 2_000 : 100_000))
            }
        }
        return report
    }

    /// The FHIRPath figures: the score expression (a sum over nine answers' weights) evaluated compiled, and
    /// every expression of the official suite (in `corpus`/fhirpath) parsed, checked and evaluated.
    private mutating func measureFHIRPath(corpus: String, runs: Int, quick: Bool) {
        let evaluations = quick ? 20_000 : 2_000_000
        let score = (0..<runs).map { _ in FHIRPathBenchmark.scoreEvaluationsPerSecond(evaluations: evaluations).rate }
        fhirpathScore = (BenchFigure(score.map(\.perCPUSecond)), BenchFigure(score.map(\.perWallSecond)))
        let folder = corpus + "/fhirpath"
        guard let suite = try? ConformanceSuite.load(contentsOf: folder + "/tests-fhir-r4.xml"), let runner = try? ConformanceRunner(folder: folder) else { return }
        let rounds = quick ? 2 : 100
        let rates = (0..<runs).map { _ in FHIRPathBenchmark.suiteExpressionsPerSecond(suite, runner: runner, rounds: rounds) }
        fhirpathSuite = (BenchFigure(rates.map(\.perCPUSecond)), BenchFigure(rates.map(\.perWallSecond)), suite.tests.count)
    }

    /// The team's surveys (under Scenarios/) and, unless quick, the corpus surveys that load, by path.
    private static func generationSurveys(corpus: String, quick: Bool) -> [(String, any Survey)] {
        var paths = ScenarioDiscovery.find(["Scenarios"], extension: "json").files.sorted()
        if !quick { paths += ScenarioDiscovery.find([corpus], extension: "json").files.sorted() }
        return paths.compactMap { path in
            guard let file = try? InputFiles.read(path), let survey = try? FormatRegistry.standard.load(file) else { return nil }
            return (path, survey)
        }
    }

    private func ratio(_ size: Int) -> Double? {
        guard let base = stepNanoseconds.first(where: { $0.size == 100 })?.figure.median,
            let figure = stepNanoseconds.first(where: { $0.size == size })?.figure.median, base > 0
        else { return nil }
        return figure / base
    }

    /// Each target of the performance issue and whether this run meets it.
    var targets: [(name: String, met: Bool?)] {
        [
            ("walk steps/s with properties off ≥ 1,000,000", walkOff.map { $0.median >= 1_000_000 }),
            ("walk steps/s with built-in properties ≥ 250,000", walkOn.map { $0.median >= 250_000 }),
            ("step cost at 10,000 questions ≤ 2× at 100", ratio(10_000).map { $0 <= 2 }),
            ("step cost at 100,000 questions ≤ 4× at 100", ratio(100_000).map { $0 <= 4 }),
            ("load of 10,000 questions ≤ 100 ms", loadMilliseconds.first { $0.size == 10_000 }.map { $0.figure.median <= 100 }),
            ("load of 100,000 questions ≤ 1 s", loadMilliseconds.first { $0.size == 100_000 }.map { $0.figure.median <= 1_000 }),
            ("memory growth from 100,000 to 1,000,000 steps < 10 MB", memory.map { $0.at1M - $0.at100k < 10_000_000 }),
            ("the project's suite ≤ 0.5 s", suite.map { $0.figure.median <= 0.5 }),
            ("--jobs 2 ≥ 1.7× faster than --jobs 1 on 200 scenarios", jobs.map { $0.one.median / $0.two.median >= 1.7 }),
            ("FHIRPath score expression evaluations/s (CPU time) ≥ 1,000,000", fhirpathScore.map { $0.cpu.median >= 1_000_000 }),
            ("FHIRPath suite expressions parsed and evaluated/s (CPU time) ≥ 100,000", fhirpathSuite.map { $0.cpu.median >= 100_000 }),
        ]
    }

    private func figureJSON(_ figure: BenchFigure) -> JSONValue {
        ["min": .number(figure.min), "median": .number(figure.median), "max": .number(figure.max)]
    }

    var json: JSONValue {
        var object: [String: JSONValue] = [
            "survey": .string(survey),
            "walkStepsPerSecond": ["propertiesOff": walkOff.map(figureJSON) ?? .null, "propertiesOn": walkOn.map(figureJSON) ?? .null],
            "replayStepsPerSecond": replay.map(figureJSON) ?? .null,
            "loadMilliseconds": .object(Dictionary(uniqueKeysWithValues: loadMilliseconds.map { (String($0.size), figureJSON($0.figure)) })),
            "stepNanoseconds": .object(Dictionary(uniqueKeysWithValues: stepNanoseconds.map { (String($0.size), figureJSON($0.figure)) })),
            "stepCostRatio": .object(Dictionary(uniqueKeysWithValues: BenchReport.sizes.dropFirst().compactMap { size in ratio(size).map { (String(size), JSONValue.number($0)) } })),
            "targets": .object(Dictionary(uniqueKeysWithValues: targets.map { ($0.name, $0.met.map(JSONValue.bool) ?? .null) })),
        ]
        if let memory {
            object["memory"] = ["residentBytesAt100kSteps": .number(Double(memory.at100k)), "residentBytesAt1MSteps": .number(Double(memory.at1M)),
                                "peakBytes": .number(Double(memory.peak)), "growthBytes": .number(Double(memory.at1M - memory.at100k))]
        }
        if let suite { object["suiteSeconds"] = ["scenarios": .number(Double(suite.scenarios)), "seconds": figureJSON(suite.figure)] }
        if let jobs {
            object["jobsScaling"] = ["scenarios": .number(Double(jobs.scenarios)), "jobs1Seconds": figureJSON(jobs.one), "jobs2Seconds": figureJSON(jobs.two),
                                     "speedup": .number(jobs.one.median / jobs.two.median)]
        }
        if fhirpathScore != nil || fhirpathSuite != nil {
            object["fhirpath"] = [
                "scoreExpression": .string(FHIRPathBenchmark.scoreExpression),
                "scoreEvaluationsPerSecond": fhirpathScore.map { figureJSON($0.cpu) } ?? .null,
                "scoreEvaluationsPerWallSecond": fhirpathScore.map { figureJSON($0.wall) } ?? .null,
                "suiteExpressionsPerSecond": fhirpathSuite.map { figureJSON($0.cpu) } ?? .null,
                "suiteExpressionsPerWallSecond": fhirpathSuite.map { figureJSON($0.wall) } ?? .null,
                "suiteTests": fhirpathSuite.map { .number(Double($0.tests)) } ?? .null,
            ]
        }
        if !generation.isEmpty {
            object["generation"] = .array(
                generation.map { figure in
                    [
                        "survey": .string(figure.path), "scenarios": .number(Double(figure.scenarios)), "actions": .number(Double(figure.actions)),
                        "branchesTaken": .number(Double(figure.taken)), "branchesPossible": .number(Double(figure.possible)),
                        "branchesImpossible": .number(Double(figure.impossible)), "searchWalks": .number(Double(figure.searchWalks)),
                        "seconds": .number(figure.seconds), "randomWalksToSameCoverage": figure.randomWalks.map { .number(Double($0)) } ?? .null,
                        "randomWalksCap": .number(Double(figure.randomCap)), "randomWalkActions": .number(Double(figure.randomSteps)),
                    ]
                })
        }
        return .object(object)
    }

    var text: String {
        func figure(_ value: BenchFigure, _ format: (Double) -> String) -> String {
            "\(format(value.median)) (min \(format(value.min)), max \(format(value.max)))"
        }
        let count = { (value: Double) in String(Int(value.rounded())) }
        let decimal = { (value: Double) in String(format: "%.2f", value) }
        var lines = ["bench (release build recommended); figures are median (min, max)", ""]
        if let walkOff { lines.append("walk steps/s on \(survey), properties off: \(figure(walkOff, count))") }
        if let walkOn { lines.append("walk steps/s on \(survey), built-in properties on: \(figure(walkOn, count))") }
        if let replay { lines.append("replay steps/s on \(survey): \(figure(replay, count))") }
        for (size, value) in loadMilliseconds { lines.append("load of \(size) questions, ms: \(figure(value, decimal))") }
        for (size, value) in stepNanoseconds {
            lines.append("walk step cost at \(size) questions, ns: \(figure(value, count))" + (size == 100 ? "" : ratio(size).map { "; \(decimal($0))× the cost at 100" } ?? ""))
        }
        if let memory {
            lines.append("memory for 1,000,000 walk steps: peak \(memory.peak / 1_000_000) MB; resident \(memory.at100k / 1_000_000) MB at 100,000 steps, \(memory.at1M / 1_000_000) MB at 1,000,000")
        }
        if let suite { lines.append("survey-replay test on the project's \(suite.scenarios) scenarios, s: \(figure(suite.figure, { String(format: "%.3f", $0) }))") }
        if let jobs {
            lines.append("--jobs 2 on \(jobs.scenarios) scenarios: \(String(format: "%.2f", jobs.one.median / jobs.two.median))× faster than --jobs 1")
        }
        if let fhirpathScore {
            lines.append("FHIRPath \(FHIRPathBenchmark.scoreExpression) evaluations/s: \(figure(fhirpathScore.cpu, count)) of CPU time, \(figure(fhirpathScore.wall, count)) of wall clock")
        }
        if let fhirpathSuite {
            lines.append(
                "FHIRPath suite (\(fhirpathSuite.tests) tests) expressions parsed and evaluated/s: \(figure(fhirpathSuite.cpu, count)) of CPU time, \(figure(fhirpathSuite.wall, count)) of wall clock")
        }
        if !generation.isEmpty {
            lines.append("")
            lines.append("generate: covering scenarios beside random walks to the same number of branches taken")
            for figure in generation {
                let random =
                    figure.randomWalks.map { "\($0) walk\($0 == 1 ? "" : "s") (\(figure.randomSteps) actions)" }
                    ?? "more than \(figure.randomCap) walks (\(figure.randomSteps) actions)"
                lines.append(
                    "  \(figure.path): \(figure.scenarios) scenario\(figure.scenarios == 1 ? "" : "s") (\(figure.actions) actions) take "
                        + "\(figure.taken)/\(figure.possible) branches, found in \(decimal(figure.seconds)) s (\(figure.searchWalks) search walks); "
                        + "random walks need \(random)")
            }
        }
        lines.append("")
        lines.append("targets:")
        for (name, met) in targets { lines.append("  \(met.map { $0 ? "met    " : "NOT met" } ?? "n/a    ") \(name)") }
        return lines.joined(separator: "\n") + "\n"
    }
}
