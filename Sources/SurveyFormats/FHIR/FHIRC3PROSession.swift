import SurveyCore

/// A respondent running the ResearchKit task C3-PRO makes of a Questionnaire (§A3): one step on screen at a
/// time; Next (which needs an answer), Skip on optional question steps, Back, and Done on the last step.
/// `ConditionalOrderedTask` chooses the step after and before the current one by checking each candidate's
/// requirements against the task result, on every move: the result holds the steps on the path (the current
/// one included), so a requirement whose question is not on the path has no result yet and counts as
/// satisfied. Answers of steps that leave the path are kept to pre-fill a revisit, as ResearchKit restores
/// a step's earlier result, but they are not in the task result.
final class FHIRC3PROSession: SurveySession {
    let survey: FHIRSurvey
    let task: FHIRC3PROTask
    let settings: SessionSettings
    private let rules = FHIRC3PRORules()
    private let coverage: (recorder: CoverageRecorder, layout: FHIRCoverageLayout)?

    /// The steps passed and the current one, last; the task result holds exactly these.
    private(set) var path: [Int] = []
    private var onPath: [Bool]
    /// Each step's answers, on the path or not.
    private(set) var answers: [Int: [FHIR.Value]] = [:]
    private(set) var response: JSONValue?

    init(survey: FHIRSurvey, settings: SessionSettings, coverage: CoverageRecorder?) {
        self.survey = survey
        self.task = survey.task()
        self.settings = settings
        self.coverage = coverage.map { ($0, survey.layout()) }
        self.onPath = Array(repeating: false, count: task.steps.count)
        guard task.failures.isEmpty else { return }
        if let coverage = self.coverage {
            for question in coverage.layout.questionOfItem.compactMap({ $0 }) { coverage.recorder.question(question, shown: false) }
        }
        var passed: [String] = []
        if let first = step(after: nil, passing: &passed, recording: true) { enter(first) }
    }

    var failure: FHIRC3PROTask.Failure? { task.failures.first }

    // MARK: what the respondent sees

    private var current: Int? { response == nil ? path.last : nil }

    var currentQuestion: String? { current.map { task.steps[$0].id } }

    var visibleQuestions: [String] { path.map { task.steps[$0].id } }

    var visibleCount: Int { path.count }

    func visibleQuestion(at position: Int) -> String { task.steps[path[position]].id }

    func visibleQuestionIndex(at position: Int) -> Int { task.steps[path[position]].item }

    var currentVisiblePosition: Int? { current == nil ? nil : path.count - 1 }

    /// Whether the forward button reads Done: no step after the current one, and it can move on.
    var isSubmittable: Bool {
        guard let current, missingAnswer(current) == nil else { return false }
        var passed: [String] = []
        return step(after: current, passing: &passed) == nil
    }

    var hasEnded: Bool { response != nil || failure != nil }

    func answer(for question: String) -> JSONValue? {
        guard let index = task.stepByID[question], let values = answers[index], !values.isEmpty else { return nil }
        if case .choice(multiple: true)? = task.steps[index].format { return .array(values.map(\.json)) }
        return values.first?.json
    }

    var payload: JSONValue? { response }

    var otherActions: [Action] {
        guard let current else { return [] }
        var actions: [Action] = []
        var passed: [String] = []
        if step(before: current, passing: &passed) != nil { actions.append(.back) }
        let step = task.steps[current]
        if step.isQuestion, step.isOptional { actions.append(.skip(question: nil)) }
        if answers[current] != nil, !isScale(current) { actions.append(.clear(question: step.id)) }
        return actions
    }

    // MARK: actions

    func perform(_ action: Action) -> StepResult {
        if let failure {
            return StepResult(.rejected("C3-PRO cannot prepare this Questionnaire (the task fails, whenCancelledOrFailed): \(failure.message)"))
        }
        if response != nil { return StepResult(.rejected("the task has finished: the QuestionnaireResponse was built")) }
        switch action {
        case .answer(let id, let value):
            return onCurrent(id) { index in
                switch self.task.interpret(value, step: index, survey: self.survey) {
                case .failure(let refusal): return StepResult(refusal.value)
                case .success(let values):
                    self.store(values, at: index)
                    return StepResult(.ok)
                }
            }
        case .clear(let id):
            return onCurrent(id) { index in
                guard self.task.steps[index].isQuestion else { return StepResult(.rejected("'\(self.task.steps[index].id)' is an instruction step, which takes no answer")) }
                if self.isScale(index) { return StepResult(.rejected("'\(self.task.steps[index].id)' is a slider: it always has a value")) }
                self.answers[index] = nil
                return StepResult(.ok)
            }
        case .next(let id):
            return onCurrent(id) { index in
                if let missing = self.missingAnswer(index) { return StepResult(.rejected(missing)) }
                return self.forward(from: index, finishing: false)
            }
        case .skip(let id):
            return onCurrent(id) { index in
                let step = self.task.steps[index]
                guard step.isQuestion else { return StepResult(.rejected("'\(step.id)' is an instruction step: it has no Skip button")) }
                guard step.isOptional else { return StepResult(.rejected("'\(step.id)' is required: it has no Skip button")) }
                // Skipping records the step's result with no answer (ResearchKit's skipForward).
                self.answers[index] = nil
                return self.forward(from: index, finishing: true)
            }
        case .submit:
            return onCurrent(nil) { index in
                if let missing = self.missingAnswer(index) { return StepResult(.rejected(missing)) }
                var passed: [String] = []
                if let after = self.step(after: index, passing: &passed) {
                    return StepResult(.rejected("Done is not shown: '\(self.task.steps[after].id)' comes after '\(self.task.steps[index].id)'"))
                }
                return self.forward(from: index, finishing: true)
            }
        case .back:
            return onCurrent(nil) { index in self.back(from: index) }
        case .goto:
            return StepResult(.doesNotFit("C3-PRO (ResearchKit) has no goto: a task moves one step at a time (use next, back or skip)"))
        case .add, .remove:
            return StepResult(.doesNotFit("C3-PRO has no repeating groups: each item becomes one step"))
        case .hostCondition:
            return StepResult(.doesNotFit("a FHIR Questionnaire has no conditions decided by the host app (custom); its enableWhen read answers only"))
        case .app:
            return StepResult(.doesNotFit("C3-PRO tasks have no app lifecycle: launch, foreground, wait, consent, quit and resume are Owlmetry's"))
        }
    }

    /// Runs `body` on the current step, which `id` (when given) must name.
    private func onCurrent(_ id: String?, _ body: (Int) -> StepResult) -> StepResult {
        guard let current else { return StepResult(.rejected("no step is on screen")) }
        if let id, id != task.steps[current].id {
            guard task.stepByID[id] != nil else {
                if let item = survey.item(id) {
                    return StepResult(.rejected("'\(id)' is \(item.type.withArticle) item without text: C3-PRO makes no step of it"))
                }
                return StepResult(.doesNotFit("the Questionnaire has no item '\(id)'\(Spelling.suggestion(for: id, in: survey.questionIDs))"))
            }
            return StepResult(.rejected("'\(id)' is not the step on screen ('\(task.steps[current].id)'); go back to change it"))
        }
        return body(current)
    }

    /// Why Next (or Done) is disabled on a step, or nil: a question step needs an answer, optional or not
    /// (an optional one has Skip instead).
    private func missingAnswer(_ index: Int) -> String? {
        let step = task.steps[index]
        guard step.isQuestion, (answers[index] ?? []).isEmpty else { return nil }
        return "'\(step.id)' needs an answer before Next\(step.isOptional ? " (it is optional: skip it instead)" : "")"
    }

    private func isScale(_ index: Int) -> Bool {
        if case .scale? = task.steps[index].format { return true }
        return false
    }

    private func store(_ values: [FHIR.Value], at index: Int) {
        answers[index] = values
        guard let coverage, let question = coverage.layout.questionOfItem[task.steps[index].item] else { return }
        coverage.recorder.answered(question)
        let item = survey.items[task.steps[index].item]
        for value in values {
            if let option = item.options.firstIndex(where: { $0.value == value }) { coverage.recorder.choice(coverage.layout.firstChoice[task.steps[index].item] + option) }
        }
    }

    /// Next, Skip or Done: the step after, else the end of the task (when `finishing`).
    private func forward(from index: Int, finishing: Bool) -> StepResult {
        var passed: [String] = []
        var events: [TraceEvent] = []
        if let after = step(after: index, passing: &passed, recording: true) {
            if !passed.isEmpty { events.append(TraceEvent("skipped_by_enableWhen", detail: .array(passed.map(JSONValue.string)))) }
            events += enter(after)
            return StepResult(.ok, events: events)
        }
        guard finishing else {
            return StepResult(.rejected("'\(task.steps[index].id)' is the last step: its button is Done (submit)"))
        }
        if !passed.isEmpty { events.append(TraceEvent("skipped_by_enableWhen", detail: .array(passed.map(JSONValue.string)))) }
        let built = FHIRC3PROResponse.response(of: task, survey: survey, path: path, answers: answers)
        response = built
        coverage?.recorder.terminal(FHIRCoverageLayout.submittedCompleted)
        events.append(TraceEvent("submitted", detail: ["status": "completed"]))
        return StepResult(.ok, events: events)
    }

    /// Back: the nearest earlier step whose requirements hold now; the path is cut back to it.
    private func back(from index: Int) -> StepResult {
        var passed: [String] = []
        guard let target = step(before: index, passing: &passed, recording: true) else {
            return StepResult(.rejected("'\(task.steps[index].id)' is the first step: there is no Back"))
        }
        let kept = path.filter { $0 < target }
        for left in path where left >= target {
            onPath[left] = false
            reportShown(left, false)
        }
        path = kept
        var events: [TraceEvent] = []
        if !passed.isEmpty { events.append(TraceEvent("skipped_by_enableWhen", detail: .array(passed.map(JSONValue.string)))) }
        events += enter(target)
        return StepResult(.ok, events: events)
    }

    /// Puts a step on screen: a slider starts at its default, which is its answer until moved (§A3).
    @discardableResult
    private func enter(_ index: Int) -> [TraceEvent] {
        path.append(index)
        onPath[index] = true
        reportShown(index, true)
        if case .scale(let scale)? = task.steps[index].format, answers[index] == nil {
            store([FHIR.Value(.decimal, .number(Double(scale.defaultValue)))], at: index)
        }
        let unknown = task.steps[index].requirements.filter { requirement in requirement.step.map { !onPath[$0] } ?? true }.map(\.condition.question)
        guard !unknown.isEmpty else { return [] }
        var seen: Set<String> = []
        let questions = unknown.filter { seen.insert($0).inserted }
        return [TraceEvent("enabled_without_result", detail: .object(["step": .string(task.steps[index].id), "questions": .array(questions.map(JSONValue.string))]))]
    }

    private func reportShown(_ index: Int, _ shown: Bool) {
        guard let coverage, let question = coverage.layout.questionOfItem[task.steps[index].item] else { return }
        coverage.recorder.question(question, shown: shown)
    }

    // MARK: ConditionalOrderedTask

    /// The first step after `index` (from the start for nil) whose requirements hold; the ids of the steps
    /// passed over go to `passing`.
    private func step(after index: Int?, passing: inout [String], recording: Bool = false) -> Int? {
        for candidate in ((index ?? -1) + 1)..<task.steps.count {
            if requirementsHold(candidate, recording: recording) { return candidate }
            passing.append(task.steps[candidate].id)
        }
        return nil
    }

    private func step(before index: Int, passing: inout [String], recording: Bool = false) -> Int? {
        for candidate in stride(from: index - 1, through: 0, by: -1) {
            if requirementsHold(candidate, recording: recording) { return candidate }
            passing.append(task.steps[candidate].id)
        }
        return nil
    }

    /// Whether every requirement of a step holds against the task result: one whose step is not on the path
    /// has no result yet and is satisfied; a skipped step's result has no answer. When `recording`, the
    /// step's own enableWhen is reported to coverage (where its ancestors' requirements hold).
    private func requirementsHold(_ index: Int, recording: Bool) -> Bool {
        let step = task.steps[index]
        var holds = true
        var ownLeaves: [CoverageRecorder.LeafValue] = []
        var ancestorsHold = true
        for requirement in step.requirements {
            let value: CoverageRecorder.LeafValue
            if let source = requirement.step, onPath[source] {
                value = rules.holds(requirement.condition, answers: answers[source] ?? []) ? .true : .false
            } else {
                value = .unansweredTrue
            }
            if requirement.owner == step.item {
                ownLeaves.append(value)
            } else if value == .false {
                ancestorsHold = false
            }
            if value == .false { holds = false }
        }
        if recording, let coverage, ancestorsHold, let decision = coverage.layout.decisionOfItem[step.item] {
            coverage.recorder.decision(decision, outcome: !ownLeaves.contains(.false), leaves: ownLeaves)
        }
        return holds
    }

    // MARK: what the checks and properties read

    /// Whether a condition holds on the answers of the steps on the path, with the standard rules (for
    /// properties files, which are written in R4's enableWhen).
    func holds(_ condition: FHIR.EnableWhen) -> Bool {
        let source = task.stepByID[condition.question]
        let values = source.flatMap { onPath[$0] ? answers[$0] : nil } ?? []
        return FHIRStandardRules(notEquals: .noAnswerEquals).holds(condition, answers: values)
    }

    /// The session's invariant: every step on the path was entered with its requirements holding against the
    /// steps before it, and the current step is the path's last.
    func invariantViolation() -> String? {
        if path != path.sorted() { return "the path is not in step order: \(visibleQuestions.joined(separator: ", "))" }
        if Set(path).count != path.count { return "a step is twice on the path" }
        if onPath.indices.contains(where: { onPath[$0] != path.contains($0) }) { return "the path's membership is out of date" }
        return nil
    }
}
