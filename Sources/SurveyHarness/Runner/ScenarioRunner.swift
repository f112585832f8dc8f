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
        try loadSurvey(of: scenario) { (path: String) throws(InputError) in try registry.load(InputFiles.read(path)) }
    }

    /// The survey a scenario names, read and loaded by `load` (a suite run's cache). A survey file that
    /// cannot be read at all is reported at the scenario's `survey` line, saying what the path was resolved
    /// against: a path written relative to the current folder rather than to the scenario is the usual slip.
    func loadSurvey(of scenario: Scenario, load: (String) throws(InputError) -> any Survey) throws(InputError) -> any Survey {
        guard let line = scenario.lines.first(where: { if case .survey? = $0.statement { true } else { false } }),
            case .survey(let path)? = line.statement
        else {
            throw InputError(Diagnostic(file: scenario.path, position: SourcePosition(line: 1, column: 1), message: "no 'survey' line; expected 'survey PATH'"))
        }
        let file = surveyFile(of: scenario, path: path)
        do {
            return try load(file)
        } catch {
            guard let reason = error.diagnostics.first, error.diagnostics.count == 1, reason.file == file, reason.position == nil else { throw error }
            let folder = InputFiles.folder(of: scenario.path)
            let resolved = path.hasPrefix("/") ? "" : " (the survey line's '\(path)' resolved against this scenario's folder \(folder)/)"
            var hint: String?
            if !path.hasPrefix("/"), folder != ".", (try? InputFiles.read(path)) != nil {
                hint = "'\(path)' is a file relative to the current folder; from this scenario it is '\(InputFiles.relativePath(of: path, fromFolder: folder))'"
            }
            throw InputError(
                Diagnostic(
                    file: scenario.path, position: SourcePosition(line: line.number, column: 1),
                    message: "the survey file \(file)\(resolved) \(reason.message)", hint: hint))
        }
    }

    /// Where the survey named on a scenario's `survey` line is.
    public func surveyFile(of scenario: Scenario, path: String) -> String {
        InputFiles.resolve(path, relativeTo: scenario.path)
    }

    /// The settings a session of the scenario runs with, its launch contexts read: each `context` file,
    /// relative to the scenario, must hold a JSON object (a FHIR resource). A file that cannot be read is
    /// reported at its `context` line; bad JSON, or JSON that is no object, at its place in that file.
    public func settings(of scenario: Scenario) throws(InputError) -> SessionSettings {
        var settings = scenario.settings
        for (name, path, line) in scenario.contexts {
            let file = LaunchContextFile(name: name, path: InputFiles.resolve(path, relativeTo: scenario.path))
            settings.launchContext[name] = try file.read { reason in
                Diagnostic(
                    file: scenario.path, position: SourcePosition(line: line, column: 1),
                    message: "the context file \(file.path) (the context line's '\(path)' resolved against this scenario's folder) \(reason)")
            }
        }
        return settings
    }

    /// Replays the scenario; with a recorder, the session reports the branches it takes into it. `observe`
    /// sees the session before the first action and after each step (the report reads answers there).
    public func run(
        _ scenario: Scenario, survey: any Survey, coverage: CoverageRecorder? = nil, observe: ((any SurveySession) -> Void)? = nil
    ) -> ScenarioResult {
        let settings: SessionSettings
        do {
            settings = try self.settings(of: scenario)
        } catch {
            let empty = Trace(survey: scenario.surveyPath ?? "", format: survey.format, start: Trace.View(current: nil, visible: [], submittable: false))
            let first = error.diagnostics.first
            let line = first?.file == scenario.path ? first?.position?.line : nil
            return ScenarioResult(trace: empty, failures: [], stale: .init(step: 0, line: line ?? scenario.contexts.first?.line ?? 1, reason: first?.description ?? "a context file cannot be read"))
        }
        if let problem = survey.problem(with: settings) {
            let line = scenario.lines.first { line in
                switch line.statement {
                case .profile?, .option?: true
                default: false
                }
            }
            let empty = Trace(survey: scenario.surveyPath ?? "", format: survey.format, start: Trace.View(current: nil, visible: [], submittable: false))
            return ScenarioResult(trace: empty, failures: [], stale: .init(step: 0, line: line?.number ?? 1, reason: problem))
        }
        let session = survey.makeSession(settings, coverage: coverage)
        var trace = Trace(
            survey: scenario.surveyPath ?? "", format: survey.format(for: settings), start: Trace.View(of: session), startEvents: session.startEvents)
        observe?(session)
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
                observe?(session)
            case .expect(let expectation)?:
                if let missing = expectation.questionIDs.first(where: { !survey.hasQuestion($0) }) {
                    let reason = "the survey has no question '\(missing)'\(Spelling.suggestion(for: missing, in: survey.questionIDs))"
                    return ScenarioResult(
                        trace: trace, failures: failures, stale: .init(step: trace.steps.count, line: line.number, reason: reason))
                }
                if let message = expectation.failure(in: session) {
                    failures.append(.init(line: line.number, afterStep: trace.steps.count, message: message))
                }
            case .survey?, .today?, .profile?, .option?, .context?, .check?, nil:
                break
            }
        }
        trace.payload = session.payload
        let (checks, stale) = checkFailures(scenario, survey: survey, settings: settings)
        return ScenarioResult(trace: trace, failures: failures + checks, stale: stale)
    }

    /// The scenario's `check` lines that its path breaks: its actions are played as a walk with those
    /// properties, checked after every step (and, for built-in ones, at the end, as a walk ends). An
    /// assertion that does not read against the survey (a question renamed) means the scenario no longer
    /// fits it.
    private func checkFailures(_ scenario: Scenario, survey: any Survey, settings: SessionSettings) -> (failures: [ScenarioResult.Failure], stale: ScenarioResult.Stale?) {
        let checks = scenario.checks
        guard !checks.isEmpty else { return ([], nil) }
        // The assertions are read as a properties file in which each stands on its own line and column, so
        // that what is wrong in one is reported there; unnamed, each is named `path:line`.
        var text = ""
        var line = 1
        for (number, check) in checks {
            guard case .assertion(let assertion) = check else { continue }
            text += String(repeating: "\n", count: number - line) + String(repeating: " ", count: "check ".count) + assertion
            line = number
        }
        var properties: PropertiesFile?
        if !text.isEmpty {
            do throws(InputError) {
                properties = try PropertiesFile.parse(SourceFile(path: scenario.path, text: text), survey: survey)
            } catch {
                let first = error.diagnostics.first
                return ([], ScenarioResult.Stale(step: 0, line: first?.position?.line ?? checks[0].line, reason: first?.message ?? "the check does not read"))
            }
        }
        let builtIn = Dictionary(checks.compactMap { number, check in if case .builtIn(let id) = check { (id, number) } else { nil } }, uniquingKeysWith: min)
        let actions = scenario.actions
        let walker = Walker(
            survey: survey, settings: settings, maxSteps: max(1, actions.count), builtInProperties: !builtIn.isEmpty, properties: properties)
        var failures: [ScenarioResult.Failure] = []
        var seen: Set<String> = []
        for (step, finding) in walker.check(actions).findings where seen.insert(finding.key).inserted {
            let line = finding.kind == .property ? finding.property.split(separator: ":").last.flatMap { Int($0) } : builtIn[finding.property]
            guard let line else { continue }
            let what = finding.kind == .property ? "" : "\(finding.kind.rawValue) \(finding.property)\(finding.question.map { " ('\($0)')" } ?? ""): "
            failures.append(.init(line: line, afterStep: step + 1, message: what + finding.message, isCheck: true))
        }
        return (failures.sorted { ($0.line, $0.afterStep) < ($1.line, $1.afterStep) }, nil)
    }
}

public struct ScenarioResult: Sendable {
    public var trace: Trace
    public var failures: [Failure]
    public var stale: Stale?

    public var passed: Bool { failures.isEmpty && stale == nil }

    /// An `expect` or `check` line that did not hold.
    public struct Failure: Sendable, Equatable {
        public var line: Int
        /// The number of steps replayed before it (0: before the first action).
        public var afterStep: Int
        public var message: String
        /// A `check` line (a property broken after that step) rather than an `expect` line.
        public var isCheck = false
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
                message: "\(failure.isCheck ? "check" : "expectation") failed after step \(failure.afterStep): \(failure.message)")
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
