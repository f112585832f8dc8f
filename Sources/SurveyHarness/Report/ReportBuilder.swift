import Foundation
import SurveyCore
import SurveyFormats

/// Builds the report site from a suite run, survey files and fuzz runs: replays each scenario to show its
/// session, collects each survey's coverage scenario by scenario (so every branch links to the scenario
/// that first takes it), adds random walks, and lints every survey.
public struct ReportBuilder {
    public var registry: FormatRegistry

    public init(registry: FormatRegistry = .standard) {
        self.registry = registry
    }

    public func site(_ input: ReportInput) -> ReportSite {
        var surveys: [String: SurveyEntry] = [:]
        func survey(at path: String) -> SurveyEntry {
            if let known = surveys[path] { return known }
            let entry = SurveyEntry(path: path, registry: registry)
            surveys[path] = entry
            return entry
        }
        var scenarios: [ScenarioEntry] = []
        for report in input.suite?.reports ?? [] {
            var entry = ScenarioEntry(report: report)
            if let scenario = try? ScenarioParser.parse(InputFiles.read(report.scenarioPath)), let surveyPath = scenario.surveyPath {
                let target = survey(at: InputFiles.resolve(surveyPath, relativeTo: report.scenarioPath))
                entry.surveyPath = target.path
                if let loaded = target.survey {
                    let recorder = target.recorder.map { CoverageRecorder(plan: $0.plan) }
                    entry.record = SessionRecord.replay(scenario, survey: loaded, coverage: recorder)
                    if let recorder { target.add(recorder.counts, by: .scenario(report.name)) }
                }
            }
            scenarios.append(entry)
        }
        for path in input.surveyFiles { _ = survey(at: InputFiles.normalize(path)) }
        for run in input.fuzz { _ = survey(at: InputFiles.normalize(run.surveyPath)) }
        var notes: [Diagnostic] = []
        if input.walks > 0 {
            for path in surveys.keys.sorted() where surveys[path]!.survey != nil {
                let (walked, problems) = CoverageRun(registry: registry).run(
                    paths: [path], walks: input.walks, seed: input.seed, maxSteps: input.maxSteps, settings: input.settings)
                notes += problems
                if let counts = walked.first?.recorder.counts { surveys[path]!.add(counts, by: .walks(input.walks, seed: input.seed)) }
            }
        }

        var names = PageNames()
        for entry in scenarios { names.register(entry.report.name, folder: "scenarios") }
        for path in surveys.keys.sorted() { names.register(Self.displayPath(path), folder: "surveys") }
        let context = ReportContext(names: names, surveys: surveys)

        var site = ReportSite()
        let orderedSurveys = surveys.keys.sorted().map { surveys[$0]! }
        site.add("index.html", SuitePage(input: input, scenarios: scenarios, surveys: orderedSurveys, notes: notes, context: context).html)
        for entry in scenarios {
            site.add(context.scenarioPage(entry.report.name), ScenarioPage(entry: entry, context: context).html)
        }
        for entry in orderedSurveys {
            site.add(context.surveyPage(entry.path), SurveyPage(entry: entry, scenarios: scenarios, context: context).html)
        }
        if !input.fuzz.isEmpty {
            site.add("fuzz.html", FuzzPage(runs: input.fuzz, context: context).html)
        }
        return site
    }

    /// A survey path as the report names it: relative to the current folder when it is inside it.
    static func displayPath(_ path: String) -> String {
        let folder = InputFiles.absolute(".")
        let full = InputFiles.absolute(path)
        return full.hasPrefix(folder + "/") ? String(full.dropFirst(folder.count + 1)) : InputFiles.normalize(path)
    }
}

/// What every page needs to link to the others.
struct ReportContext {
    let names: PageNames
    let surveys: [String: SurveyEntry]

    func scenarioPage(_ name: String) -> String { names.path(name) ?? "index.html" }
    func surveyPage(_ path: String) -> String { names.path(ReportBuilder.displayPath(path)) ?? "index.html" }
}

/// A scenario of the suite and how it stands against its golden.
struct ScenarioEntry {
    enum Status: String, CaseIterable {
        case passed
        case failed
        case pending = "pending"
        case noGolden = "no-golden"
        case stale
        case error
        case obsolete

        var label: String {
            switch self {
            case .passed: "passed"
            case .failed: "failed"
            case .pending: "pending .snap.new"
            case .noGolden: "no golden"
            case .stale: "stale"
            case .error: "could not run"
            case .obsolete: "obsolete golden"
            }
        }

        var explanation: String {
            switch self {
            case .passed: "the session matches its golden and every expectation holds"
            case .failed: "what the respondent sees differs from the golden, or an expectation failed"
            case .pending: "the golden differs and a .snap.new awaits review (survey-replay review --accept or --reject)"
            case .noGolden: "no golden exists and this run wrote none (record mode never, as on CI)"
            case .stale: "the scenario no longer fits the survey: an action names something the survey does not have"
            case .error: "the scenario or its survey could not be read"
            case .obsolete: "a golden (or .snap.new) whose scenario is gone"
            }
        }

        var badge: String { HTML.text("span", [("class", "badge status-\(rawValue)"), ("title", explanation)], label) }
    }

    let report: ScenarioReport
    var record: SessionRecord?
    var surveyPath: String?

    init(report: ScenarioReport) {
        self.report = report
    }

    var status: Status {
        if !report.invalid.isEmpty {
            return report.invalid.contains { $0.message.hasPrefix("stale at step") } ? .stale : .error
        }
        switch report.golden {
        case .mismatched(_, _, let pendingWritten)?:
            return pendingWritten || FileManager.default.fileExists(atPath: report.goldenPath + ".new") ? .pending : .failed
        case .missing?:
            return .noGolden
        default:
            return report.passed ? .passed : .failed
        }
    }

    /// Where the scenario first parts from its golden, or why it fails, in one line.
    var problem: String? {
        if let first = report.invalid.first { return first.message }
        var parts: [String] = []
        switch report.golden {
        case .mismatched(let divergence, _, _)?: parts.append(divergence.description)
        case .missing?: parts.append("no golden at \(report.goldenPath)")
        default: break
        }
        parts += report.expectationFailures.map(\.message)
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }

    var divergence: Divergence? {
        if case .mismatched(let divergence, _, _)? = report.golden { return divergence }
        return nil
    }
}
