import Foundation
import SurveyCore
import SurveyFormats

/// Collects coverage from scenarios and random walks, one recorder per survey file.
public struct CoverageRun {
    public var registry: FormatRegistry

    public init(registry: FormatRegistry = .standard) {
        self.registry = registry
    }

    /// The coverage of each survey: `paths` are scenario files or folders (their surveys are covered) and
    /// survey files (covered by walks only); `walks` random walks are added on every survey.
    public func run(
        paths: [String], walks: Int, seed: UInt64, maxSteps: Int, settings: SessionSettings = SessionSettings()
    ) -> (surveys: [(path: String, recorder: CoverageRecorder)], problems: [Diagnostic]) {
        var problems: [Diagnostic] = []
        var recorders: [(path: String, survey: any Survey, recorder: CoverageRecorder)] = []
        func recorder(for path: String) -> (survey: any Survey, recorder: CoverageRecorder)? {
            if let known = recorders.first(where: { $0.path == path }) { return (known.survey, known.recorder) }
            do throws(InputError) {
                let survey = try registry.load(InputFiles.read(path))
                let recorder = CoverageRecorder(plan: survey.coveragePlan())
                recorders.append((path, survey, recorder))
                return (survey, recorder)
            } catch {
                problems += error.diagnostics
                return nil
            }
        }
        let surveyFiles = paths.filter { $0.hasSuffix(".json") }
        let (scenarios, found) = ScenarioDiscovery.find(paths.filter { !$0.hasSuffix(".json") }, extension: "scenario")
        problems += found
        for path in surveyFiles { _ = recorder(for: InputFiles.normalize(path)) }
        let runner = ScenarioRunner(registry: registry)
        for path in scenarios.sorted() {
            do throws(InputError) {
                let scenario = try ScenarioParser.parse(InputFiles.read(path))
                guard let surveyPath = scenario.surveyPath, let (survey, coverage) = recorder(for: InputFiles.resolve(surveyPath, relativeTo: path)) else { continue }
                if let stale = runner.run(scenario, survey: survey, coverage: coverage).staleDiagnostic(scenarioPath: path) {
                    problems.append(stale)
                }
            } catch {
                problems += error.diagnostics
            }
        }
        if walks > 0 {
            for (path, survey, coverage) in recorders {
                if let problem = survey.problem(with: settings) {
                    problems.append(Diagnostic(file: path, position: nil, message: "cannot walk it: \(problem)"))
                    continue
                }
                var walker = Walker(survey: survey, settings: settings, maxSteps: maxSteps, builtInProperties: false, properties: nil)
                walker.coverage = coverage
                for walk in 0..<walks {
                    var stream = ChoiceStream(generator: SplitMix64(seed: SplitMix64.walkSeed(seed, walk: walk)))
                    _ = walker.walk(&stream)
                }
            }
        }
        return (recorders.map { ($0.path, $0.recorder) }, problems)
    }
}
