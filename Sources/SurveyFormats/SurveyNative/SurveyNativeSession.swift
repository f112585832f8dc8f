import SurveyCore

/// A respondent's session with SurveyNative's engine (`SurveyQuestions.swift`, reference §6): one scrolling
/// list whose active question only moves forward, `show_if` evaluated lazily through the transitive
/// dependency map, answers never cleared, and Submit shown once, for good.
///
/// The session keeps state only for the sections up to the active question (the frontier), so starting one
/// costs nothing whatever the survey's size. Beyond the active question it evaluates nothing until the
/// active question gets there: what the engine recorded for such a question is "hidden" exactly when one
/// of the ids it depends on, directly or through other questions' `show_if`, has been answered (the engine
/// evaluated it then) and its condition is false on the answers now (its condition reads answers, and the
/// engine re-evaluated it on every change of them). A change of a host's answer is the one thing that
/// condition reads besides answers, so such a change freezes what the engine recorded.
final class SurveyNativeSession: SurveySession {
    let survey: SurveyNativeSurvey
    let today: CalendarDate
    /// One session is used by one thread at a time, so Swift's dynamic exclusivity checks on it (a cost on
    /// every access of a class's stored property) are not needed.
    @exclusivity(unchecked) var state = State()
    /// Why showing the first question would crash the engine, found when the session starts.
    private var openingFailure: String?
    /// How many conditions the session has evaluated: the work tests bound to pin the per-step cost.
    private(set) var evaluationCount = 0
    /// Where the session reports the branches it takes, if anywhere.
    private let coverage: (recorder: CoverageRecorder, layout: SurveyNativeCoverageLayout)?
    /// The work lists of `reevaluateDependents` and `isReached`, kept between steps so a step allocates none.
    private var dependentsQueue = VisitQueue()
    private var reachQueue = VisitQueue()

    /// Everything the engine keeps (SQ:20-29), per session rather than process-global, for the frontier.
    struct State {
        /// `answers`, by slot, for the slots of sections `0...active`.
        var answers: [JSONValue?] = []
        /// `completedMultiAnswerQ`: questions whose Next was tapped.
        var finished: [Bool] = []
        /// Whether each sub-question's `show_if` holds now (true for top-level questions).
        var subShown: [Bool] = []
        /// Which slots are on screen, in display order.
        var visible = FlagIndex()
        /// Sum of the mixed slots on screen: the visible part of the view's fingerprint.
        var visibleSum: UInt64 = 0
        /// How many slots before the active question's are on screen: its position in the visible list,
        /// kept as flags change so the view's fingerprint, read after every checked step, costs no search.
        var shownBeforeActive = 0
        /// `activeQuestion`, a top-level index; it only ever increases.
        var active = 0
        /// `skippedQuestions`, for top-level indices `0...active`.
        var skipped: [Bool] = []
        /// For top-level indices `0...active`: whether the engine has evaluated the `show_if` since its
        /// result last could have changed other than by an answer (never, or a host's answer changed since).
        var evaluated: [Bool] = []
        /// Top-level indices beyond the active one known to be reached by an answered dependency.
        var reachedBeyond: Set<Int> = []
        /// What the engine recorded for questions beyond the active one when a host's answer changed.
        var frozen: [Int: Bool] = [:]
        /// `showSubmitButton`; never reset to false.
        var showSubmit = false
        var submitted = false
        /// How many slots hold an answer (it only grows: the engine never clears one).
        var answeredCount = 0
        /// What the host app answers for each custom condition key.
        var hostOutcomes: [String: Bool] = [:]
        /// `metadataDefaults` (a process-global static in the engine): the label set last chosen per
        /// `options_metadata.id`, which later dynamic-label questions open with.
        var labelSetDefaults: [String: Int] = [:]

        /// Room for the first slots and sections a session opens, so opening them does not grow the lists
        /// one doubling at a time (the frontier still grows as far as a survey goes).
        mutating func reserveCapacity(_ slots: Int, sections: Int) {
            answers.reserveCapacity(slots)
            finished.reserveCapacity(slots)
            subShown.reserveCapacity(slots)
            visible.reserveCapacity(slots)
            skipped.reserveCapacity(sections)
            evaluated.reserveCapacity(sections)
        }
    }

    init(survey: SurveyNativeSurvey, settings: SessionSettings, coverage: CoverageRecorder? = nil) {
        self.survey = survey
        self.today = settings.today
        self.coverage = coverage.map { ($0, survey.layout()) }
        state.reserveCapacity(min(survey.questions.count, 64), sections: min(survey.topLevel.count, 64))
        do throws(EngineCrash) {
            try openSection(0)
        } catch {
            openingFailure = error.reason
        }
    }

    // MARK: SurveySession

    func perform(_ action: Action) -> StepResult {
        if state.submitted {
            return StepResult(.rejected("the survey was submitted and the engine dismissed it"))
        }
        do throws(EngineCrash) {
            return survey.mayCrash ? try stepUndoingCrashes(action) : try step(action)
        } catch {
            return StepResult(.rejected("the real SurveyNative engine would crash here: \(error.reason)"))
        }
    }

    /// A step on a survey that can crash the engine: a crash leaves the state as it was before the step.
    private func stepUndoingCrashes(_ action: Action) throws(EngineCrash) -> StepResult {
        let saved = state
        do throws(EngineCrash) {
            let result = try step(action)
            try checkShownQuestions()
            return result
        } catch {
            state = saved
            throw error
        }
    }

    private func step(_ action: Action) throws(EngineCrash) -> StepResult {
        let wasDeadEnd = isDeadEnd
        let wasStalled = isStalled
        var events: [TraceEvent] = []
        let outcome = try apply(action, events: &events)
        if !wasDeadEnd, isDeadEnd {
            events.append(TraceEvent("dead_end", detail: ["question": .string(survey.questions[activeSlot].id)]))
        }
        if !wasStalled, isStalled, case .answer(let toggled, _) = action {
            events.append(TraceEvent("stalled", detail: ["question": .string(survey.questions[activeSlot].id), "toggled": .string(toggled)]))
        }
        assert(invariantViolation() == nil, "the session's view drifted from its answers: \(invariantViolation() ?? "")")
        return StepResult(outcome, events: events)
    }

    /// The active question, unless Submit shows or the active question is hidden (a stall or the dead end:
    /// the respondent then sees only the questions before it).
    var currentQuestion: String? {
        state.showSubmit || state.skipped[state.active] ? nil : survey.questions[activeSlot].id
    }

    var visibleQuestions: [String] {
        state.visible.flags.indices.filter { state.visible[$0] }.map { survey.questions[$0].id }
    }

    var visibleCount: Int { state.visible.onCount }

    func visibleQuestion(at position: Int) -> String {
        survey.questions[state.visible.indexOfOn(position)].id
    }

    /// Slots are the indices of `questionIDs`.
    func visibleQuestionIndex(at position: Int) -> Int {
        state.visible.indexOfOn(position)
    }

    func visibleEntry(at position: Int) -> (question: String, index: Int) {
        let slot = state.visible.indexOfOn(position)
        return (survey.questions[slot].id, slot)
    }

    var currentVisiblePosition: Int? {
        guard !state.showSubmit, state.visible[activeSlot] else { return nil }
        return state.shownBeforeActive
    }

    var visibleFingerprint: UInt64 { state.visibleSum }

    var viewFingerprint: UInt64 {
        StableHash.view(visible: state.visibleSum, currentPosition: currentVisiblePosition, submittable: isSubmittable)
    }

    var isSubmittable: Bool { state.showSubmit && !state.submitted }

    func answer(for question: String) -> JSONValue? {
        survey.slotByID[question].flatMap(answer(at:))
    }

    func answer(at slot: Int) -> JSONValue? {
        slot < state.answers.count ? state.answers[slot] : nil
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
        if let openingFailure { return openingFailure }
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
            if let refusal = visibilityRefusal(slot) { return .rejected(refusal) }
            return try answer(slot, with: value)
        case .next(let id):
            let slot: Int
            if let id {
                guard let found = survey.slotByID[id] else { return .doesNotFit(noSuchQuestion(id)) }
                if let refusal = visibilityRefusal(found) { return .rejected(refusal) }
                guard hasNextButton(found) else { return .rejected(noNextButton(found)) }
                slot = found
            } else {
                guard let found = nextButtonInActiveSection() else {
                    return .rejected(state.skipped[state.active] ? hiddenActiveQuestion() : noNextButton(activeSlot))
                }
                slot = found
            }
            return try tapNext(slot)
        case .goto(let id):
            guard let slot = survey.slotByID[id] else { return .doesNotFit(noSuchQuestion(id)) }
            if let refusal = visibilityRefusal(slot) { return .rejected(refusal) }
            return .ok
        case .submit:
            guard state.showSubmit else {
                return .rejected("Submit is not shown yet: it appears once the last question is answered or everything after the active question is hidden")
            }
            guard let url = survey.submit.url, SurveyNativeSurvey.isValidURL(url) else {
                throw EngineCrash(reason: "submit.url \(survey.submit.url.map { "\"\($0)\"" } ?? "is missing and") is not a URL; the engine force-unwraps URL(string:) when posting")
            }
            state.submitted = true
            coverage?.recorder.terminal(SurveyNativeCoverageLayout.submitted)
            events.append(TraceEvent("submitted", detail: ["url": .string(url), "method": "POST", "sent": false]))
            return .ok
        case .hostCondition(let key, let outcome):
            guard survey.hostConditionKeys.contains(key) else {
                let known = survey.hostConditionKeys.isEmpty ? "the survey has none" : "the survey has \(survey.hostConditionKeys.joined(separator: ", "))"
                return .doesNotFit("no custom condition has extra.id '\(key)' (\(known))")
            }
            guard state.hostOutcomes[key] ?? false != outcome else { return .ok }
            // The host answers when the engine next evaluates the condition; nothing is re-evaluated now.
            try freezeBeforeHostAnswerChanges(key)
            state.hostOutcomes[key] = outcome
            try refreshSubQuestions(usingHostCondition: key)
            return .ok
        case .back:
            return .doesNotFit("SurveyNative has no Back button: to change an earlier answer, answer that visible question again")
        case .clear:
            return .doesNotFit("SurveyNative cannot clear an answer: answers are only ever overwritten")
        case .add, .remove:
            return .doesNotFit("SurveyNative has no repeating groups")
        case .skip:
            return .doesNotFit("SurveyNative has no Skip button: a question is left by answering it or with its Next button")
        case .app:
            return .doesNotFit("SurveyNative surveys have no app lifecycle: launch, foreground, wait, consent, quit and resume are Owlmetry's")
        }
    }

    private func noSuchQuestion(_ id: String) -> String {
        "the survey has no question '\(id)'\(Spelling.suggestion(for: id, in: survey.questionIDs))"
    }

    /// Why a question cannot be touched now, or nil if it is on screen.
    func visibilityRefusal(_ slot: Int) -> String? {
        let owner = survey.owners[slot]
        if owner <= state.active, !state.skipped[owner], state.subShown[slot] { return nil }
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
        if !state.subShown[slot] {
            return "'\(question.id)' is hidden: its show_if is false"
        }
        return nil
    }

    // MARK: the engine's bookkeeping

    var activeSlot: Int { survey.topLevel[state.active] }

    var isDeadEnd: Bool {
        !state.showSubmit && state.active == survey.topLevel.count - 1 && state.skipped[state.active]
    }

    /// The active question is hidden but not the last: a multi_select option tap hid it, and such a tap does
    /// not run `sectionsToInsert` (SQ:1292-1298), so the survey does not move on until something that does
    /// runs: a Next (`markFinished`, SQ:1404-1425) or another kind of answer change (`update`, SQ:1371-1397;
    /// a single_select option, SQ:1267-1291).
    var isStalled: Bool {
        !state.showSubmit && state.active < survey.topLevel.count - 1 && state.skipped[state.active]
    }

    /// In a stall, the Next rows of the visible questions are what moves the survey on: walks may tap them.
    var otherActions: [Action] {
        guard isStalled else { return [] }
        return visibleWithNextButton(limit: 4).map { .next(question: survey.questions[$0].id) }
    }

    /// The visible questions with a Next button, nearest the active question first, at most `limit`.
    func visibleWithNextButton(limit: Int) -> [Int] {
        var found: [Int] = []
        var slot = survey.sectionEnd[state.active]
        while slot > 0, found.count < limit {
            slot -= 1
            if state.visible[slot], hasNextButton(slot) { found.append(slot) }
        }
        return found
    }

    /// `answerQuestion` then `update`: store, re-evaluate dependents, then `sectionsToInsert`.
    func commit(_ slot: Int, _ value: JSONValue) throws(EngineCrash) {
        store(value, at: slot)
        try reevaluateDependents(of: slot)
        try sectionsToInsert(changed: survey.owners[slot])
    }

    /// A plain multi_select option tap: `toggleAnswer` then `updateSkippedQuestions`, and nothing more
    /// (`selectedRowAt`'s multi_select branch, SQ:1292-1298): no `sectionsToInsert`, so the survey does not
    /// move on, even when the tap hides the active question.
    func toggle(_ slot: Int, _ value: JSONValue) throws(EngineCrash) {
        store(value, at: slot)
        try reevaluateDependents(of: slot)
    }

    /// `markFinished` (SQ:1404-1425): a question without an answer gets the type's empty answer, and only then
    /// are its dependents evaluated again (`updateSkippedQuestions` runs inside `if answer == nil`, SQ:1409-1416);
    /// it is marked finished, and `sectionsToInsert` runs.
    func markFinished(_ slot: Int) throws(EngineCrash) {
        if state.answers[slot] == nil {
            store(survey.questions[slot].kind.emptyAnswer, at: slot)
            try reevaluateDependents(of: slot)
        }
        state.finished[slot] = true
        try sectionsToInsert(changed: survey.owners[slot])
    }

    func store(_ value: JSONValue, at slot: Int) {
        if state.answers[slot] == nil { state.answeredCount += 1 }
        state.answers[slot] = value
        if let coverage { recordAnswer(value, at: slot, coverage.recorder, coverage.layout) }
    }

    /// `updateSkippedQuestions`: the questions whose `show_if` depends on this answer, directly or through
    /// other questions' `show_if`, are evaluated again; sub-questions naming it are evaluated afresh.
    private func reevaluateDependents(of slot: Int) throws(EngineCrash) {
        for sub in survey.subDependents[slot] where sub < state.answers.count {
            setSubShown(sub, try evaluate(sub))
        }
        let direct = survey.directDependents[slot]
        guard !direct.isEmpty else { return }
        // With frozen results or conditions that can crash, follow the whole map as the engine does.
        let everything = survey.hasCrashingConditions || !state.frozen.isEmpty
        var queue = VisitQueue()
        swap(&queue, &dependentsQueue)
        defer { swap(&queue, &dependentsQueue) }
        queue.removeAll()
        for index in direct { queue.insert(index) }
        while let (index, position) = queue.next() {
            let isDirect = position < direct.count
            if index <= state.active {
                if isDirect || !state.evaluated[index] { try setSkipped(index, !evaluate(survey.topLevel[index])) }
            } else if everything {
                state.frozen[index] = nil
                if survey.hasCrashingConditions { _ = try evaluate(survey.topLevel[index]) }
            }
            for next in survey.directDependents[survey.topLevel[index]] where everything || next <= state.active || survey.firstDownstream[next] <= state.active {
                queue.insert(next)
            }
        }
    }

    /// Before a host's answer changes, what the engine recorded for questions beyond the active one is fixed
    /// with the old answer; questions up to it get evaluated again when the engine next reaches them.
    private func freezeBeforeHostAnswerChanges(_ key: String) throws(EngineCrash) {
        for slot in survey.hostDependents[key] ?? [] where !survey.questions[slot].isSubQuestion {
            let index = survey.questions[slot].owner
            if index <= state.active {
                state.evaluated[index] = false
            } else if state.frozen[index] == nil, isReached(index) {
                state.frozen[index] = try !evaluate(slot)
            }
        }
    }

    /// Sub-questions are evaluated afresh, so they follow a host's new answer at once.
    private func refreshSubQuestions(usingHostCondition key: String) throws(EngineCrash) {
        for slot in survey.hostDependents[key] ?? [] where survey.questions[slot].isSubQuestion && slot < state.answers.count {
            setSubShown(slot, try evaluate(slot))
        }
    }

    func evaluate(_ slot: Int) throws(EngineCrash) -> Bool {
        guard let condition = survey.showIf[slot] else { return true }
        evaluationCount += 1
        guard let coverage, let decision = coverage.layout.decisionOfSlot[slot] else {
            return try condition.evaluate(answers: state.answers, host: state.hostOutcomes)
        }
        var leaves: [CoverageRecorder.LeafValue] = []
        let outcome = try condition.trace(answers: state.answers, host: state.hostOutcomes, into: &leaves)
        coverage.recorder.decision(decision, outcome: outcome, leaves: leaves)
        return outcome
    }

    /// What reports each validation the engine runs (where it is, whether it passed) for coverage; nil
    /// without coverage.
    var validationReporter: ((SourceLocation, Bool) -> Void)? {
        guard let coverage else { return nil }
        return { location, passed in
            guard let index = coverage.layout.validationIndex[location.position] else { return }
            coverage.recorder.validation(index, passed: passed)
        }
    }

    /// Whether an answered id is among the ids a question beyond the active one depends on, directly or
    /// through other top-level questions' `show_if`: the engine has then evaluated its condition. A
    /// question found reached is remembered while it stays beyond the active one (`remembering`); one about
    /// to be opened need not be.
    private func isReached(_ index: Int, remembering: Bool = true) -> Bool {
        if !state.reachedBeyond.isEmpty, state.reachedBeyond.contains(index) { return true }
        var queue = VisitQueue()
        swap(&queue, &reachQueue)
        defer { swap(&queue, &reachQueue) }
        queue.removeAll()
        queue.insert(index)
        while let (current, _) = queue.next() {
            for dependency in survey.dependencySlots[survey.topLevel[current]] {
                if answer(at: dependency) != nil {
                    if remembering { state.reachedBeyond.insert(index) }
                    return true
                }
                let owner = survey.owners[dependency]
                if survey.topLevel[owner] == dependency, survey.showIf[dependency] != nil { queue.insert(owner) }
            }
        }
        return false
    }

    /// `sectionsToInsert` (SQ:1334-1356): show Submit when the last question is done; otherwise advance only
    /// if the active question is now hidden or the answer changed in its section and completed it.
    private func sectionsToInsert(changed owner: Int) throws(EngineCrash) {
        let last = survey.topLevel.count - 1
        if state.active == last, !state.showSubmit, isFullyAnswered(last) {
            showSubmitButton()
            return
        }
        if state.skipped[state.active] {
            try advance()
        } else if owner == state.active, isFullyAnswered(state.active) {
            try advance()
        }
    }

    /// One step forward past hidden questions. From the last question nothing happens (the dead end: the
    /// last question active and hidden shows no Submit); running onto a hidden last question shows Submit.
    private func advance() throws(EngineCrash) {
        let last = survey.topLevel.count - 1
        guard state.active < last else { return }
        var next = state.active + 1
        try openSection(next)
        while next < last, state.skipped[next] {
            next += 1
            try openSection(next)
        }
        state.active = next
        state.shownBeforeActive = state.visible.onCount(before: activeSlot)
        if state.skipped[next] { showSubmitButton() }
    }

    private func showSubmitButton() {
        state.showSubmit = true
        coverage?.recorder.terminal(SurveyNativeCoverageLayout.submitShown)
    }

    /// Brings a top-level question (the next beyond the frontier) and its sub-questions into the session,
    /// with what the engine recorded for it.
    private func openSection(_ index: Int) throws(EngineCrash) {
        let slot = survey.topLevel[index]
        var hidden = false
        var evaluated = false
        if !state.frozen.isEmpty, let frozen = state.frozen.removeValue(forKey: index) {
            // Recorded under a host's earlier answer: the next evaluation the engine makes may differ.
            (hidden, evaluated) = (frozen, false)
        } else if survey.showIf[slot] != nil, isReached(index, remembering: false) {
            (hidden, evaluated) = (try !evaluate(slot), true)
        }
        if !state.reachedBeyond.isEmpty { state.reachedBeyond.remove(index) }
        state.skipped.append(hidden)
        state.evaluated.append(evaluated)
        for member in slot..<survey.sectionEnd[index] {
            let shown = member == slot ? true : try evaluate(member)
            state.answers.append(nil)
            state.finished.append(false)
            state.subShown.append(shown)
            state.visible.append(false)
            setVisibleFlag(member, !hidden && shown)
            if hidden || !shown { coverage?.recorder.question(member, shown: false) }
        }
    }

    private func setSkipped(_ index: Int, _ hidden: Bool) {
        state.evaluated[index] = true
        guard state.skipped[index] != hidden else { return }
        state.skipped[index] = hidden
        let slot = survey.topLevel[index]
        for member in slot..<survey.sectionEnd[index] {
            setVisibleFlag(member, !hidden && state.subShown[member])
        }
    }

    private func setSubShown(_ slot: Int, _ shown: Bool) {
        state.subShown[slot] = shown
        setVisibleFlag(slot, shown && !state.skipped[survey.owners[slot]])
    }

    private func setVisibleFlag(_ slot: Int, _ on: Bool) {
        guard state.visible[slot] != on else { return }
        state.visible.set(slot, on)
        coverage?.recorder.question(slot, shown: on)
        let mixed = StableHash.mix(UInt64(slot))
        state.visibleSum = on ? state.visibleSum &+ mixed : state.visibleSum &- mixed
        if slot < activeSlot { state.shownBeforeActive += on ? 1 : -1 }
    }

    /// A top-level question is fully answered when it is complete and so is every shown sub-question.
    func isFullyAnswered(_ index: Int) -> Bool {
        let slot = survey.topLevel[index]
        guard isComplete(slot) else { return false }
        for sub in survey.questions[slot].subQuestions where state.subShown[sub] && !isComplete(sub) { return false }
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
        for slot in state.visible.flags.indices where state.visible[slot] {
            if let crash = survey.questions[slot].crash { throw EngineCrash(reason: crash) }
        }
        if state.showSubmit, survey.submit.buttonTitle == nil {
            throw EngineCrash(reason: "submit has no \"button_title\", which the engine force-unwraps when it shows Submit")
        }
    }

    /// The session's invariant: its incremental view equals one worked out afresh from the answers (the
    /// lazy evaluation included), or why not. Checked after every step in debug builds and at the end of
    /// each walk; it costs one evaluation a question (not counted in `evaluationCount`).
    func invariantViolation() -> String? {
        var sum: UInt64 = 0
        // Taken once: passed from the state to each evaluation, they would be retained and released for each.
        let answers = state.answers, host = state.hostOutcomes
        for index in 0...state.active {
            let slot = survey.topLevel[index]
            if state.evaluated[index], state.frozen.isEmpty, let condition = survey.showIf[slot],
                let holds = try? condition.evaluate(answers: answers, host: host), holds == state.skipped[index]
            {
                return "'\(survey.questions[slot].id)' is \(state.skipped[index] ? "hidden" : "shown") though its show_if now says otherwise"
            }
            for member in slot..<survey.sectionEnd[index] {
                if member != slot, let condition = survey.showIf[member],
                    let shown = try? condition.evaluate(answers: answers, host: host), shown != state.subShown[member]
                {
                    return "the sub-question '\(survey.questions[member].id)' is \(shown ? "hidden" : "shown") though its show_if says otherwise"
                }
                let on = !state.skipped[index] && state.subShown[member]
                if state.visible[member] != on { return "'\(survey.questions[member].id)' is on screen \(on ? "not " : "")though it should\(on ? "" : " not") be" }
                if on { sum &+= StableHash.mix(UInt64(member)) }
            }
        }
        if state.visible.count != state.answers.count { return "the visible index covers \(state.visible.count) slots, not \(state.answers.count)" }
        if state.shownBeforeActive != state.visible.onCount(before: activeSlot) {
            return "\(state.shownBeforeActive) questions are counted on screen before the active one, not \(state.visible.onCount(before: activeSlot))"
        }
        return sum == state.visibleSum ? nil : "the view fingerprint does not match the visible questions"
    }
}

extension SurveyNative.Kind {
    /// What `markFinished` stores for an unanswered question (add_text_field: the empty list its Next sends).
    var emptyAnswer: JSONValue {
        switch self {
        case .multiSelect, .addTextField: .array([])
        case .multiTextField, .dynamicLabelTextField: .object([:])
        default: .string("")
        }
    }
}
