import SurveyCore
import SurveyFormats

/// Replays a scenario into a fresh session of its survey and records the trace, the expectations that
/// failed and, if the scenario no longer fits the survey, the step where that shows.
public struct ScenarioRunner: Sendable {
    public var registry: FormatRegistry

    public init(registry: FormatRegistry = .standard) {
        self.registry = registry
    }

    /// Reads and parses a scenario file and the survey it names.
    public func load(scenarioAt path: String) throws(InputError) -> (scenario: Scenario, survey: any Survey) {
        let scenario = try ScenarioParser.parse(InputFiles.read(path))
        return (scenario, try loadSurvey(of: scenario))
    }

    public func loadSurvey(of scenario: Scenario) throws(InputError) -> any Survey {
        guard let surveyPath = scenario.surveyPath else {
            throw InputError(Diagnostic(file: scenario.path, position: nil, message: "no 'survey' line"))
        }
        return try registry.load(InputFiles.read(surveyFile(of: scenario, path: surveyPath)))
    }

    /// Where the survey named on a scenario's `survey` line is.
    public func surveyFile(of scenario: Scenario, path: String) -> String {
        InputFiles.resolve(path, relativeTo: scenario.path)
    }

    /// Replays the scenario; with a recorder, the session reports the branches it takes into it.
    public func run(_ scenario: Scenario, survey: any Survey, coverage: CoverageRecorder? = nil) -> ScenarioResult {
        if let problem = survey.problem(with: scenario.settings) {
            let line = scenario.lines.first { line in
                switch line.statement {
                case .profile?, .option?: true
                default: false
                }
            }
            let empty = Trace(survey: scenario.surveyPath ?? "", format: survey.format, start: Trace.View(current: nil, visible: [], submittable: false))
            return ScenarioResult(trace: empty, failures: [], stale: .init(step: 0, line: line?.number ?? 1, reason: problem))
        }
        let session = survey.makeSession(scenario.settings, coverage: coverage)
        var trace = Trace(survey: scenario.surveyPath ?? "", format: survey.format(for: scenario.settings), start: Trace.View(of: session))
        var failures: [ScenarioResult.Failure] = []
        for line in scenario.lines {
            switch line.statement {
            case .action(let action)?:
                let result = session.perform(action)
                let number = trace.steps.count + 1
                if case .doesNotFit(let reason) = result.outcome {
                    return ScenarioResult(trace: trace, failures: failures, stale: .init(step: number, line: line.number, reason: reason))
                }
                trace.steps.append(
                    Trace.Step(number: number, action: action, outcome: result.outcome, view: Trace.View(of: session), events: result.events))
            case .expect(let expectation)?:
                if let missing = expectation.questionIDs.first(where: { !survey.hasQuestion($0) }) {
                    let reason = "the survey has no question '\(missing)'\(Spelling.suggestion(for: missing, in: survey.questionIDs))"
                    return ScenarioResult(
                        trace: trace, failures: failures, stale: .init(step: trace.steps.count, line: line.number, reason: reason))
                }
                if let message = expectation.failure(in: session) {
                    failures.append(.init(line: line.number, afterStep: trace.steps.count, message: message))
                }
            case .survey?, .today?, .profile?, .option?, nil:
                break
            }
        }
        trace.payload = session.payload
        return ScenarioResult(trace: trace, failures: failures, stale: nil)
    }
}

public struct ScenarioResult: Sendable {
    public var trace: Trace
    public var failures: [Failure]
    public var stale: Stale?

    public var passed: Bool { failures.isEmpty && stale == nil }

    /// An `expect` line that did not hold.
    public struct Failure: Sendable, Equatable {
        public var line: Int
        /// The number of steps replayed before it (0: before the first action).
        public var afterStep: Int
        public var message: String
    }

    /// The step at which the scenario stopped fitting the survey.
    public struct Stale: Sendable, Equatable {
        public var step: Int
        public var line: Int
        public var reason: String
    }

    /// Located messages for the expectations that failed, against the scenario file.
    public func failureDiagnostics(scenarioPath: String) -> [Diagnostic] {
        failures.map { failure in
            Diagnostic(
                file: scenarioPath, position: SourcePosition(line: failure.line, column: 1),
                message: "expectation failed after step \(failure.afterStep): \(failure.message)")
        }
    }

    /// The located "stale at step k" message, if the scenario no longer fits the survey.
    public func staleDiagnostic(scenarioPath: String) -> Diagnostic? {
        stale.map { stale in
            Diagnostic(
                file: scenarioPath, position: SourcePosition(line: stale.line, column: 1),
                message: "stale at step \(stale.step): \(stale.reason)",
                hint: "the scenario no longer fits the survey; update the scenario or record it again")
        }
    }
}

extension Scenario.Expectation {
    var questionIDs: [String] {
        switch self {
        case .visible(let ids), .hidden(let ids): ids
        case .current(let id): id.map { [$0] } ?? []
        case .answer(let id, _): [id]
        case .payload, .submittable: []
        }
    }

    /// Why the expectation does not hold in the session's current state, or nil if it does.
    func failure(in session: any SurveySession) -> String? {
        switch self {
        case .visible(let ids):
            let visible = Set(session.visibleQuestions)
            let missing = ids.filter { !visible.contains($0) }
            return missing.isEmpty ? nil : "expected \(names(missing)) visible, but \(missing.count == 1 ? "it is" : "they are") not; visible: \(session.visibleQuestions.joined(separator: " "))"
        case .hidden(let ids):
            let visible = Set(session.visibleQuestions)
            let shown = ids.filter { visible.contains($0) }
            return shown.isEmpty ? nil : "expected \(names(shown)) hidden, but \(shown.count == 1 ? "it is" : "they are") visible"
        case .current(let expected):
            let actual = session.currentQuestion
            return actual == expected ? nil : "expected the current question to be \(expected.map { "'\($0)'" } ?? "none"), but it is \(actual.map { "'\($0)'" } ?? "none")"
        case .answer(let id, let expected):
            let actual = session.answer(for: id) ?? .null
            return actual == expected ? nil : "expected the answer to '\(id)' to be \(CanonicalJSON.compact(expected)), but it is \(CanonicalJSON.compact(actual))"
        case .payload(let expected):
            let actual = session.payload ?? .null
            return actual == expected ? nil : "expected the payload \(CanonicalJSON.compact(expected)), but it is \(CanonicalJSON.compact(actual))"
        case .submittable(let expected):
            return session.isSubmittable == expected ? nil : "expected Submit \(expected ? "shown" : "not shown"), but it is \(expected ? "not shown" : "shown")"
        }
    }

    private func names(_ ids: [String]) -> String { ids.map { "'\($0)'" }.joined(separator: ", ") }
}
