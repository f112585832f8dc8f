import FHIRPathConformance
import Foundation
import SurveyCore
import SurveyFormats
import SurveyHarness

/// The figures of one bench run and the targets of the performance issues.
struct BenchReport {
    /// The survey replayed, whose walk and memory figures are also the top-level ones of the earlier issues.
    var survey: String
    /// The shared corpus folder, where the surveys the targets name are.
    var corpus: String
    var formats: [FormatFigures] = []
    var replay: BenchFigure?
    var suite: (figure: BenchFigure, scenarios: Int)?
    var jobs: (one: BenchFigure, two: BenchFigure, scenarios: Int)?
    var generation: [GenerationFigure] = []
    /// FHIRPath: evaluations a second of the compiled score expression, and suite expressions a second (and
    /// how many tests), each per second of the thread's CPU time and per second of wall-clock time.
    var fhirpathScore: (cpu: BenchFigure, wall: BenchFigure)?
    var fhirpathSuite: (cpu: BenchFigure, wall: BenchFigure, tests: Int)?

    static let sizes = [100, 1_000, 10_000, 100_000]
    /// Walks of the end-to-end fuzz figure, as the target names them (`fuzz --walks 20000`).
    static let fuzzWalks = 20_000
    /// Scenarios at least in the suite `--jobs` is measured on.
    static let jobsScenarios = 2_000

    /// The parts of a bench run, which `--only` selects.
    enum Part: String, CaseIterable {
        case memory, walks, replay, sizes, fuzz, suite, jobs, generate, fhirpath

        /// The parts measured per format, the default when formats, a profile or options are chosen.
        static let perFormat: [Part] = [.memory, .walks, .replay, .sizes, .fuzz]
    }

    /// The figures of one workload.
    struct FormatFigures {
        var workload: BenchWorkload
        /// The workload's surveys that load and run under its settings, the first one the targets name.
        var surveys: [String] = []
        /// Surveys left out, with why.
        var skipped: [(survey: String, reason: String)] = []
        var walks: [(survey: String, off: BenchFigure, on: BenchFigure)] = []
        var loadMilliseconds: [(size: Int, figure: BenchFigure)] = []
        var stepNanoseconds: [(size: Int, figure: BenchFigure)] = []
        var memory: (at100k: Int, at1M: Int, peak: Int)?
        /// `fuzz --walks N` on the first survey, end to end, in steps a second (N is 20,000 unless quick), and
        /// the walk rate with properties off on the same survey measured run by run beside it.
        var fuzz: (walks: Int, figure: BenchFigure, walk: BenchFigure)?

        /// The step cost at a size divided by the cost at 100 (medians).
        func ratio(_ size: Int) -> Double? {
            guard let base = stepNanoseconds.first(where: { $0.size == 100 })?.figure.median,
                let figure = stepNanoseconds.first(where: { $0.size == size })?.figure.median, base > 0
            else { return nil }
            return figure / base
        }

        func walk(on survey: String) -> (off: BenchFigure, on: BenchFigure)? {
            walks.first { $0.survey == survey }.map { ($0.off, $0.on) }
        }

        /// End-to-end fuzz against the walks alone (properties off) on the first survey, by the medians of the
        /// two measured alternately: on a machine whose speed drifts, figures taken minutes apart would put the
        /// drift into the ratio.
        var fuzzRatio: Double? {
            guard let fuzz, fuzz.walk.median > 0 else { return nil }
            return fuzz.figure.median / fuzz.walk.median
        }
    }

    static func measure(
        workloads: [BenchWorkload], survey: String, parts: Set<Part>, runs: Int, quick: Bool, corpus: String, progress: (String) -> Void
    ) -> BenchReport {
        var report = BenchReport(survey: survey, corpus: corpus)
        for workload in workloads {
            report.formats.append(measure(workload, parts: parts, runs: runs, quick: quick, progress: progress))
        }
        if parts.contains(.replay), let workload = workloads.first(where: { $0.surveys.first == survey }),
            let loaded = try? FormatRegistry.standard.load(InputFiles.read(survey))
        {
            progress("replay")
            let bench = Benchmark(settings: workload.settings)
            let actions = bench.walkActions(loaded, walks: quick ? 200 : 2_000)
            report.replay = BenchFigure.of(runs: runs) { bench.replayStepsPerSecond(loaded, actions: actions) }
        }
        let bench = Benchmark()
        if parts.contains(.jobs), let layout = bench.copiedSuite(of: "Scenarios", count: quick ? 200 : jobsScenarios) {
            progress("jobs")
            // One job and two, alternately: both figures see the machine as it is over the same stretch of
            // time (a run of one job after another would give each its own half of the drift).
            var count = 0
            var one: [Double] = []
            var two: [Double] = []
            for _ in 0..<runs {
                let (seconds, scenarios) = bench.suiteSeconds(layout, jobs: 1)
                count = scenarios
                one.append(seconds)
                two.append(bench.suiteSeconds(layout, jobs: 2).seconds)
            }
            report.jobs = (BenchFigure(one), BenchFigure(two), count)
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

    /// One workload's figures: memory first (before the other parts allocate), then per survey the walk
    /// rates, the end-to-end fuzz, and the size series. Slow engines are measured over a time budget rather
    /// than a number of steps.
    private static func measure(_ workload: BenchWorkload, parts: Set<Part>, runs: Int, quick: Bool, progress: (String) -> Void) -> FormatFigures {
        let bench = Benchmark(settings: workload.settings)
        var figures = FormatFigures(workload: workload)
        var surveys: [(path: String, survey: any Survey)] = []
        for path in workload.surveys {
            do {
                let survey = try FormatRegistry.standard.load(InputFiles.read(path))
                if let problem = survey.problem(with: workload.settings) {
                    figures.skipped.append((path, problem))
                } else {
                    surveys.append((path, survey))
                }
            } catch {
                figures.skipped.append((path, error.diagnostics.map(\.description).joined(separator: "; ")))
            }
        }
        figures.surveys = surveys.map(\.path)
        if parts.contains(.memory), !quick, let main = surveys.first {
            progress("\(workload.label): memory")
            figures.memory = bench.walkMemory(main.survey)
        }
        // Each run walks or fuzzes the survey loaded afresh (the load is not timed), as a command starts: what a
        // survey keeps from checking walks (responses read back) would flatter every run after the first.
        func fresh(_ path: String, _ loaded: any Survey) -> any Survey {
            (try? FormatRegistry.standard.load(InputFiles.read(path))) ?? loaded
        }
        if parts.contains(.walks) {
            let steps = quick ? 20_000 : 500_000
            let budget = quick ? 0.2 : 1.0
            for (path, survey) in surveys {
                progress("\(workload.label): walks on \(path)")
                let off = BenchFigure.of(runs: runs) { bench.walkStepsPerSecond(fresh(path, survey), builtInProperties: false, steps: steps, budget: budget) }
                let on = BenchFigure.of(runs: runs) { bench.walkStepsPerSecond(fresh(path, survey), builtInProperties: true, steps: steps / 4, budget: budget) }
                figures.walks.append((path, off, on))
            }
        }
        if parts.contains(.fuzz), let main = surveys.first {
            progress("\(workload.label): fuzz")
            let walks = quick ? 500 : fuzzWalks
            // A walk run and a fuzz run alternately, as the jobs figure does: the ratio is of two figures taken
            // over the same stretch of time.
            var fuzz: [Double] = []
            var walk: [Double] = []
            for _ in 0..<runs {
                walk.append(bench.walkStepsPerSecond(fresh(main.path, main.survey), builtInProperties: false, steps: quick ? 20_000 : 500_000, budget: quick ? 0.2 : 1.0))
                fuzz.append(bench.fuzzStepsPerSecond(fresh(main.path, main.survey), walks: walks))
            }
            figures.fuzz = (walks, BenchFigure(fuzz), BenchFigure(walk))
        }
        if parts.contains(.sizes), let synthetic = workload.synthetic {
            for size in quick ? [100, 1_000] : sizes {
                progress("\(workload.label): \(size) questions")
                let file = synthetic.file(size: size)
                let large: any Survey
                do {
                    large = try FormatRegistry.standard.load(file)
                } catch {
                    figures.skipped.append((file.path, error.diagnostics.map(\.description).joined(separator: "; ")))
                    break
                }
                if let problem = large.problem(with: workload.settings) {
                    figures.skipped.append((file.path, problem))
                    break
                }
                figures.loadMilliseconds.append((size, BenchFigure.of(runs: runs) { bench.loadSeconds(file) * 1000 }))
                let steps = quick ? 5_000 : 100_000
                let budget = quick ? 0.5 : 2.0
                figures.stepNanoseconds.append(
                    (size, BenchFigure.of(runs: runs) { 1e9 / bench.walkStepsPerSecond(large, builtInProperties: false, steps: steps, budget: budget) }))
            }
        }
        return figures
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

    // The figures of the earlier issues: walks, replay and memory on `survey`, sizes of SurveyNative.

    /// The workload whose first survey is `survey`.
    var surveyFigures: FormatFigures? { formats.first { $0.surveys.first == survey } }

    var walkOff: BenchFigure? { surveyFigures?.walk(on: survey)?.off }
    var walkOn: BenchFigure? { surveyFigures?.walk(on: survey)?.on }
    var memory: (at100k: Int, at1M: Int, peak: Int)? { surveyFigures?.memory }
    /// SurveyNative's size series, under its default settings.
    var surveyNativeSizes: FormatFigures? { formats.first { $0.workload.key == SurveyNativeFormat.name && $0.workload.settings.options.isEmpty } }
}
