import SurveyCore

/// A respondent running a task: the step path so far (`stepHistory`), the step on screen, and every answer
/// ever entered (reference §1.5: results that leave the path are kept only to pre-fill a revisit). The
/// forward tap runs the generation's survey rules; going back pops the path.
final class SageSession: SurveySession {
    let survey: SageSurvey
    let settings: SessionSettings
    private let coverage: (recorder: CoverageRecorder, layout: SageCoverageLayout)?
    private(set) var clock: ScenarioClock
    private let startedAt: Int
    /// The steps passed, in order: the task result's `stepHistory` without the current step.
    private(set) var history: [Int] = []
    /// The step on screen; nil once the task has finished.
    private(set) var current: Int?
    /// Each step's answers by field id, on the path or not (the previous-results cache pre-fills a revisit).
    private(set) var answers: [Int: [String: JSONValue]] = [:]
    /// Steps left by the skip action: their result carries its `skipToIdentifier`.
    private var skippedTo: [Int: String] = [:]
    private var shownAt: [Int: Int] = [:]
    private var leftAt: [Int: Int] = [:]
    private(set) var ending: SageSurvey.Ending?
    private(set) var cohorts: Set<String> = []
    /// The rule whose unknown target ended the task, for the step checker.
    private(set) var unknownTarget: (step: Int, target: String)?

    init(survey: SageSurvey, settings: SessionSettings, coverage: CoverageRecorder?) {
        self.survey = survey
        self.settings = settings
        self.coverage = coverage.map { ($0, survey.coverageLayout(for: $0)) }
        self.clock = ScenarioClock(today: settings.today)
        self.startedAt = 0
        if survey.steps.isEmpty {
            ending = .completed
            coverage.map { $0.terminal(SageCoverageLayout.terminal(.completed)) }
        } else {
            show(0)
        }
    }

    // MARK: what the respondent sees

    var currentQuestion: String? { current.map { survey.steps[$0].id } }

    var visibleQuestions: [String] { (history + (current.map { [$0] } ?? [])).map { survey.steps[$0].id } }

    var visibleCount: Int { history.count + (current == nil ? 0 : 1) }

    func visibleQuestion(at position: Int) -> String { survey.steps[visibleIndex(at: position)].id }

    func visibleQuestionIndex(at position: Int) -> Int { visibleIndex(at: position) }

    private func visibleIndex(at position: Int) -> Int { position < history.count ? history[position] : current ?? 0 }

    var currentVisiblePosition: Int? { current == nil ? nil : history.count }

    /// Whether the forward button reads Done: the step can move on, and looking ahead without the rules
    /// (the engine ignores rules while peeking, reference §1.2) finds no step after it.
    var isSubmittable: Bool {
        guard let current, missingAnswer(current) == nil else { return false }
        if case .end = fallback(from: current) { return true }
        return false
    }

    var hasEnded: Bool { ending != nil }

    func answer(for question: String) -> JSONValue? {
        guard let index = survey.indexByID[question], let values = answers[index], !values.isEmpty else { return nil }
        let step = survey.steps[index]
        if step.fields.count == 1, !step.answerIsObject { return values[step.fields[0].id] }
        return .object(values)
    }

    var payload: JSONValue? {
        guard let ending else { return nil }
        return SageResult(survey: survey, session: self, ending: ending).json
    }

    func startDate(of step: Int) -> String { stamp(shownAt[step] ?? startedAt) }
    func endDate(of step: Int) -> String { stamp(leftAt[step] ?? clock.elapsed) }
    var taskStartDate: String { stamp(startedAt) }
    var taskEndDate: String { stamp(clock.elapsed) }
    func skipTarget(of step: Int) -> String? { skippedTo[step] }

    private func stamp(_ elapsed: Int) -> String {
        ScenarioClock(today: clock.today, elapsed: elapsed).timestamp(zulu: false)
    }

    var otherActions: [Action] {
        guard let current else { return [] }
        var actions: [Action] = []
        if !history.isEmpty { actions.append(.back) }
        if survey.steps[current].canSkip { actions.append(.skip(question: nil)) }
        return actions
    }

    // MARK: actions

    func perform(_ action: Action) -> StepResult {
        if let id = action.question, survey.indexByID[id] == nil, action.isAboutAStep {
            return StepResult(.doesNotFit("the task has no step '\(id)'\(Spelling.suggestion(for: id, in: survey.questionIDs))"))
        }
        switch action {
        case .answer(let id, let value): return onCurrent(id) { self.answer($0, value) }
        case .clear(let id):
            return onCurrent(id) { index in
                self.answers[index] = nil
                return StepResult(.ok)
            }
        case .next(let id): return onCurrent(id) { self.forward(from: $0, skipping: false, requireDone: false) }
        case .skip(let id):
            return onCurrent(id) { index in
                guard self.survey.steps[index].canSkip else {
                    return StepResult(.rejected("'\(self.survey.steps[index].id)' has no skip: it is not optional and has no skip action"))
                }
                return self.forward(from: index, skipping: true, requireDone: false)
            }
        case .submit: return onCurrent(nil) { self.forward(from: $0, skipping: false, requireDone: true) }
        case .back: return onCurrent(nil) { _ in self.back() }
        case .app(.wait(let seconds)):
            clock.advance(seconds: seconds)
            return StepResult(.ok)
        case .goto: return StepResult(.doesNotFit("SageResearch has no goto: a task moves one step at a time (use next, back or skip)"))
        case .hostCondition: return StepResult(.doesNotFit("SageResearch tasks have no host-decided conditions"))
        case .add, .remove: return StepResult(.doesNotFit("SageResearch tasks have no repeating groups"))
        case .app(let event): return StepResult(.doesNotFit("SageResearch tasks have no app lifecycle step '\(ScenarioSyntaxName.of(event))'; only wait"))
        }
    }

    /// Runs `body` on the current step, which `id` (when given) must name.
    private func onCurrent(_ id: String?, _ body: (Int) -> StepResult) -> StepResult {
        guard let current else { return StepResult(.rejected("the task has finished")) }
        if let id, id != survey.steps[current].id {
            return StepResult(.rejected("'\(id)' is not the step on screen ('\(survey.steps[current].id)'); go back to change it"))
        }
        return body(current)
    }

    private func answer(_ index: Int, _ value: JSONValue) -> StepResult {
        let step = survey.steps[index]
        guard step.kind == .question else { return StepResult(.rejected("'\(step.id)' is a \(step.type) step: it takes no answer")) }
        switch survey.fieldValues(value, for: step, today: settings.today) {
        case .failure(let refusal): return StepResult(refusal.outcome)
        case .success(let values):
            answers[index] = values.isEmpty ? nil : values
            if let coverage { coverage.layout.recordAnswer(values, at: index, survey: survey, coverage.recorder) }
            return StepResult(.ok)
        }
    }

    /// Why the forward tap is refused on a step: a required input without an answer.
    private func missingAnswer(_ index: Int) -> String? {
        let step = survey.steps[index]
        let values = answers[index] ?? [:]
        guard let field = step.fields.first(where: { !$0.isOptional && values[$0.id] == nil }) else { return nil }
        let name = step.fields.count == 1 ? "'\(step.id)'" : "'\(field.id)' of '\(step.id)'"
        return "\(name) needs an answer: it is not optional\(step.canSkip ? " (skip it instead)" : "")"
    }

    private func back() -> StepResult {
        guard let previous = history.last else { return StepResult(.rejected("'\(currentQuestion ?? "")' is the first step: there is no step to go back to")) }
        // `_moveBack` truncates the history from the previous step; its answers stay to pre-fill it.
        history.removeLast()
        if let current { leftAt[current] = clock.elapsed }
        show(previous)
        return StepResult(.ok)
    }

    /// The forward tap (Next, Done, or the skip action): the rules choose where to go, else the fallbacks.
    private func forward(from index: Int, skipping: Bool, requireDone: Bool) -> StepResult {
        if requireDone, !isSubmittable {
            if let missing = missingAnswer(index) { return StepResult(.rejected(missing)) }
            return StepResult(.rejected("the forward button of '\(survey.steps[index].id)' reads Next, not Done: steps follow it"))
        }
        let step = survey.steps[index]
        if skipping {
            answers[index] = nil
            if let target = step.skipTarget { skippedTo[index] = target }
        } else {
            if let missing = missingAnswer(index) { return StepResult(.rejected(missing)) }
            skippedTo[index] = nil
        }
        var events: [TraceEvent] = []
        let decided = ruleTarget(for: index, events: &events)
        var destination: SageSurvey.Destination
        if let target = decided ?? (skipping ? step.skipTarget : nil) {
            destination = survey.destination(of: target, from: index)
            if case .end(.unknownTarget) = destination { unknownTarget = (index, target) }
        } else {
            destination = fallback(from: index)
        }
        leftAt[index] = clock.elapsed
        switch destination {
        case .end(let reason):
            history.append(index)
            current = nil
            ending = reason
            var detail: [String: JSONValue] = ["reason": .string(reason.rawValue)]
            if reason == .unknownTarget, let target = unknownTarget?.target { detail["target"] = .string(target) }
            events.append(TraceEvent("task_finished", detail: .object(detail)))
            coverage.map { $0.recorder.terminal(SageCoverageLayout.terminal(reason)) }
        case .step(let target):
            if target == index || history.contains(target) {
                // A target with a result in the history is a backward jump: the history is truncated from
                // it (`removeStepHistory(from:)`), the answers stay to pre-fill (reference §1.2, §1.5).
                if let position = history.firstIndex(of: target) { history.removeSubrange(position...) }
                events.append(TraceEvent("jumped_back", detail: .object(["to": .string(survey.steps[target].id)])))
            } else {
                history.append(index)
            }
            show(target)
        }
        return StepResult(.ok, events: events)
    }

    /// Where the step goes without a rule: its `nextStepIdentifier`, else the next step in order.
    private func fallback(from index: Int) -> SageSurvey.Destination {
        if let next = survey.steps[index].nextStepIdentifier { return survey.destination(of: next, from: index) }
        return survey.stepInOrder(after: index)
    }

    private func show(_ index: Int) {
        current = index
        shownAt[index] = clock.elapsed
        if let coverage, let question = coverage.layout.questionIndex(of: index) { coverage.recorder.question(question, shown: true) }
    }

    /// The target the step's survey rules choose, by the generation's rule (reference §1.2): legacy, exactly
    /// one distinct target among the matching rules of all fields; v3, exactly one matching rule; the
    /// successor, the first matching rule. Without one, a step whose answers are all missing goes to its
    /// skip action's target (`skipToIfNil`).
    private func ruleTarget(for index: Int, events: inout [TraceEvent]) -> String? {
        let step = survey.steps[index]
        let values = answers[index] ?? [:]
        let allMissing = values.isEmpty
        func answer(of rule: Sage.Rule) -> JSONValue? {
            step.answerIsObject ? (values.isEmpty ? nil : .object(values)) : values[step.fields[rule.field].id]
        }
        if survey.generation == .v3, allMissing, let skip = step.skipTarget { return skip }
        var targets: [String] = []
        var matchedRules: [Int] = []
        for (position, rule) in step.rules.enumerated() {
            let base = step.fields.indices.contains(rule.field) ? step.fields[rule.field].shape.base : .codable
            let matched =
                survey.generation == .assessment ? rule.matchesSuccessor(answer(of: rule), base: base) : rule.matchesLegacy(answer(of: rule), base: base)
            coverage.map { $0.layout.recordRule(index, position, matched: matched, $0.recorder) }
            if let cohort = rule.cohort {
                if matched, cohorts.insert(cohort).inserted { events.append(TraceEvent("cohort_added", detail: .string(cohort))) }
                if !matched, cohorts.remove(cohort) != nil { events.append(TraceEvent("cohort_removed", detail: .string(cohort))) }
            }
            guard matched, let target = rule.target else { continue }
            targets.append(target)
            matchedRules.append(position)
            if survey.generation == .assessment {
                coverage.map { $0.layout.recordJump(index, position, taken: true, $0.recorder) }
                events.append(TraceEvent("rule_matched", detail: .object(["rule": .number(Double(position + 1)), "to": .string(target)])))
                return target
            }
        }
        let distinct = Set(targets)
        let decided = survey.generation == .legacy ? distinct.count == 1 : targets.count == 1
        if let coverage {
            for position in matchedRules { coverage.layout.recordJump(index, position, taken: decided, coverage.recorder) }
        }
        if decided, let target = targets.first {
            events.append(TraceEvent("rule_matched", detail: .object(["to": .string(target)])))
            return target
        }
        if targets.count > 1 {
            // Two or more targets (v3: two or more rules, even to one target) cancel each other.
            events.append(TraceEvent("rules_conflict", detail: .array(targets.map(JSONValue.string))))
        }
        return allMissing ? step.skipTarget : nil
    }

    /// The answers of a step by field, for the result.
    func values(of step: Int) -> [String: JSONValue] { answers[step] ?? [:] }
}

extension Action {
    /// Whether the action names a step (so an unknown id means the scenario no longer fits).
    fileprivate var isAboutAStep: Bool {
        switch self {
        case .answer, .clear, .next, .skip, .goto: true
        default: false
        }
    }
}

/// The scenario verb of an app event, for messages.
enum ScenarioSyntaxName {
    static func of(_ event: AppEvent) -> String {
        switch event {
        case .launch: "launch"
        case .foreground: "foreground"
        case .wait: "wait"
        case .consent(let choice): "consent \(choice.rawValue)"
        case .quit: "quit"
        case .resume: "resume"
        }
    }
}
