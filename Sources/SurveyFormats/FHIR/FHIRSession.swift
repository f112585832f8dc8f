import SurveyCore

/// A respondent's session with an R4 Questionnaire as LHC-Forms and android-fhir render it (reference's
/// recommended engine rules): one scrolling form whose enabled items are shown in document order, the focus
/// on one question, answers re-evaluated after every change, Submit always available.
///
/// Answers are kept by instance whether or not their item is enabled: a disabled item's answers are
/// withheld (its dependants see it unanswered, the response omits it) and come back if it is enabled again,
/// as android-fhir's cache does (§A1, back-navigation). Both engines keep each item's enablement between
/// changes and re-evaluate what a change can affect: LHC-Forms repeats its skip logic in document order
/// until nothing changes, a disabled source counting as unanswered; android-fhir makes one pass in document
/// order after each change, clearing the answers of the items it finds disabled as it goes (docs/fhir.md,
/// "Enablement"). Here each change re-evaluates only the instances whose conditions read what changed, in
/// document order, so a step costs the same in a form of ten items or of a hundred thousand; the page (what
/// is shown, the focus's place, the actions on offer) is kept in a `WeightedOrder`, so walks never build it.
///
/// Where the engine throws (a TypeError in LHC-Forms' skip logic, an exception in android-fhir's
/// evaluation or views), the action that led there is refused and the session stays as it was; when the
/// form throws as it opens, every action is refused.
final class FHIRSession: SurveySession {
    let survey: FHIRSurvey
    let settings: SessionSettings
    let profile: FHIRProfile
    let plan: FHIRBlockPlan
    let coverage: (recorder: CoverageRecorder, layout: FHIRCoverageLayout)?

    struct State: Sendable {
        var instances: FHIRInstances
        var slots: ChunkedArray<FHIRSlotState>
        /// What each instance noted as it came on the page, by slot.
        var arrivals: ChunkedArray<FHIRArrival>
        var values = FHIRAnswerValues()
        /// The question with the focus; -1 once the respondent is past the last one.
        var focus: Int32 = -1
        var submitted = false
        /// The sum of the id hashes of the instances on the page.
        var fingerprint: UInt64 = 0
        /// How many instances are required, enabled and unanswered (LHC-Forms' response status).
        var missingRequired = 0
        /// Whether the last evaluation of enablement reached a fixpoint.
        var settled = true
        /// Instances to evaluate at the next change: android-fhir's conditions placed before a source whose
        /// cleared answers they read at its next pass; under LHC-Forms, what a bounded evaluation left.
        var pending: [Int32] = []
        /// What SDC expression evaluation remembers between changes.
        var expressions = FHIRExpressionMemory()
        /// How many changes were made: the instances a change puts on the page are marked with its number.
        var changes: Int32 = 0
        /// A hash of which instances are enabled (a sum of a hash of each enabled one's slot), for telling a
        /// pass of LHC-Forms' skip logic that repeats an earlier one.
        var enabledHash: UInt64 = 0
    }

    // A session is used from one place at a time (a walk, a replay): its state is not checked for
    // overlapping access at run time, which its every step would pay for.
    @exclusivity(unchecked) var state: State
    /// Why the engine the settings choose refuses to render the file: then nothing is shown and every action
    /// is refused (commands check the settings first and stop with this message).
    let refusal: String?
    /// What the engine throws as the form opens: then every action is refused.
    @exclusivity(unchecked) private(set) var openingFailure: String?
    /// What the engine throws in the current state, found while working enablement out (or at submit): the
    /// action that led there is undone.
    @exclusivity(unchecked) var failure: String?
    /// The Questionnaire's SDC expressions, evaluated as the engine does (nil when it has none).
    let expressions: FHIRExpressions?
    /// The values expressions computed as the form opened.
    @exclusivity(unchecked) private(set) var startEvents: [TraceEvent] = []
    /// Whether an action can make the engine throw here, so the state is kept to undo it.
    private let mayThrow: Bool
    /// The response and what it is written from, worked out when first read after Submit.
    @exclusivity(unchecked) private var response: JSONValue?
    @exclusivity(unchecked) private var submitted: FHIRResponseInput?
    /// After Submit, the page worked out afresh for the invariant, when the step checker found it kept for
    /// the response's key (`FHIRSubmittedCheck`): nothing changes after Submit.
    @exclusivity(unchecked) var keptFreshPage: FHIRFreshPage?
    /// Instances to evaluate once the change being made is done (their order keys are taken then).
    @exclusivity(unchecked) var dirty: [Int32] = []
    /// Instances whose enablement changed, whose place on the page is worked out after evaluation.
    @exclusivity(unchecked) var enablementChanged: [Int32] = []
    /// Under coverage: which items had an instance on the page after the last change.
    @exclusivity(unchecked) var itemShown: [Bool]
    /// Where the focus is looked for after the change being made took the focused instance off the page.
    @exclusivity(unchecked) var focusAnchor: FocusAnchor?
    /// How many instances' enablement was decided (a condition evaluation each at most), for tests that count
    /// the work a step does.
    @exclusivity(unchecked) var decisions = 0
    /// How many expression passes were left out as idle (`FHIRExpressions.passIsIdle`), for tests that count
    /// the work a step does.
    @exclusivity(unchecked) var idlePasses = 0
    /// Whether what happens is reported to the coverage recorder: not while the shared opening form is
    /// worked out, which `recordOpening` reports for each session instead.
    @exclusivity(unchecked) var recordsCoverage = false

    convenience init(survey: FHIRSurvey, settings: SessionSettings, coverage: CoverageRecorder?, refusal: String? = nil) {
        let expressions = FHIRExpressions(survey: survey, settings: settings, coverage: coverage)
        guard expressions == nil else {
            // The form's expressions read the clock and the launch contexts: sessions under the same settings
            // start from one opening, unless they record coverage (the expressions report their iifs as the
            // form opens, to the session's recorder).
            let shared = coverage != nil ? nil : survey.expressionOpenings.get(settings) {
                FHIRSession.workOutOpening(survey: survey, settings: settings, expressions: expressions)
            }
            self.init(survey: survey, settings: settings, coverage: coverage, refusal: refusal, expressions: expressions, opening: shared)
            recordsCoverage = true
            if let shared {
                openingFailure = shared.failure
            } else {
                openingFailure = opening()
            }
            state.expressions.opening = false
            startEvents = computedEvents()
            finishOpening()
            return
        }
        let profile = FHIRProfile.standard(settings)
        let shared = survey.openings.get(FHIROpening.Key(profile)) {
            FHIRSession.workOutOpening(survey: survey, settings: settings, expressions: nil)
        }
        self.init(survey: survey, settings: settings, coverage: coverage, refusal: refusal, expressions: nil, opening: shared)
        openingFailure = shared.failure
        recordsCoverage = true
        if let coverage = self.coverage { recordOpening(coverage.recorder, coverage.layout) }
        finishOpening()
    }

    /// A session on the opening form given, or on the bare instances when none is (to work the opening out).
    private init(
        survey: FHIRSurvey, settings: SessionSettings, coverage: CoverageRecorder?, refusal: String?, expressions: FHIRExpressions?, opening: FHIROpening?
    ) {
        self.survey = survey
        self.settings = settings
        self.refusal = refusal
        self.profile = FHIRProfile.standard(settings)
        self.plan = survey.blockPlan()
        self.coverage = coverage.map { ($0, survey.layout()) }
        self.itemShown = Array(repeating: false, count: coverage == nil ? 0 : survey.items.count)
        self.expressions = expressions
        if let opening {
            mayThrow = opening.mayThrow
            state = opening.state
        } else {
            mayThrow = profile.mayThrow(survey)
            let instances = FHIRInstances(plan: plan)
            state = State(
                instances: instances, slots: ChunkedArray(repeating: FHIRSlotState(), count: instances.slotCount),
                arrivals: ChunkedArray(repeating: FHIRArrival(), count: instances.slotCount))
        }
    }

    /// The opening form worked out on a session of its own, which records no coverage, for sessions to start from.
    private static func workOutOpening(survey: FHIRSurvey, settings: SessionSettings, expressions: FHIRExpressions?) -> FHIROpening {
        let session = FHIRSession(survey: survey, settings: settings, coverage: nil, refusal: nil, expressions: expressions, opening: nil)
        let failure = session.opening()
        return FHIROpening(state: session.state, failure: failure, mayThrow: session.mayThrow)
    }

    /// Coverage of the items never shown, and the focus on the first question.
    private func finishOpening() {
        if let coverage {
            for (item, shown) in itemShown.enumerated() where !shown {
                if let question = coverage.layout.questionOfItem[item] { coverage.recorder.question(question, shown: false) }
            }
        }
        state.focus = isBlocked ? -1 : nextQuestion(after: nil) ?? -1
    }

    /// Works the opening form out on the bare instances: initial values, enablement from every item enabled
    /// (LHC-Forms' statuses start unset), and the page; what the engine throws as the form opens.
    private func opening() -> String? {
        putOnPage(state.instances.order.elements)
        refresh()
        return failure.map { "\(profile.engine.name) throws as the form opens: \($0)" }
    }

    /// Whether the last evaluation of enablement reached a fixpoint.
    var settled: Bool { state.settled }

    /// Nothing is shown when the engine refuses the file or throws as it opens.
    var isBlocked: Bool { refusal != nil || openingFailure != nil }

    // MARK: SurveySession

    func perform(_ action: Action) -> StepResult {
        if let refusal = refusal ?? openingFailure { return StepResult(.rejected(refusal)) }
        if state.submitted {
            return StepResult(.rejected("the QuestionnaireResponse was submitted; the form is closed"))
        }
        let wasSettled = state.settled
        let saved = mayThrow ? (state, itemShown, coverage?.recorder.counts) : nil
        let outcome = apply(action)
        if let failure {
            // The action never happened: nothing of it stays, not even what coverage saw of it.
            assert(saved != nil, "the engine threw where FHIRProfile.mayThrow said it cannot: \(failure)")
            if let saved {
                (state, itemShown) = (saved.0, saved.1)
                if let counts = saved.2 { coverage?.recorder.restore(counts) }
            }
            self.failure = nil
            dirty = []
            enablementChanged = []
            return StepResult(.rejected("\(profile.engine.name) throws here, so this action breaks the form: \(failure)"))
        }
        var events: [TraceEvent] = []
        if action == .submit, outcome == .ok {
            events.append(TraceEvent("submitted", detail: ["status": .string(responseStatus)]))
        }
        events += computedEvents()
        if wasSettled, !state.settled {
            events.append(TraceEvent("enablement_unsettled", detail: ["items": .array(unsettledItems().map(JSONValue.string))]))
        }
        return StepResult(outcome, events: events)
    }

    var currentQuestion: String? {
        state.submitted || state.focus < 0 ? nil : state.instances.id(state.focus)
    }

    var visibleQuestions: [String] {
        isBlocked ? [] : state.instances.order.elements.filter { isShown($0) }.map { state.instances.id($0) }
    }

    var isSubmittable: Bool { !state.submitted && !isBlocked }

    /// A question's answers, kept whether or not it is enabled, and while its question keeps it aside.
    func answer(for question: String) -> JSONValue? {
        guard let slot = state.instances.slot(named: question, setAside: true), state.slots[Int(slot)].isAnswered else { return nil }
        let values = answers(slot)
        return plan.items[state.instances.item(slot)].repeats ? .array(values.map(\.json)) : values.first?.json
    }

    var payload: JSONValue? {
        guard state.submitted else { return nil }
        if let response { return response }
        let written = profile.response.response(of: submittedInput)
        response = written
        return written
    }

    /// What the submitted response is written from, worked out once (nothing changes after Submit).
    var submittedInput: FHIRResponseInput {
        if let input = submitted { return input }
        let input = responseInput
        submitted = input
        return input
    }

    var visibleCount: Int { isBlocked ? 0 : Int(state.instances.order.totals[FHIRPage.shown]) }

    func visibleQuestion(at position: Int) -> String { state.instances.id(visibleSlot(at: position)) }

    /// The item the visible instance is of: its index in `questionIDs`.
    func visibleQuestionIndex(at position: Int) -> Int { state.instances.item(visibleSlot(at: position)) }

    func visibleEntry(at position: Int) -> (question: String, index: Int) {
        let slot = visibleSlot(at: position)
        return (state.instances.id(slot), state.instances.item(slot))
    }

    var currentVisiblePosition: Int? {
        guard !state.submitted, state.focus >= 0, isShown(state.focus) else { return nil }
        return state.instances.order.rank(state.focus, kind: FHIRPage.shown)
    }

    var visibleFingerprint: UInt64 { isBlocked ? 0 : state.fingerprint }

    /// `StableHash.view` with the focus's place on the page told by its id's hash, kept since it came on the
    /// page, rather than by its position, counted through the page's order: on one page an instance has one
    /// place, and a checked walk reads this after every step of the walk and of its replay. A blocked session
    /// shows nothing, and its focus's position is counted as before.
    var viewFingerprint: UInt64 {
        if isBlocked { return StableHash.view(visible: 0, currentPosition: currentVisiblePosition, submittable: isSubmittable) }
        let focusShown = !state.submitted && state.focus >= 0 && isShown(state.focus)
        let place = focusShown ? state.arrivals[Int(state.focus)].idHash : UInt64(bitPattern: -1)
        return StableHash.view(visible: state.fingerprint, currentPlace: place, submittable: isSubmittable)
    }

    /// Adding and removing group instances, going back, and clearing an answered question.
    var otherActions: [Action] { (0..<otherActionCount).map(otherAction(at:)) }

    var otherActionCount: Int {
        guard !state.submitted, !isBlocked else { return 0 }
        return (canGoBack ? 1 : 0) + Int(state.instances.order.totals[FHIRPage.actions])
    }

    func otherAction(at index: Int) -> Action {
        if canGoBack, index == 0 { return .back }
        let k = index - (canGoBack ? 1 : 0)
        let slot = state.instances.order.select(kind: FHIRPage.actions, k)
        let offset = k - state.instances.order.rank(slot, kind: FHIRPage.actions)
        return pageActions(slot)[offset]
    }

    /// `computed {id: answer}`: the answers SDC expressions changed since the last report, as stored (null:
    /// none), so a trace shows computed values as they change; coverage counts them answered.
    func computedEvents() -> [TraceEvent] {
        guard !state.expressions.computed.isEmpty else { return [] }
        defer { state.expressions.computed = [] }
        var detail = [String: JSONValue](minimumCapacity: state.expressions.computed.count)
        for id in state.expressions.computed {
            detail[id] = answer(for: id) ?? .null
            if coverage != nil, recordsCoverage, let slot = state.instances.slot(named: id), state.slots[Int(slot)].isAnswered {
                recordAnswer(answers(slot), item: state.instances.item(slot))
            }
        }
        return [TraceEvent("computed", detail: .object(detail))]
    }

    // MARK: reading the state

    @inline(__always)
    func answers(_ slot: Int32) -> [FHIR.Value] { state.values[state.slots[Int(slot)].answer] }

    @inline(__always)
    func isEnabled(_ slot: Int32) -> Bool { state.slots[Int(slot)].flags.contains(.enabled) }

    @inline(__always)
    func isShown(_ slot: Int32) -> Bool { state.slots[Int(slot)].flags.contains(.shown) }

    func item(of slot: Int32) -> FHIR.Item { plan.items[state.instances.item(slot)] }

    private func visibleSlot(at position: Int) -> Int32 { state.instances.order.select(kind: FHIRPage.shown, position) }

    /// The response's status: completed when every enabled required item is answered. LHC-Forms writes what
    /// it shows, counted as the session goes; android-fhir writes what its submit pass enables.
    var responseStatus: String {
        let missing = profile.engine == .lhcForms ? state.missingRequired : responseInput.unansweredRequired.count
        return missing == 0 ? "completed" : "in-progress"
    }
}

/// The form as it opens under one engine reading, which sessions of a Questionnaire without SDC
/// expressions start from (with expressions: under one settings, for sessions that record no coverage). A
/// class: a session starting from it copies its state once, not the whole opening on the way.
final class FHIROpening: Sendable {
    struct Key: Hashable, Sendable {
        let engine: FHIREngine
        let notEquals: FHIRStandardRules.NotEquals

        init(_ profile: FHIRProfile) {
            engine = profile.engine
            notEquals = profile.notEquals
        }
    }

    let state: FHIRSession.State
    let failure: String?
    /// Whether an action can make the engine throw (`FHIRProfile.mayThrow`).
    let mayThrow: Bool

    init(state: FHIRSession.State, failure: String?, mayThrow: Bool) {
        var state = state
        state.values.seal()
        self.state = state
        self.failure = failure
        self.mayThrow = mayThrow
    }
}
