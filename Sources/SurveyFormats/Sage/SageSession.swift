import SurveyCore

/// One navigator at work: the task's or a section's (SageResearch's `RSDTaskViewModel`, AssessmentModel's
/// `BranchState`), with the result it builds.
struct SageNavigatorState: Sendable {
    var section: Int?
    var result: SageBranchResult
    /// SageResearch's `previousResults`: results that left the path, which pre-fill a step shown again.
    var cache: [SageResultEntry] = []
    /// The child on screen, or the section entered; nil before the first.
    var current: SageSurvey.Node?
    /// Kotlin AssessmentModel: the result of the step on screen when it is not in the history (a step entered
    /// from itself: `appendChildResultIfNeeded` skips a result whose identifier the last entry has).
    var detached: SageResultEntry?
    /// Tells apart the navigators of one section (their results are shared objects in some engines).
    var instance: Int
}

extension SageNavigatorState {
    /// Changes the live result of the step on screen: the one kept out of the history, else its last one in
    /// it. Done through one access to the navigator: read from the session's list, the navigator would be
    /// copied whole (each of its parts retained and released) at every answer and move.
    mutating func updateLiveEntry(of step: Int, _ change: (inout SageResultEntry) -> Void) {
        if detached?.step == step {
            change(&detached!)
            return
        }
        guard let position = result.stepHistory.lastIndex(where: { $0.step == step }) else { return }
        change(&result.stepHistory[position])
    }

    /// Puts a step on screen in this navigator (a result kept out of the history is the step's own only).
    mutating func show(_ index: Int) {
        if detached?.step != index { detached = nil }
        current = .step(index)
    }
}

/// A respondent running a task under one engine: the navigators open (the task and the sections entered),
/// the step on screen, and the result as the engine builds it. The navigation itself is in
/// `SageResearchNavigator.swift` and `SageAssessmentNavigator.swift`.
final class SageSession: SurveySession {
    let survey: SageSurvey
    let engine: SageEngine
    let settings: SessionSettings
    let coverage: (recorder: CoverageRecorder, layout: SageCoverageLayout)?
    /// One session is used by one thread at a time, so Swift's dynamic exclusivity checks on its state (a
    /// cost on every access of a class's stored property, paid again by each shadow release the step
    /// checker runs) are not needed.
    @exclusivity(unchecked) private(set) var clock: ScenarioClock
    /// The open navigators, the task's first.
    @exclusivity(unchecked) var open: [SageNavigatorState] = []
    /// SageResearch's `childPaths`: the last navigator of each section, reused when Back goes into it.
    @exclusivity(unchecked) var retained: [Int: SageNavigatorState] = [:]
    /// The latest state of each section navigator's result, by instance.
    @exclusivity(unchecked) var branchStates: [Int: SageBranchResult] = [:]
    @exclusivity(unchecked) private var nextInstance = 0
    /// The step on screen; nil once the task has finished.
    @exclusivity(unchecked) var current: Int?
    @exclusivity(unchecked) private(set) var ending: Ending?
    /// The task result once handed to the app (`handleTaskResultReady`, `readyToSave`): later changes are
    /// not in it.
    @exclusivity(unchecked) private(set) var handedOver: SageHandedOverResult?
    /// Its JSON, written when first read.
    @exclusivity(unchecked) private var written: JSONValue?
    @exclusivity(unchecked) var cohorts: Set<String> = []
    /// What the action being performed reports.
    @exclusivity(unchecked) var events: [TraceEvent] = []
    /// The rule whose target no navigator had, for the step checker.
    @exclusivity(unchecked) private(set) var unknownTarget: (step: Int, target: String)?
    /// The path as walks read it, and whether Done shows, each worked out when first asked for after an
    /// action (sessions that only move, as the step checker's shadows, never ask for the path).
    @exclusivity(unchecked) private var pathCache: SagePathView?
    /// How many times the path was worked out (work counted, for tests).
    @exclusivity(unchecked) private(set) var pathsWorkedOut = 0
    @exclusivity(unchecked) private var submittableCache: Bool?

    /// How the task ended.
    enum Ending: String {
        case completed, exit
        case unknownTarget = "unknown_target"
    }

    init(survey: SageSurvey, engine: SageEngine, settings: SessionSettings, coverage: CoverageRecorder?) {
        self.survey = survey
        self.engine = engine
        self.settings = settings
        self.coverage = coverage.map { ($0, survey.coverageLayout(for: $0)) }
        self.clock = ScenarioClock(today: settings.today)
        open = [makeNavigator(section: nil)]
        if engine.isAssessmentModel { assessmentForward(from: nil) } else { researchMoveToNext(from: nil) }
        events = []
    }

    /// A session in this one's state that goes on by itself: whatever it is asked or does from here is what
    /// this one would answer or do. Its state is values only, so the copy shares their storage until either
    /// changes it. Only for sessions that record no coverage (a recorder is not copied).
    func copy() -> SageSession {
        precondition(coverage == nil, "a session recording coverage is not copied")
        return SageSession(copying: self)
    }

    /// Every stored property of `other`, one by one.
    private init(copying other: SageSession) {
        survey = other.survey
        engine = other.engine
        settings = other.settings
        coverage = nil
        clock = other.clock
        open = other.open
        retained = other.retained
        branchStates = other.branchStates
        nextInstance = other.nextInstance
        current = other.current
        ending = other.ending
        handedOver = other.handedOver
        written = other.written
        cohorts = other.cohorts
        events = other.events
        unknownTarget = other.unknownTarget
        pathCache = other.pathCache
        pathsWorkedOut = other.pathsWorkedOut
        submittableCache = other.submittableCache
    }

    func makeNavigator(section: Int?) -> SageNavigatorState {
        nextInstance += 1
        let name = section.map { survey.sections[$0].name } ?? survey.identifier
        return SageNavigatorState(section: section, result: SageBranchResult(identifier: name, section: section, start: now), instance: nextInstance)
    }

    var now: Int { clock.elapsed }

    var level: Int { open.count - 1 }

    // MARK: what the respondent sees

    var currentQuestion: String? { current.map { survey.steps[$0].id } }

    var visibleQuestions: [String] { visible.map { survey.steps[$0].id } }

    var visibleCount: Int { visible.count }

    func visibleQuestion(at position: Int) -> String { survey.steps[visible[position]].id }

    func visibleQuestionIndex(at position: Int) -> Int { visible[position] }

    var currentVisiblePosition: Int? { path.currentPosition }

    /// A hash of the steps on the path, in order.
    var visibleFingerprint: UInt64 { path.fingerprint }

    /// The steps on the path.
    var visible: [Int] { path.steps }

    /// Whether the forward button reads Done: it is enabled, and no navigator up the chain has a step after
    /// its current one when looking ahead (rules are not read while peeking).
    var isSubmittable: Bool {
        if let submittableCache { return submittableCache }
        let submittable: Bool
        if let current, missingField(current) == nil {
            submittable = engine.isAssessmentModel ? !assessmentHasNodeAfter : !researchHasStepAfter
        } else {
            submittable = false
        }
        submittableCache = submittable
        return submittable
    }

    var hasEnded: Bool { ending != nil }

    func answer(for question: String) -> JSONValue? {
        guard let index = survey.indexByID[question] else { return nil }
        let step = survey.steps[index]
        let entry = latestEntry(of: index)
        if step.kind == .display { return nil }
        if step.fields.count == 1, !step.answerIsObject, survey.generation == .legacy {
            return entry?.inputs.first { $0.field == step.fields[0].id }?.value ?? nil
        }
        if survey.generation == .legacy {
            let values = (entry?.inputs ?? []).compactMap { input in input.value.map { (input.field, $0) } }
            return values.isEmpty ? nil : .object(Dictionary(values, uniquingKeysWith: { _, last in last }))
        }
        return entry?.value
    }

    /// The entry a step's answers are read from: on screen its live result, else its latest result in the
    /// open navigators, else the cache that pre-fills it.
    private func latestEntry(of step: Int) -> SageResultEntry? {
        let name = survey.steps[step].name
        let section = survey.steps[step].section
        for navigator in open.reversed() where navigator.section == section {
            if let entry = navigator.detached, entry.step == step { return entry }
            if let entry = navigator.result.stepHistory.last(where: { $0.identifier == name && $0.step == step }) { return entry }
            if let entry = navigator.cache.last(where: { $0.identifier == name && $0.step == step }) { return entry }
        }
        if let navigator = retained[section ?? -1], let entry = navigator.result.stepHistory.last(where: { $0.step == step }) { return entry }
        return nil
    }

    var payload: JSONValue? {
        guard let handedOver else { return nil }
        if let written { return written }
        let json = SageResult(survey: survey, engine: engine, handedOver: handedOver).json
        written = json
        return json
    }

    var otherActions: [Action] {
        guard let current else { return [] }
        var actions: [Action] = []
        if canGoBack { actions.append(.back) }
        if skipButton(for: current) != nil { actions.append(.skip(question: nil)) }
        return actions
    }

    // MARK: actions

    func perform(_ action: Action) -> StepResult {
        if let id = action.question, survey.indexByID[id] == nil, action.isAboutAStep {
            return StepResult(.doesNotFit("the task has no step '\(id)'\(Spelling.suggestion(for: id, in: survey.questionIDs))"))
        }
        events = []
        let outcome: Outcome
        switch action {
        case .answer(let id, let value): outcome = onCurrent(id) { self.answer($0, value) }
        case .clear(let id): outcome = onCurrent(id) { self.answer($0, nil) }
        case .next(let id): outcome = onCurrent(id) { self.forward(from: $0, skipping: false, requireDone: false) }
        case .skip(let id): outcome = onCurrent(id) { self.forward(from: $0, skipping: true, requireDone: false) }
        case .submit: outcome = onCurrent(nil) { self.forward(from: $0, skipping: false, requireDone: true) }
        case .back: outcome = onCurrent(nil) { _ in self.back() }
        case .app(.wait(let seconds)):
            clock.advance(seconds: seconds)
            outcome = .ok
        case .goto: return StepResult(.doesNotFit("SageResearch has no goto: a task moves one step at a time (use next, back or skip)"))
        case .hostCondition: return StepResult(.doesNotFit("SageResearch tasks have no host-decided conditions"))
        case .add, .remove: return StepResult(.doesNotFit("SageResearch tasks have no repeating groups"))
        case .app(let event): return StepResult(.doesNotFit("SageResearch tasks have no app lifecycle step '\(ScenarioSyntaxName.of(event))'; only wait"))
        }
        if case .doesNotFit = outcome { return StepResult(outcome) }
        pathCache = nil
        submittableCache = nil
        return StepResult(outcome, events: events)
    }

    /// Runs `body` on the current step, which `id` (when given) must name.
    private func onCurrent(_ id: String?, _ body: (Int) -> Outcome) -> Outcome {
        guard let current else { return .rejected("the task has finished") }
        if let id, id != survey.steps[current].id {
            return .rejected("'\(id)' is not the step on screen ('\(survey.steps[current].id)'); go back to change it")
        }
        return body(current)
    }

    /// Enters an answer (nil: clears it) into the step's live result.
    private func answer(_ index: Int, _ value: JSONValue?) -> Outcome {
        // The step's parts are read in place, at every answer: a copy of the step would retain and release each.
        guard survey.steps[index].kind == .question else {
            return .rejected("'\(survey.steps[index].id)' is a \(survey.steps[index].type) step: it takes no answer")
        }
        var stored: JSONValue? = nil
        var fields = SageFieldValues.none
        if let value {
            if let checkbox = survey.steps[index].skipCheckbox, value == checkbox {
                // Checking the skip checkbox stores its value, JSON null by default (`SkipCheckboxInputItem`).
                stored = value
            } else {
                switch survey.fieldValues(value, forStepAt: index, today: settings.today) {
                case .failure(let refusal): return refusal.outcome
                case .success(let values):
                    fields = values
                    stored = values.stored
                }
            }
        }
        updateLiveEntry(of: index) { entry in
            if survey.generation == .legacy {
                // Each field changed moves its input result to the end (`appendInputResults(with:)`); a field
                // no longer answered keeps a result without a value.
                for field in survey.steps[index].fields {
                    let new = fields.value(of: field)
                    let old = entry.inputs.first { $0.field == field.id }
                    guard old == nil ? new != nil : old!.value != new else { continue }
                    entry.inputs.removeAll { $0.field == field.id }
                    entry.inputs.append((field.id, new))
                }
            } else {
                entry.value = stored
            }
        }
        if let coverage, value != nil { coverage.layout.recordAnswer(fields, at: index, survey: survey, coverage.recorder) }
        return .ok
    }

    /// Changes the result of the step on screen, the last of its navigator's history (or the one kept out of
    /// it).
    func updateLiveEntry(of step: Int, _ change: (inout SageResultEntry) -> Void) {
        open[level].updateLiveEntry(of: step, change)
    }

    /// The live result of the step on screen.
    func liveEntry(of step: Int) -> SageResultEntry? {
        if let detached = open[level].detached, detached.step == step { return detached }
        return open[level].result.stepHistory.last { $0.step == step }
    }

    /// Why the forward button is disabled on a step: a required input without an answer (a legacy field's
    /// `isOptional || answer != nil`; a v3 question's `isOptional || jsonValue != nil`; AssessmentModel's
    /// `optional || hasSelectedAnswer`).
    func missingAnswer(_ index: Int) -> String? {
        guard let missing = missingField(index) else { return nil }
        let step = survey.steps[index]
        let name = step.fields.count == 1 || survey.generation != .legacy ? "'\(step.id)'" : "'\(step.fields[missing].id)' of '\(step.id)'"
        return "\(name) needs an answer: it is not optional\(skipButton(for: index) != nil ? " (skip it instead)" : "")"
    }

    /// The position of the input whose missing answer disables the forward button, or nil.
    private func missingField(_ index: Int) -> Int? {
        guard survey.steps[index].kind == .question else { return nil }
        let fields = survey.steps[index].fields
        if let detached = open[level].detached, detached.step == index { return missingField(of: fields, inputs: detached.inputs, value: detached.value) }
        // Asked at every step: the live result is read where it is in the history, not copied out of it.
        let history = open[level].result.stepHistory
        guard let position = history.lastIndex(where: { $0.step == index }) else { return nil }
        return missingField(of: fields, inputs: history[position].inputs, value: history[position].value)
    }

    /// The first required field without an answer in a result's inputs (legacy) or value.
    private func missingField(of fields: [Sage.Field], inputs: [(field: String, value: JSONValue?)], value: JSONValue?) -> Int? {
        if survey.generation == .legacy {
            return fields.firstIndex { field in !field.isOptional && (inputs.first { $0.field == field.id }?.value ?? nil) == nil }
        }
        return fields.allSatisfy(\.isOptional) || value != nil ? nil : 0
    }

    /// The forward tap: Next, Done (`submit`), or the skip button.
    private func forward(from index: Int, skipping: Bool, requireDone: Bool) -> Outcome {
        if requireDone, !isSubmittable {
            if let missing = missingAnswer(index) { return .rejected(missing) }
            return .rejected("the forward button of '\(survey.steps[index].id)' reads Next, not Done: steps follow it")
        }
        if skipping {
            guard let action = skipButton(for: index) else {
                return .rejected("'\(survey.steps[index].id)' shows no skip button\(engine.isAssessmentModel ? " (it hides it)" : ": it has no skip action")")
            }
            if engine.isAssessmentModel { assessmentSkip(from: index) } else { researchSkip(from: index, action: action) }
            return .ok
        }
        if let missing = missingAnswer(index) { return .rejected(missing) }
        if engine.isAssessmentModel { assessmentGoForward() } else { researchGoForward() }
        return .ok
    }

    private var canGoBack: Bool { engine.isAssessmentModel ? assessmentCanGoBack : researchCanGoBack }

    private func back() -> Outcome {
        guard canGoBack else {
            return .rejected("'\(currentQuestion ?? "")' shows no Back button: \(backRefusal)")
        }
        if engine.isAssessmentModel { assessmentGoBack() } else { researchGoBack() }
        return .ok
    }

    private var backRefusal: String {
        guard let current else { return "the task has finished" }
        let step = survey.steps[current]
        if step.buttons.hidesBack { return "the step hides it" }
        return "there is no step to go back to"
    }

    /// The skip button a step shows: SageResearch's skip action (of the step, else of a section or the task
    /// around it) unless the step hides it; AssessmentModel's on every question step unless hidden (as each
    /// implementation reads `shouldHideActions`: `assessmentHides`).
    func skipButton(for index: Int) -> Sage.SkipAction? {
        if engine.isAssessmentModel {
            let step = survey.steps[index]
            guard step.kind == .question, !assessmentHides(step, .skip) else { return nil }
            return step.buttons.skip ?? Sage.SkipAction(isNavigation: false, target: nil, location: step.location)
        }
        // SageResearch's reading, asked at every step: the step's parts read in place, not copied.
        guard !survey.steps[index].buttons.hidesSkip else { return nil }
        if let action = survey.steps[index].buttons.skip { return action }
        var section = survey.steps[index].section
        while let inner = section {
            if let action = survey.sections[inner].buttons.skip { return action }
            section = survey.sections[inner].parent
        }
        return survey.buttons.skip
    }

    /// Whether AssessmentModel hides a step's Skip or Back button, as this implementation reads it.
    func assessmentHides(_ step: Sage.Step, _ button: Sage.Button) -> Bool {
        survey.assessmentHides(step, button, kotlin: engine.isKotlin)
    }

    /// Whether the step, a section around it or the task hides a button.
    func hides(_ step: Sage.Step, _ button: Sage.Button) -> Bool {
        if step.buttons.hides(button) || survey.buttons.hides(button) { return true }
        var section = step.section
        while let inner = section {
            if survey.sections[inner].buttons.hides(button) { return true }
            section = survey.sections[inner].parent
        }
        return false
    }

    // MARK: showing steps and ending

    /// A step's fresh result (`instantiateStepResult()`), stamped now.
    func freshEntry(for index: Int) -> SageResultEntry {
        let kind: SageResultEntry.Kind =
            switch (survey.steps[index].kind, survey.generation) {
            case (.display, _): .base
            case (.question, .legacy): .collection
            case (.question, _): .answer
            }
        var entry = SageResultEntry(identifier: survey.steps[index].name, step: index, kind: kind, start: now)
        // Results up to SageResearch 4.3 (its own, and JsonModel 1.2–1.3's) start with `endDate = Date()`;
        // JsonModel's from 1.4 have no end date until the step is left.
        if engine.resultStyle != .jsonModel { entry.end = now }
        return entry
    }

    /// Puts a step on screen.
    func show(_ index: Int) {
        current = index
        open[level].show(index)
        if let coverage, let question = coverage.layout.questionIndex(of: index) { coverage.recorder.question(question, shown: true) }
    }

    /// Hands the task result to the app once (`handleTaskResultReady`, `readyToSave`).
    func handOver() {
        guard handedOver == nil else { return }
        open[0].result.end = now
        handedOver = SageHandedOverResult(results: SageNavigators(open: open, branchStates: branchStates), today: clock.today)
        events.append(TraceEvent("result_saved"))
    }

    /// Ends the task; the result is handed over unless the engine saves nothing (Kotlin's exit).
    func finish(_ reason: Ending, saving: Bool, target: String? = nil) {
        if saving { handOver() }
        current = nil
        ending = reason
        // A target no navigator has finishes the task as completed, not as an early exit.
        var detail: [String: JSONValue] = ["reason": .string(reason == .exit ? "exit" : "completed")]
        if let target { detail["unknown_target"] = .string(target) }
        if !saving { detail["saved"] = false }
        events.append(TraceEvent("task_finished", detail: .object(detail)))
        coverage.map { $0.recorder.terminal(SageCoverageLayout.terminal(reason)) }
    }

    /// Notes a target no navigator has, for the event and the step checker.
    func noteUnknownTarget(_ target: String, from step: Int?) {
        if let step { unknownTarget = (step, target) }
    }

    /// The latest state of a section entry's result (`SageNavigators.resolved`).
    func resolved(_ entry: SageResultEntry) -> SageBranchResult? {
        SageNavigators(open: open, branchStates: branchStates).resolved(entry, engine: engine)
    }

    // MARK: the path

    /// The steps on the path, oldest first, ending with the step on screen: the path record of each open
    /// navigator, a section in it standing for the steps of its result's path. Worked out once after an
    /// action, with the fingerprint and the place of the step on screen that walks read at every step.
    private var path: SagePathView {
        if let pathCache { return pathCache }
        pathsWorkedOut += 1
        var steps: [Int] = []
        steps.reserveCapacity(16)
        // Which open navigators a section of a path already walked; one navigator needs no list.
        var walked = open.count > 1 ? [Bool](repeating: false, count: open.count) : []
        // A section still running is in its parent's path only once it ends (SageResearch appends its
        // result then): its steps follow the parent's path.
        for depth in open.indices where walked.isEmpty || !walked[depth] {
            appendPath(of: open[depth].result, depth: depth, to: &steps, walked: &walked)
        }
        if let current, steps.last != current { steps.append(current) }
        var fingerprint: UInt64 = 0x5A6E_5041_7468
        for step in steps { fingerprint = StableHash.mix(fingerprint ^ UInt64(step)) }
        let made = SagePathView(steps: steps, fingerprint: fingerprint, currentPosition: current.flatMap { steps.lastIndex(of: $0) })
        pathCache = made
        return made
    }

    /// Appends the steps of a result's path, in order. Methods passing the list along rather than nested
    /// functions capturing it: a captured variable is boxed and each access to it checked for exclusivity.
    private func appendPath(of result: SageBranchResult, depth: Int, to steps: inout [Int], walked: inout [Bool]) {
        if depth < walked.count { walked[depth] = true }
        if engine.isAssessmentModel {
            for node in pathOf(result) { appendPath(node, of: result, depth: depth, to: &steps, walked: &walked) }
        } else if result.path.isEmpty {
            // SageResearch's path is its record as it stands (`forEachPathNode`): read in place, no list made.
            for position in result.stepHistory.indices {
                appendPath(result.stepHistory[position].node, of: result, depth: depth, to: &steps, walked: &walked)
            }
        } else {
            for position in result.path.indices {
                appendPath(result.path[position].node, of: result, depth: depth, to: &steps, walked: &walked)
            }
        }
    }

    private func appendPath(_ node: SageSurvey.Node, of result: SageBranchResult, depth: Int, to steps: inout [Int], walked: inout [Bool]) {
        switch node {
        case .step(let index): steps.append(index)
        case .section(let index):
            if depth + 1 < open.count, open[depth + 1].section == index {
                appendPath(of: open[depth + 1].result, depth: depth + 1, to: &steps, walked: &walked)
            } else if let entry = result.stepHistory.last(where: { $0.identifier == survey.sections[index].name }), let branch = resolved(entry) {
                appendPath(of: branch, depth: open.count, to: &steps, walked: &walked)
            }
        }
    }

    /// The nodes of a result's path as the engine walks back along it: SageResearch's path record (or
    /// history); AssessmentModel's visits with repeats folded to the chain Back would take.
    private func pathOf(_ result: SageBranchResult) -> [SageSurvey.Node] {
        var nodes: [SageSurvey.Node] = []
        result.forEachPathNode { node in
            if engine.isAssessmentModel, let earlier = nodes.firstIndex(of: node) {
                nodes.removeSubrange((earlier + 1)...)
            } else {
                nodes.append(node)
            }
        }
        return nodes
    }
}

/// A session's path as walks read it after each action.
struct SagePathView {
    /// The steps on the path, oldest first.
    var steps: [Int]
    /// A hash of them, in order.
    var fingerprint: UInt64
    /// The last place of the step on screen in them.
    var currentPosition: Int?
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
