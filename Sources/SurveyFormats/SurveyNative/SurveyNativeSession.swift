import SurveyCore

/// A respondent's session with SurveyNative's engine (`SurveyQuestions.swift`, reference §6): one scrolling
/// list whose active question only moves forward, `show_if` evaluated lazily through the transitive
/// dependency map, answers never cleared, and Submit shown once, for good.
final class SurveyNativeSession: SurveySession {
    let survey: SurveyNativeSurvey
    let today: CalendarDate
    var state: State
    /// Scratch marks for the dependency walk, stamped per walk so they never need clearing.
    private var marks: [UInt32]
    private var stamp: UInt32 = 0

    /// Everything the engine keeps (SQ:20-29), per session rather than process-global.
    struct State {
        /// `answers`, by slot.
        var answers: [JSONValue?]
        /// `completedMultiAnswerQ`: questions whose Next was tapped.
        var finished: [Bool]
        /// `activeQuestion`, a top-level index; it only ever increases.
        var active = 0
        /// `skippedQuestions`, by top-level index: hidden as of the last evaluation of its `show_if`.
        var skipped: [Bool]
        /// `showSubmitButton`; never reset to false.
        var showSubmit = false
        var submitted = false
        /// What the host app answers for each custom condition key.
        var hostOutcomes: [String: Bool] = [:]
        /// `metadataDefaults` (a process-global static in the engine): the label set last chosen per
        /// `options_metadata.id`, which later dynamic-label questions open with.
        var labelSetDefaults: [String: Int] = [:]
    }

    init(survey: SurveyNativeSurvey, settings: SessionSettings) {
        self.survey = survey
        self.today = settings.today
        self.state = State(
            answers: Array(repeating: nil, count: survey.questions.count),
            finished: Array(repeating: false, count: survey.questions.count),
            skipped: Array(repeating: false, count: survey.topLevel.count))
        self.marks = Array(repeating: 0, count: survey.topLevel.count)
    }

    // MARK: SurveySession

    func perform(_ action: Action) -> StepResult {
        if state.submitted {
            return StepResult(.rejected("the survey was submitted and the engine dismissed it"))
        }
        let saved = survey.mayCrash ? state : nil
        let wasDeadEnd = isDeadEnd
        var events: [TraceEvent] = []
        do throws(EngineCrash) {
            let outcome = try apply(action, events: &events)
            if survey.mayCrash { try checkShownQuestions() }
            if !wasDeadEnd, isDeadEnd {
                events.append(TraceEvent("dead_end", detail: ["question": .string(survey.questions[activeSlot].id)]))
            }
            return StepResult(outcome, events: events)
        } catch {
            if let saved { state = saved }
            return StepResult(.rejected("the real SurveyNative engine would crash here: \(error.reason)"))
        }
    }

    var currentQuestion: String? {
        state.showSubmit ? nil : survey.questions[activeSlot].id
    }

    var visibleQuestions: [String] {
        var visible: [String] = []
        for index in 0...state.active where !state.skipped[index] {
            let slot = survey.topLevel[index]
            visible.append(survey.questions[slot].id)
            for sub in survey.questions[slot].subQuestions where (try? isSubQuestionShown(sub)) ?? false {
                visible.append(survey.questions[sub].id)
            }
        }
        return visible
    }

    var isSubmittable: Bool { state.showSubmit && !state.submitted }

    func answer(for question: String) -> JSONValue? {
        survey.slotByID[question].flatMap { state.answers[$0] }
    }

    /// `submitJson()`: every stored answer, hidden or not (reference §3).
    var payload: JSONValue? {
        guard state.submitted else { return nil }
        var answers: [String: JSONValue] = [:]
        for (slot, answer) in state.answers.enumerated() {
            if let answer { answers[survey.questions[slot].id] = answer }
        }
        return ["answers": .object(answers)]
    }

    /// Why opening the survey would crash the engine (its first question cannot be shown), or nil.
    var openingCrash: String? {
        do throws(EngineCrash) {
            try checkShownQuestions()
            return nil
        } catch {
            return error.reason
        }
    }

    // MARK: actions

    private func apply(_ action: Action, events: inout [TraceEvent]) throws(EngineCrash) -> Outcome {
        switch action {
        case .answer(let id, let value):
            guard let slot = survey.slotByID[id] else { return .doesNotFit(noSuchQuestion(id)) }
            if let refusal = try visibilityRefusal(slot) { return .rejected(refusal) }
            return try answer(slot, with: value)
        case .next(let id):
            let slot: Int
            if let id {
                guard let found = survey.slotByID[id] else { return .doesNotFit(noSuchQuestion(id)) }
                if let refusal = try visibilityRefusal(found) { return .rejected(refusal) }
                guard hasNextButton(found) else { return .rejected(noNextButton(found)) }
                slot = found
            } else {
                guard let found = try nextButtonInActiveSection() else { return .rejected(noNextButton(activeSlot)) }
                slot = found
            }
            return try tapNext(slot)
        case .goto(let id):
            guard let slot = survey.slotByID[id] else { return .doesNotFit(noSuchQuestion(id)) }
            if let refusal = try visibilityRefusal(slot) { return .rejected(refusal) }
            return .ok
        case .submit:
            guard state.showSubmit else {
                return .rejected("Submit is not shown yet: it appears once the last question is answered or everything after the active question is hidden")
            }
            guard let url = survey.submit.url, SurveyNativeSurvey.isValidURL(url) else {
                throw EngineCrash(reason: "submit.url \(survey.submit.url.map { "\"\($0)\"" } ?? "is missing and") is not a URL; the engine force-unwraps URL(string:) when posting")
            }
            state.submitted = true
            events.append(TraceEvent("submitted", detail: ["url": .string(url), "method": "POST", "sent": false]))
            return .ok
        case .hostCondition(let key, let outcome):
            guard survey.hostConditionKeys.contains(key) else {
                let known = survey.hostConditionKeys.isEmpty ? "the survey has none" : "the survey has \(survey.hostConditionKeys.joined(separator: ", "))"
                return .doesNotFit("no custom condition has extra.id '\(key)' (\(known))")
            }
            // The host answers when the engine next evaluates the condition; nothing is re-evaluated now.
            state.hostOutcomes[key] = outcome
            return .ok
        case .back:
            return .doesNotFit("SurveyNative has no Back button: to change an earlier answer, answer that visible question again")
        case .clear:
            return .doesNotFit("SurveyNative cannot clear an answer: answers are only ever overwritten")
        }
    }

    private func noSuchQuestion(_ id: String) -> String {
        "the survey has no question '\(id)'\(Spelling.suggestion(for: id, in: survey.questionIDs))"
    }

    /// Why a question cannot be touched now, or nil if it is on screen.
    func visibilityRefusal(_ slot: Int) throws(EngineCrash) -> String? {
        let question = survey.questions[slot]
        if question.owner > state.active {
            return "'\(question.id)' is not shown yet: the survey has only reached '\(survey.questions[activeSlot].id)'"
        }
        if state.skipped[question.owner] {
            if question.isSubQuestion {
                return "'\(question.id)' is hidden with its question '\(survey.questions[survey.topLevel[question.owner]].id)'"
            }
            return "'\(question.id)' is hidden: its show_if was false when last evaluated"
        }
        if question.isSubQuestion, try !isSubQuestionShown(slot) {
            return "'\(question.id)' is hidden: its show_if is false"
        }
        return nil
    }

    // MARK: the engine's bookkeeping

    var activeSlot: Int { survey.topLevel[state.active] }

    var isDeadEnd: Bool {
        !state.showSubmit && state.active == survey.topLevel.count - 1 && state.skipped[state.active]
    }

    /// Sub-question visibility is evaluated afresh against all answers (`shouldShow`, SQ:443-460). The
    /// engine caches it per parent and can show a stale value; the reference advises evaluating afresh.
    func isSubQuestionShown(_ slot: Int) throws(EngineCrash) -> Bool {
        try survey.showIf[slot]?.evaluate(answers: state.answers, host: state.hostOutcomes) ?? true
    }

    /// `answerQuestion` then `update`: store, re-evaluate dependents, then `sectionsToInsert`.
    func commit(_ slot: Int, _ value: JSONValue) throws(EngineCrash) {
        state.answers[slot] = value
        try reevaluateDependents(of: slot)
        try sectionsToInsert(changed: survey.questions[slot].owner)
    }

    /// `markFinished` (SQ:1404-1425): store the type's empty answer if there is none, mark the question
    /// finished, then treat it as an answer change.
    func markFinished(_ slot: Int) throws(EngineCrash) {
        if state.answers[slot] == nil {
            state.answers[slot] = survey.questions[slot].kind.emptyAnswer
        }
        state.finished[slot] = true
        try reevaluateDependents(of: slot)
        try sectionsToInsert(changed: survey.questions[slot].owner)
    }

    /// `updateSkippedQuestions`: every top-level question whose `show_if` depends on this answer, directly
    /// or through other questions' `show_if`, is evaluated again. The others keep their last state, which
    /// for a question never evaluated is "shown" (the lazy evaluation of reference §6).
    private func reevaluateDependents(of slot: Int) throws(EngineCrash) {
        stamp &+= 1
        if stamp == 0 {
            marks = Array(repeating: 0, count: marks.count)
            stamp = 1
        }
        var queue = survey.directDependents[slot]
        for index in queue { marks[index] = stamp }
        var head = 0
        while head < queue.count {
            let index = queue[head]
            head += 1
            let dependentSlot = survey.topLevel[index]
            state.skipped[index] = try !survey.showIf[dependentSlot]!.evaluate(answers: state.answers, host: state.hostOutcomes)
            for next in survey.directDependents[dependentSlot] where marks[next] != stamp {
                marks[next] = stamp
                queue.append(next)
            }
        }
    }

    /// `sectionsToInsert` (SQ:1334-1356): show Submit when the last question is done; otherwise advance only
    /// if the active question is now hidden or the answer changed in its section and completed it.
    private func sectionsToInsert(changed owner: Int) throws(EngineCrash) {
        let last = survey.topLevel.count - 1
        if state.active == last, !state.showSubmit, try isFullyAnswered(last) {
            state.showSubmit = true
            return
        }
        if state.skipped[state.active] {
            advance()
        } else if owner == state.active, try isFullyAnswered(state.active) {
            advance()
        }
    }

    /// One step forward past hidden questions. From the last question nothing happens (the dead end: the
    /// last question active and hidden shows no Submit); running onto a hidden last question shows Submit.
    private func advance() {
        let last = survey.topLevel.count - 1
        guard state.active < last else { return }
        var next = state.active + 1
        while next < last, state.skipped[next] { next += 1 }
        state.active = next
        if state.skipped[next] { state.showSubmit = true }
    }

    /// A top-level question is fully answered when it is complete and so is every shown sub-question.
    func isFullyAnswered(_ index: Int) throws(EngineCrash) -> Bool {
        let slot = survey.topLevel[index]
        guard isComplete(slot) else { return false }
        for sub in survey.questions[slot].subQuestions where try isSubQuestionShown(sub) {
            if !isComplete(sub) { return false }
        }
        return true
    }

    /// `isCompleteAnswer` (SQ:990-1019).
    func isComplete(_ slot: Int) -> Bool {
        guard let answer = state.answers[slot] else { return false }
        let kind = survey.questions[slot].kind
        switch answer {
        case .string(let text):
            return !text.isEmpty
        case .array:
            if case .addTextField = kind { return true }
            return state.finished[slot]
        case .object(let parts):
            switch kind {
            case .singleSelect: return !(parts.values.first?.stringValue ?? "").isEmpty
            case .dynamicLabelTextField: return !parts.values.contains(.string(""))
            case .tableSelect(_, let rows): return parts.count == rows.count
            default: return state.finished[slot]
            }
        default:
            return true
        }
    }

    /// The engine crashes on showing a question whose force-unwrapped keys are missing, and on showing
    /// Submit without a title.
    private func checkShownQuestions() throws(EngineCrash) {
        for index in 0...state.active where !state.skipped[index] {
            let slot = survey.topLevel[index]
            if let crash = survey.questions[slot].crash { throw EngineCrash(reason: crash) }
            for sub in survey.questions[slot].subQuestions where try isSubQuestionShown(sub) {
                if let crash = survey.questions[sub].crash { throw EngineCrash(reason: crash) }
            }
        }
        if state.showSubmit, survey.submit.buttonTitle == nil {
            throw EngineCrash(reason: "submit has no \"button_title\", which the engine force-unwraps when it shows Submit")
        }
    }
}

extension SurveyNative.Kind {
    /// What `markFinished` stores for an unanswered question.
    var emptyAnswer: JSONValue {
        switch self {
        case .multiSelect, .addTextField: .array([])
        case .multiTextField, .dynamicLabelTextField: .object([:])
        default: .string("")
        }
    }
}
