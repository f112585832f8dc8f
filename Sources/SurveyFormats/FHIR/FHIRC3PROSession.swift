import SurveyCore

/// Which ResearchKit the C3-PRO app links, for what each entry of the path reports (option `researchkit`),
/// each of C3-PRO's three pins by its own name: `1.4` (its podspec's `~> 1.4.1`, the CocoaPods route),
/// `1.5` (its submodule 1.5.2 and its Carthage resolution, the default) and `2.1+`. 1.5.0 to 2.0.0 keep
/// each entry's own visit's result; 1.4.x and 2.1 on keep one result a step, the last visit's. Nothing
/// else this profile simulates differs between them.
enum FHIRC3PROResearchKit: String, Sendable, CaseIterable {
    case v1_4 = "1.4"
    case v1_5 = "1.5"
    case v2_1 = "2.1+"

    static let option = "researchkit"

    init(_ settings: SessionSettings) {
        self = settings.options[Self.option].flatMap(Self.init(rawValue:)) ?? .v1_5
    }

    /// Whether each path entry keeps its own visit's result (under "identifier:index"), or every entry
    /// of a step reports the result last saved under its identifier.
    var keepsResultPerVisit: Bool { self == .v1_5 }
}

/// A respondent running the ResearchKit task C3-PRO makes of a Questionnaire: one step on screen at a time;
/// Next (which needs an answer), Skip on optional question steps, Back, and Done on the last step.
/// `ConditionalOrderedTask` chooses the step after and before the current one in the task's order, checking
/// each candidate's requirements against the task result, on every move. ResearchKit keeps the path of
/// steps shown: Next appends a step; Back removes only the last entry and appends the step it lands on unless
/// that is the new last entry, so a Back that passes over steps leaves them on the path and the target twice.
/// The task result is one result per path entry (with ResearchKit 1.5, each entry's own visit; otherwise the
/// step's last), requirements read a step's last entry, and a step without an entry has no result: its
/// requirement counts as satisfied. A step's answer is kept off the path to pre-fill a revisit.
final class FHIRC3PROSession: SurveySession {
    let survey: FHIRSurvey
    let task: FHIRC3PROTask
    let settings: SessionSettings
    let researchKit: FHIRC3PROResearchKit
    private let coverage: (recorder: CoverageRecorder, layout: FHIRCoverageLayout)?

    /// One entry of ResearchKit's path (`_managedStepIdentifiers`) with the answers of its own visit (its
    /// result under "identifier:index"); the last entry is the step on screen and follows its answers.
    struct Entry: Sendable, Equatable {
        let step: Int
        var answers: [FHIR.Value]
    }

    private(set) var path: [Entry] = []
    /// The hash of the path's steps up to each entry: the last is the visible fingerprint, kept as the path
    /// grows and shrinks rather than worked out from the ids at every step.
    private var pathHashes: [UInt64] = []
    /// Whether Done shows, worked out when first asked for after an action (walks ask at every step, and it
    /// looks through the steps after the current one).
    private var submittableCache: Bool?
    /// How many entries each step has on the path.
    private var entries: [Int]
    /// Each step's last answers, on the path or not (its result under its identifier): what a revisit shows.
    private(set) var answers: [Int: [FHIR.Value]] = [:]
    private(set) var response: JSONValue?

    init(survey: FHIRSurvey, settings: SessionSettings, coverage: CoverageRecorder?) {
        self.survey = survey
        self.task = survey.task()
        self.settings = settings
        self.researchKit = FHIRC3PROResearchKit(settings)
        self.coverage = coverage.map { ($0, survey.layout()) }
        self.entries = Array(repeating: 0, count: task.steps.count)
        guard task.buildFailure == nil else { return }
        if let coverage = self.coverage {
            for question in coverage.layout.questionOfItem.compactMap({ $0 }) { coverage.recorder.question(question, shown: false) }
        }
        if let first = step(after: nil, recording: true) { enter(first) }
    }

    /// C3-PRO's errors beside the task, reported before the first step.
    var startEvents: [TraceEvent] {
        task.reports.map { report in
            TraceEvent(
                "preparation_error",
                detail: ["item": .string(survey.items[report.item].linkId), "rule": .string(report.rule), "message": .string(report.message)])
        }
    }

    // MARK: what the respondent sees

    private var current: Int? { response == nil ? path.last?.step : nil }

    var currentQuestion: String? { current.map { task.steps[$0].id } }

    /// The path, the step on screen last; a step twice on it shows twice.
    var visibleQuestions: [String] { path.map { task.steps[$0.step].id } }

    var visibleCount: Int { path.count }

    func visibleQuestion(at position: Int) -> String { task.steps[path[position].step].id }

    func visibleQuestionIndex(at position: Int) -> Int { task.steps[path[position].step].item }

    var currentVisiblePosition: Int? { current == nil ? nil : path.count - 1 }

    var visibleFingerprint: UInt64 { pathHashes.last ?? Self.emptyPathHash }

    private static let emptyPathHash: UInt64 = 0xC3_9A74

    /// Whether the forward button reads Done: no step after the current one, and it can move on.
    var isSubmittable: Bool {
        if let submittableCache { return submittableCache }
        var submittable = false
        if let current, !needsAnswer(current) {
            submittable = step(after: current) == nil
        }
        submittableCache = submittable
        return submittable
    }

    /// Over once Done built the response, when ResearchKit threw while building the task, or when the task
    /// has no step to show.
    var hasEnded: Bool { response != nil || task.buildFailure != nil || path.isEmpty }

    func answer(for question: String) -> JSONValue? {
        guard let index = task.stepByID[question], let values = answers[index], !values.isEmpty else { return nil }
        return Self.json(values, format: task.steps[index].format)
    }

    var payload: JSONValue? { response }

    var otherActions: [Action] {
        guard let current else { return [] }
        var actions: [Action] = []
        if step(before: current) != nil { actions.append(.back) }
        let step = task.steps[current]
        if step.isQuestion, step.isOptional { actions.append(.skip(question: nil)) }
        if answers[current]?.isEmpty == false, keptValue(current) == nil { actions.append(.clear(question: step.id)) }
        return actions
    }

    // MARK: actions

    func perform(_ action: Action) -> StepResult {
        submittableCache = nil
        defer { submittableCache = nil }
        if let failure = task.buildFailure {
            return StepResult(.rejected("the app stops before the task shows: \(failure.message)"))
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
                if let kept = self.keptValue(index) { return StepResult(.rejected("'\(self.task.steps[index].id)' is \(kept)")) }
                self.store([], at: index)
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
                // Skipping saves the step's result with no answer (ResearchKit's skipForward).
                self.store([], at: index)
                return self.forward(from: index, finishing: true)
            }
        case .submit:
            return onCurrent(nil) { index in
                if let missing = self.missingAnswer(index) { return StepResult(.rejected(missing)) }
                if let after = self.step(after: index) {
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
        guard let current else { return StepResult(.rejected("no step is on screen: the task has no step to show")) }
        if let id, id != task.steps[current].id {
            guard task.stepByID[id] != nil else {
                if let item = survey.item(id) {
                    let why = task.reports.first { survey.items[$0.item].linkId == id && $0.rule != "c3pro-unsupported-enablewhen" }
                    return StepResult(.rejected(why.map { "'\(id)' has no step: \($0.message)" } ?? "'\(id)' is \(item.type.withArticle) item without a title or text: C3-PRO makes no step of it"))
                }
                return StepResult(.doesNotFit("the Questionnaire has no item '\(id)'\(Spelling.suggestion(for: id, in: survey.questionIDs))"))
            }
            return StepResult(.rejected("'\(id)' is not the step on screen ('\(task.steps[current].id)'); go back to change it"))
        }
        return body(current)
    }

    /// Whether Next (or Done) is disabled on a step: a question step needs an answer, optional or not (an
    /// optional one has Skip instead).
    private func needsAnswer(_ index: Int) -> Bool {
        guard answers[index]?.isEmpty ?? true else { return false }
        return task.steps[index].isQuestion
    }

    /// Why Next (or Done) is disabled on a step, or nil (`needsAnswer`, in words).
    private func missingAnswer(_ index: Int) -> String? {
        guard needsAnswer(index) else { return nil }
        let step = task.steps[index]
        if case .scale(let scale)? = step.format {
            let why =
                scale.preset == nil
                ? "its slider starts unset (its default \(scale.defaultValue) is off the scale \(scale.min)…\(scale.max))"
                : "it was skipped, so its slider shows no value until it is moved"
            return "'\(step.id)' needs an answer before Next: \(why)\(step.isOptional ? "; it is optional: skip it instead" : "")"
        }
        return "'\(step.id)' needs an answer before Next\(step.isOptional ? " (it is optional: skip it instead)" : "")"
    }

    /// Why the respondent cannot clear a step's answer, or nil when they can: a slider keeps its value once
    /// set, and a date or time picker always shows one.
    private func keptValue(_ index: Int) -> String? {
        switch task.steps[index].format {
        case .scale?: "a slider: once set it keeps a value"
        case .date?, .dateTime?, .time?: "a picker: it always shows a value (skip it instead, if it is optional)"
        default: nil
        }
    }

    /// The step on screen's answers change: its result under its identifier and its path entry's.
    private func store(_ values: [FHIR.Value], at index: Int) {
        answers[index] = values
        if let last = path.indices.last, path[last].step == index { path[last].answers = values }
        guard !values.isEmpty, let coverage, let question = coverage.layout.questionOfItem[task.steps[index].item] else { return }
        coverage.recorder.answered(question)
        let item = survey.items[task.steps[index].item]
        for value in values {
            if let option = item.options.firstIndex(where: { $0.value == value }) { coverage.recorder.choice(coverage.layout.firstChoice[task.steps[index].item] + option) }
        }
    }

    /// Next, Skip or Done: the step after, else the end of the task (when `finishing`).
    private func forward(from index: Int, finishing: Bool) -> StepResult {
        let after = step(after: index, recording: true)
        guard after != nil || finishing else {
            return StepResult(.rejected("'\(task.steps[index].id)' is the last step: its button is Done (submit)"))
        }
        var events = skipped((index + 1)..<(after ?? task.steps.count))
        if let after {
            events += enter(after)
            return StepResult(.ok, events: events)
        }
        response = FHIRC3PROResponse.response(of: task, survey: survey, results: taskResult)
        coverage?.recorder.terminal(FHIRCoverageLayout.submittedCompleted)
        events.append(TraceEvent("submitted", detail: ["status": "completed"]))
        return StepResult(.ok, events: events)
    }

    /// Back: the nearest earlier step in the task's order whose requirements hold now. ResearchKit removes
    /// only the last path entry, then appends the step it lands on unless that is the new last entry: a Back
    /// that passes over steps leaves them on the path, and their results in the task result.
    private func back(from index: Int) -> StepResult {
        guard let target = step(before: index, recording: true) else {
            return StepResult(.rejected("'\(task.steps[index].id)' is the first step: there is no Back"))
        }
        leave()
        var events = skipped(stride(from: index - 1, to: target, by: -1))
        if path.last?.step == target {
            // A new step view controller shows the step's last answers; its result replaces the entry's.
            showLastAnswers(of: target)
            return StepResult(.ok, events: events)
        }
        // The entries Back passed over that stay: those after the target's last entry (or, without one,
        // those of later steps).
        var start = path.count
        while start > 0, path[start - 1].step != target, entries[target] > 0 || path[start - 1].step > target { start -= 1 }
        let kept = path[start...].map { task.steps[$0.step].id }
        events.append(TraceEvent("back_appended", detail: ["step": .string(task.steps[target].id), "kept": .array(kept.map(JSONValue.string))]))
        events += enter(target)
        return StepResult(.ok, events: events)
    }

    /// Appends a step to the path and shows it with its last answers; a slider never answered nor skipped
    /// starts at its preset, which is its answer until moved (none when the default is off the scale), and a
    /// date or time picker without an answer at the device's clock.
    @discardableResult
    private func enter(_ index: Int) -> [TraceEvent] {
        path.append(Entry(step: index, answers: []))
        pathHashes.append(StableHash.mix((pathHashes.last ?? Self.emptyPathHash) ^ UInt64(index)))
        entries[index] += 1
        if entries[index] == 1 { reportShown(index, true) }
        showLastAnswers(of: index)
        let unknown = task.steps[index].requirements.filter { requirement in requirement.step.map { entries[$0] == 0 } ?? true }.map(\.condition.question)
        guard !unknown.isEmpty else { return [] }
        var seen: Set<String> = []
        let questions = unknown.filter { seen.insert($0).inserted }
        return [TraceEvent("enabled_without_result", detail: .object(["step": .string(task.steps[index].id), "questions": .array(questions.map(JSONValue.string))]))]
    }

    /// The step on screen (the last entry) shows the step's last answers; a slider whose step has no answer
    /// saved yet starts at its preset. A skipped slider saved a null answer, which ResearchKit restores, and
    /// its scale cell presets only a missing one: it comes back unset. A date or time picker reports the
    /// value it shows as soon as it appears: the last answer, else the device's clock (skipped or not).
    private func showLastAnswers(of index: Int) {
        path[path.count - 1].answers = answers[index] ?? []
        switch task.steps[index].format {
        case .scale(let scale)?:
            if answers[index] == nil, let preset = scale.preset { store([FHIR.Value(.decimal, .number(Double(preset)))], at: index) }
        case .date?, .dateTime?, .time?:
            if (answers[index] ?? []).isEmpty, let start = pickerStart(index) { store([start], at: index) }
        default:
            break
        }
    }

    /// What a date, date-and-time or time picker shows with no answer: C3-PRO gives ResearchKit no default,
    /// so the device's date and time; simulated as the session's today at 00:00 UTC.
    private func pickerStart(_ index: Int) -> FHIR.Value? {
        let day = settings.today.description
        switch task.steps[index].format {
        case .date?: return FHIR.Value(.date, .string(day))
        case .dateTime?: return FHIR.Value(.dateTime, .string(day + "T00:00:00Z"))
        case .time?: return FHIR.Value(.time, "00:00:00")
        default: return nil
        }
    }

    /// Removes the path's last entry.
    private func leave() {
        let left = path.removeLast()
        pathHashes.removeLast()
        entries[left.step] -= 1
        if entries[left.step] == 0 { reportShown(left.step, false) }
    }

    private func reportShown(_ index: Int, _ shown: Bool) {
        guard let coverage, let question = coverage.layout.questionOfItem[task.steps[index].item] else { return }
        coverage.recorder.question(question, shown: shown)
    }

    // MARK: the task result

    /// The answers each path entry reports, in path order: its own visit's (ResearchKit 1.5) or its step's
    /// last (1.4, 2.1 on).
    var taskResult: [(step: Int, answers: [FHIR.Value])] {
        path.map { entry in (entry.step, researchKit.keepsResultPerVisit ? entry.answers : answers[entry.step] ?? []) }
    }

    /// The answers of a step's result (`resultForIdentifier:` searches from the end: its last entry), or
    /// nil when it has no entry.
    private func result(of step: Int) -> [FHIR.Value]? {
        guard entries[step] > 0 else { return nil }
        guard researchKit.keepsResultPerVisit else { return answers[step] ?? [] }
        return path.last(where: { $0.step == step })?.answers
    }

    // MARK: ConditionalOrderedTask

    /// The first step after `index` (from the start for nil) whose requirements hold; those between are
    /// the steps passed over.
    private func step(after index: Int?, recording: Bool = false) -> Int? {
        for candidate in ((index ?? -1) + 1)..<task.steps.count where requirementsHold(candidate, recording: recording) { return candidate }
        return nil
    }

    private func step(before index: Int, recording: Bool = false) -> Int? {
        for candidate in stride(from: index - 1, through: 0, by: -1) where requirementsHold(candidate, recording: recording) { return candidate }
        return nil
    }

    /// The event naming the steps a move passed over (in the order it tried them), if it passed over any.
    private func skipped(_ steps: some Sequence<Int>) -> [TraceEvent] {
        let ids = steps.map { JSONValue.string(task.steps[$0].id) }
        return ids.isEmpty ? [] : [TraceEvent("skipped_by_enableWhen", detail: .array(ids))]
    }

    /// Whether every requirement of a step holds against the task result: one whose step has no result is
    /// satisfied; a result without an answer (skipped, an instruction step) fails. When `recording`, the
    /// step's own enableWhen is reported to coverage (where its ancestors' requirements hold).
    private func requirementsHold(_ index: Int, recording: Bool) -> Bool {
        guard recording, let coverage else { return task.steps[index].requirements.allSatisfy { leaf($0) != .false } }
        let step = task.steps[index]
        var holds = true
        var ownLeaves: [CoverageRecorder.LeafValue] = []
        var ancestorsHold = true
        for requirement in step.requirements {
            let value = leaf(requirement)
            if requirement.owner == step.item {
                ownLeaves.append(value)
            } else if value == .false {
                ancestorsHold = false
            }
            if value == .false { holds = false }
        }
        if ancestorsHold, !ownLeaves.isEmpty, let decision = coverage.layout.decisionOfItem[step.item] {
            coverage.recorder.decision(decision, outcome: !ownLeaves.contains(.false), leaves: ownLeaves)
        }
        return holds
    }

    /// How one requirement reads the task result now.
    private func leaf(_ requirement: FHIRC3PROTask.Requirement) -> CoverageRecorder.LeafValue {
        guard let source = requirement.step, let answers = result(of: source) else { return .unansweredTrue }
        return FHIRC3PRORules.holds(requirement.expected, answers: answers) ? .true : .false
    }

    // MARK: what the checks and properties read

    /// A step's answers as a scenario writes them: a list for a multiple choice, else the one value.
    static func json(_ values: [FHIR.Value], format: FHIRC3PROTask.Format?) -> JSONValue {
        if case .choice(multiple: true)? = format { return .array(values.map(\.json)) }
        return values.first?.json ?? .null
    }

    /// Whether a condition holds on the task result, with the standard rules (for properties files, which
    /// are written in R4's enableWhen).
    func holds(_ condition: FHIR.EnableWhen) -> Bool {
        let values = task.stepByID[condition.question].flatMap(result(of:)) ?? []
        return FHIRStandardRules(notEquals: .noAnswerEquals).holds(condition, answers: values)
    }

    /// The session's invariant: the step on screen is the path's last entry and its entry holds its answers;
    /// no entry repeats the one before it (ResearchKit appends only a step that differs from the last); the
    /// entry counts and the fingerprint match the path.
    func invariantViolation() -> String? {
        if let last = path.last, last.answers != (answers[last.step] ?? []) { return "the step on screen '\(task.steps[last.step].id)' reports other answers than it shows" }
        if zip(path, path.dropFirst()).contains(where: { $0.step == $1.step }) { return "a step follows itself on the path" }
        var counted = Array(repeating: 0, count: task.steps.count)
        for entry in path { counted[entry.step] += 1 }
        if counted != entries { return "the path's entry counts are out of date" }
        var hash = Self.emptyPathHash
        for (entry, kept) in zip(path, pathHashes) {
            hash = StableHash.mix(hash ^ UInt64(entry.step))
            if kept != hash { return "the path's fingerprint is out of date" }
        }
        if pathHashes.count != path.count { return "the path's fingerprint is out of date" }
        return nil
    }
}
