import SurveyCore

@testable import SurveyFormats

/// The R4 session as it was before it became incremental, kept as the reference `FHIRSession` is checked
/// against (`FHIRIncrementalTests`): every change rebuilds the instances from the answers and group counts,
/// kept by id, and evaluates every instance, LHC-Forms' passes over the whole form from each item's previous
/// status, android-fhir's pass over every instance; the page is the list of instances shown, rebuilt too.
///
/// A respondent's session with an R4 Questionnaire as LHC-Forms and android-fhir render it (reference's
/// recommended engine rules): one scrolling form whose enabled items are shown in document order, the focus
/// on one question, answers re-evaluated after every change, Submit always available.
///
/// Answers are kept by instance id whether or not their item is enabled: a disabled item's answers are
/// withheld (its dependants see it unanswered, the response omits it) and come back if it is enabled again,
/// as android-fhir's cache does (§A1, back-navigation). The engines work enablement out differently:
/// LHC-Forms repeats its skip logic over every item until nothing changes, a disabled source counting as
/// unanswered; android-fhir makes one pass in document order after each change, clearing the answers of the
/// items it finds disabled as it goes (docs/fhir.md, "Enablement").
///
/// Where the engine throws (a TypeError in LHC-Forms' skip logic, an exception in android-fhir's
/// evaluation or views), the action that led there is refused and the session stays as it was; when the
/// form throws as it opens, every action is refused.
final class FHIRReferenceSession: SurveySession {
    let survey: FHIRSurvey
    let settings: SessionSettings
    let profile: FHIRProfile
    private let coverage: (recorder: CoverageRecorder, layout: FHIRCoverageLayout)?

    struct State {
        /// The answers of each instance, by id; absent when it has none.
        var answers: [String: [FHIR.Value]] = [:]
        /// Instances that have received their initial values (once, when they first exist).
        var initialized: Set<String> = []
        /// The number of instances of each repeating group, by the id `add` takes (absent: one).
        var groupCounts: [String: Int] = [:]
        /// The question with the focus; nil once the respondent is past the last one.
        var focus: String?
        var submitted = false
        var response: JSONValue?
        /// The instances whose answers android-fhir cleared (and cached) when its last pass found them disabled.
        var withheld: Set<String> = []
        /// What SDC expression evaluation remembers between changes.
        var expressions = FHIRExpressionMemory()
        /// Each instance's enablement after the last evaluation, by id: where LHC-Forms' next passes start.
        var enabledByID: [String: Bool] = [:]
    }

    private(set) var state = State()
    private(set) var tree: FHIRInstanceTree
    /// Each instance's enablement, by position in `tree`.
    private(set) var enablement: [Bool] = []
    /// The positions of the instances on screen: enabled, and neither they nor an ancestor hidden.
    private(set) var visible: [Int] = []
    private var visibleSet: [Bool] = []
    private var fingerprint: UInt64 = 0
    /// Whether the last evaluation of enablement reached a fixpoint.
    private(set) var settled = true
    /// Whether any instance of each item is on screen, for coverage.
    private var itemShown: [Bool]
    /// Why the engine the settings choose refuses to render the file: then nothing is shown and every action
    /// is refused (commands check the settings first and stop with this message).
    private let refusal: String?
    /// What the engine throws in the current state, found while working enablement out (or at submit): the
    /// action that led there is undone.
    private var failure: String?
    /// What the engine throws as the form opens: then every action is refused.
    private(set) var openingFailure: String?
    /// The Questionnaire's SDC expressions, evaluated as the engine does (nil when it has none).
    private let expressions: FHIRExpressions?
    /// The values expressions computed as the form opened.
    private(set) var startEvents: [TraceEvent] = []

    init(survey: FHIRSurvey, settings: SessionSettings, coverage: CoverageRecorder?, refusal: String? = nil) {
        self.survey = survey
        self.settings = settings
        self.refusal = refusal
        self.profile = FHIRProfile.standard(settings)
        self.coverage = coverage.map { ($0, survey.layout()) }
        self.tree = referenceTree(survey, answerCount: { _ in 0 }, groupCount: { _ in 1 })
        self.itemShown = Array(repeating: false, count: survey.items.count)
        self.expressions = FHIRExpressions(survey: survey, settings: settings, coverage: coverage)
        refresh()
        state.expressions.opening = false
        startEvents = computedEvents()
        openingFailure = failure.map { "\(profile.engine.name) throws as the form opens: \($0)" }
        if refusal != nil || openingFailure != nil {
            visible = []
            visibleSet = visibleSet.map { _ in false }
            fingerprint = 0
        }
        state.focus = visibleQuestions(after: -1).first.map { tree.instances[$0].id }
        if let coverage = self.coverage {
            for (item, shown) in itemShown.enumerated() where !shown {
                if let question = coverage.layout.questionOfItem[item] { coverage.recorder.question(question, shown: false) }
            }
        }
    }

    // MARK: SurveySession

    func perform(_ action: Action) -> StepResult {
        if let refusal = refusal ?? openingFailure { return StepResult(.rejected(refusal)) }
        if state.submitted {
            return StepResult(.rejected("the QuestionnaireResponse was submitted; the form is closed"))
        }
        let wasSettled = settled
        let saved = (state, tree, enablement, visible, visibleSet, fingerprint, settled, itemShown)
        let counts = coverage?.recorder.counts
        let outcome = apply(action)
        if let failure {
            (state, tree, enablement, visible, visibleSet, fingerprint, settled, itemShown) = saved
            if let counts { coverage?.recorder.restore(counts) }
            self.failure = nil
            return StepResult(.rejected("\(profile.engine.name) throws here, so this action breaks the form: \(failure)"))
        }
        var events: [TraceEvent] = []
        if action == .submit, outcome == .ok, let response = state.response {
            events.append(TraceEvent("submitted", detail: ["status": response.objectValue?["status"] ?? .null]))
        }
        events += computedEvents()
        if wasSettled, !settled {
            events.append(TraceEvent("enablement_unsettled", detail: ["items": .array(unsettledItems().map(JSONValue.string))]))
        }
        return StepResult(outcome, events: events)
    }

    var currentQuestion: String? { state.submitted ? nil : state.focus }

    var visibleQuestions: [String] { visible.map { tree.instances[$0].id } }

    var isSubmittable: Bool { !state.submitted && refusal == nil && openingFailure == nil }

    func answer(for question: String) -> JSONValue? {
        guard let values = state.answers[question], let position = survey.definition(of: question) else { return nil }
        return survey.items[position].repeats ? .array(values.map(\.json)) : values.first?.json
    }

    var payload: JSONValue? { state.response }

    var visibleCount: Int { visible.count }

    func visibleQuestion(at position: Int) -> String { tree.instances[visible[position]].id }

    /// The item the visible instance is of: its index in `questionIDs`.
    func visibleQuestionIndex(at position: Int) -> Int { tree.instances[visible[position]].item }

    var currentVisiblePosition: Int? {
        guard !state.submitted, let focus = state.focus, let position = tree.indexByID[focus] else { return nil }
        return visiblePosition(of: position)
    }

    var visibleFingerprint: UInt64 { fingerprint }

    /// Adding and removing group instances, going back, and clearing an answered question.
    var otherActions: [Action] {
        guard !state.submitted else { return [] }
        var actions: [Action] = []
        if state.focus.map({ focus in tree.indexByID[focus].map { visibleQuestions(before: $0).last != nil } ?? false }) ?? !visible.isEmpty {
            actions.append(.back)
        }
        for position in visible {
            let instance = tree.instances[position]
            let item = survey.items[instance.item]
            if let base = instance.groupBase {
                let count = state.groupCounts[base] ?? 1
                if instance.id == "\(base)#\(count)", count < item.maxOccurs ?? Int.max { actions.append(.add(group: base)) }
                if count > max(1, item.minOccurs ?? 1) { actions.append(.remove(instance: instance.id)) }
            } else if state.answers[instance.id] != nil, answeringRefusal(position) == nil {
                actions.append(.clear(question: instance.id))
            }
        }
        return actions
    }

    /// `computed {id: answer}`: the answers SDC expressions changed since the last report, as stored (null:
    /// none), so a trace shows computed values as they change; coverage counts them answered.
    private func computedEvents() -> [TraceEvent] {
        guard !state.expressions.computed.isEmpty else { return [] }
        defer { state.expressions.computed = [] }
        var detail: [String: JSONValue] = [:]
        for id in state.expressions.computed {
            detail[id] = answer(for: id) ?? .null
            if let values = state.answers[id], let position = tree.indexByID[id] { recordAnswer(values, item: tree.instances[position].item) }
        }
        return [TraceEvent("computed", detail: .object(detail))]
    }

    // MARK: actions

    private func apply(_ action: Action) -> Outcome {
        switch action {
        case .answer(let id, let json):
            let position: Int
            switch locate(id) {
            case .success(let found): position = found
            case .failure(let outcome): return outcome.value
            }
            if let refusal = answeringRefusal(position) { return .rejected(refusal) }
            let item = tree.instances[position].item
            let values: [FHIR.Value]
            switch survey.interpret(json, forItem: item, options: state.expressions.options[id]) {
            case .success(let interpreted): values = interpreted
            case .failure(let problem): return .rejected(problem.message)
            }
            if let problem = survey.limitProblem(values, forItem: item) { return problem }
            change(focusTo: id) { store(values, at: position) }
            return .ok
        case .clear(let id):
            let position: Int
            switch locate(id) {
            case .success(let found): position = found
            case .failure(let outcome): return outcome.value
            }
            if let refusal = answeringRefusal(position) { return .rejected(refusal) }
            change(focusTo: id) { store([], at: position) }
            return .ok
        case .next(let id):
            let from: Int
            if let id {
                switch locate(id) {
                case .success(let found): from = found
                case .failure(let outcome): return outcome.value
                }
                if let refusal = focusRefusal(from) { return .rejected(refusal) }
            } else {
                guard let focus = state.focus, let found = tree.indexByID[focus] else {
                    return .rejected("no question has the focus: the respondent is past the last question, and Submit is next")
                }
                from = found
            }
            state.focus = visibleQuestions(after: from).first.map { tree.instances[$0].id }
            return .ok
        case .back:
            let previous: Int?
            if let focus = state.focus, let position = tree.indexByID[focus] {
                previous = visibleQuestions(before: position).last
                guard previous != nil else { return .rejected("'\(focus)' is the first question: there is nothing to go back to") }
            } else {
                previous = visibleQuestions(before: tree.instances.count).last
                guard previous != nil else { return .rejected("no question is shown: there is nothing to go back to") }
            }
            state.focus = previous.map { tree.instances[$0].id }
            return .ok
        case .goto(let id):
            switch locate(id) {
            case .success(let position):
                if let refusal = focusRefusal(position) { return .rejected(refusal) }
                state.focus = id
                return .ok
            case .failure(let outcome): return outcome.value
            }
        case .submit:
            if case .failure(let submitFailure) = submitEnablement() {
                failure = submitFailure.reason
                return .ok
            }
            let response = profile.response.response(of: responseInput)
            state.response = response
            state.submitted = true
            if let coverage {
                let completed = response.objectValue?["status"]?.stringValue == "completed"
                coverage.recorder.terminal(completed ? FHIRCoverageLayout.submittedCompleted : FHIRCoverageLayout.submittedInProgress)
            }
            return .ok
        case .add(let base):
            return addInstance(base)
        case .remove(let id):
            return removeInstance(id)
        case .hostCondition:
            return .doesNotFit("a FHIR Questionnaire has no conditions decided by the host app (custom); its enableWhen read answers only")
        case .skip:
            return .doesNotFit("the FHIR engines have no Skip button: leave a question unanswered and tap next")
        case .app:
            return .doesNotFit("FHIR Questionnaires have no app lifecycle: launch, foreground, wait, consent, quit and resume are Owlmetry's")
        }
    }

    /// An outcome carried as an error, so lookups can return either.
    struct Refusal: Error {
        let value: Outcome
    }

    /// The position of the instance an id names, or why the action cannot name it.
    private func locate(_ id: String) -> Result<Int, Refusal> {
        if let position = tree.indexByID[id] { return .success(position) }
        guard let item = survey.definition(of: id) else {
            return .failure(Refusal(value: .doesNotFit("the Questionnaire has no item '\(id)'\(Spelling.suggestion(for: id, in: survey.questionIDs))")))
        }
        let linkId = survey.items[item].linkId
        if let first = tree.instancesOfItem[item].first, id == linkId {
            return .failure(Refusal(value: .doesNotFit("'\(id)' is inside a repeating item: name an instance, such as '\(tree.instances[first].id)'")))
        }
        let existing = tree.instancesOfItem[item].prefix(4).map { "'\(tree.instances[$0].id)'" }
        let parent = survey.items[item].parent.map { survey.items[$0] }
        let none = parent.map { $0.type.takesAnswers ? "the items under '\($0.linkId)' exist once it is answered, one set per answer" : "none exists now" } ?? "none exists now"
        let known = existing.isEmpty ? none : "there are \(existing.joined(separator: ", "))\(tree.instancesOfItem[item].count > 4 ? ", …" : "")"
        return .failure(Refusal(value: .rejected("there is no instance '\(id)' of '\(linkId)' now: \(known)")))
    }

    /// Why the instance is not on screen, or nil.
    private func visibilityRefusal(_ position: Int) -> String? {
        let instance = tree.instances[position]
        if !enablement[position] {
            if let parent = instance.parent, !enablement[parent] {
                var top = parent
                while let above = tree.instances[top].parent, !enablement[above] { top = above }
                return "'\(instance.id)' is disabled with '\(tree.instances[top].id)', whose enableWhen is false (a disabled item disables all its descendants)"
            }
            return "'\(instance.id)' is disabled: its enableWhen is false"
        }
        if !visibleSet[position] {
            return "'\(instance.id)' is hidden (questionnaire-hidden): the respondent cannot see it"
        }
        return nil
    }

    /// Why the respondent cannot answer or clear the instance, or nil.
    private func answeringRefusal(_ position: Int) -> String? {
        if let refusal = visibilityRefusal(position) { return refusal }
        let instance = tree.instances[position]
        let item = survey.items[instance.item]
        if !item.type.takesAnswers { return "'\(instance.id)' is \(item.type.withArticle) item, which takes no answers" }
        if item.readOnly { return "'\(instance.id)' is read-only" }
        return nil
    }

    private func focusRefusal(_ position: Int) -> String? {
        if let refusal = visibilityRefusal(position) { return refusal }
        let instance = tree.instances[position]
        let item = survey.items[instance.item]
        return item.type.takesAnswers ? nil : "the focus moves between questions; '\(instance.id)' is \(item.type.withArticle) item"
    }

    private func addInstance(_ base: String) -> Outcome {
        let first = "\(base)#1"
        guard let position = tree.indexByID[first] else {
            if let item = survey.definition(of: base), survey.items[item].isRepeatingGroup {
                return .rejected("the repeating group '\(base)' does not exist now")
            }
            let groups = survey.items.filter(\.isRepeatingGroup).map(\.linkId)
            return .doesNotFit("'\(base)' is not a repeating group\(groups.isEmpty ? "; the Questionnaire has none" : "; add takes one of \(groups.joined(separator: ", "))")")
        }
        if let refusal = visibilityRefusal(position) { return .rejected(refusal) }
        let item = survey.items[tree.instances[position].item]
        let count = state.groupCounts[base] ?? 1
        if let maxOccurs = item.maxOccurs, count >= maxOccurs {
            return .rejected("'\(base)' has \(count) instances, its maximum (questionnaire-maxOccurs)")
        }
        let added = "\(base)#\(count + 1)"
        change(focusTo: nil) { state.groupCounts[base] = count + 1 }
        if let start = tree.indexByID[added] {
            // The focus goes to the new instance's first question, as a renderer scrolls to it.
            let inside = visibleQuestions(after: start).first { $0 < tree.instances[start].end }
            if let inside { state.focus = tree.instances[inside].id }
        }
        return .ok
    }

    private func removeInstance(_ id: String) -> Outcome {
        let position: Int
        switch locate(id) {
        case .success(let found): position = found
        case .failure(let outcome): return outcome.value
        }
        guard let base = tree.instances[position].groupBase, let number = Int(id.dropFirst(base.count + 1)) else {
            return .doesNotFit("'\(id)' is not an instance of a repeating group; remove takes GROUP#N")
        }
        if let refusal = visibilityRefusal(position) { return .rejected(refusal) }
        let item = survey.items[tree.instances[position].item]
        let count = state.groupCounts[base] ?? 1
        let minimum = max(1, item.minOccurs ?? 1)
        if count <= minimum {
            return .rejected("'\(base)' keeps at least \(minimum) instance\(minimum == 1 ? "" : "s")\(minimum > 1 ? " (questionnaire-minOccurs)" : ""): '\(id)' cannot be removed")
        }
        let rename = renumbering(base, old: count) { $0 == number ? nil : ($0 > number ? $0 - 1 : $0) }
        change(focusTo: nil, rename: rename) {
            state.groupCounts[base] = count - 1
        }
        return .ok
    }

    // MARK: changes

    /// Makes a change to the answers or the instances, then brings everything derived up to date. The focus
    /// goes to `focusTo` if given; a focus that is no longer on screen moves to the next question shown
    /// after it, or past the end.
    private func change(focusTo: String?, rename: ((String) -> String?)? = nil, _ body: () -> Void) {
        let oldOrder = tree.instances.map(\.id)
        let oldFocus = state.focus.flatMap { tree.indexByID[$0] }
        if let rename { apply(rename) }
        body()
        refresh()
        if let focusTo, let position = tree.indexByID[focusTo], focusRefusal(position) == nil {
            state.focus = focusTo
            return
        }
        if let focus = state.focus, let position = tree.indexByID[focus], focusRefusal(position) == nil { return }
        guard let oldFocus else { return }
        state.focus = nil
        for old in oldOrder[(oldFocus + 1)...] {
            if let id = rename.map({ $0(old) }) ?? old, let position = tree.indexByID[id], focusRefusal(position) == nil {
                state.focus = id
                return
            }
        }
    }

    /// Stores an instance's answers. The items under a repeating question follow their answer when the list
    /// changes (matched by value), so each answer keeps its own nested answers.
    private func store(_ values: [FHIR.Value], at position: Int) {
        let instance = tree.instances[position]
        let item = survey.items[instance.item]
        let old = state.answers[instance.id] ?? []
        if item.repeats, !item.children.isEmpty, old != values {
            var mapping: [Int: Int] = [:]
            var used: Set<Int> = []
            for (index, value) in old.enumerated() {
                if let target = values.indices.first(where: { values[$0] == value && !used.contains($0) }) {
                    mapping[index + 1] = target + 1
                    used.insert(target)
                }
            }
            apply(renumbering(instance.id, old: old.count) { mapping[$0] })
        }
        state.answers[instance.id] = values.isEmpty ? nil : values
        recordAnswer(values, item: instance.item)
    }

    /// Reports an answer stored (by the respondent or as an initial value), for coverage.
    private func recordAnswer(_ values: [FHIR.Value], item: Int) {
        guard let coverage, !values.isEmpty else { return }
        if let question = coverage.layout.questionOfItem[item] { coverage.recorder.answered(question) }
        let first = coverage.layout.firstChoice[item]
        for value in values {
            if let option = survey.items[item].options.firstIndex(where: { $0.value == value }) { coverage.recorder.choice(first + option) }
        }
    }

    /// A renaming of the ids under `base#N` (N in 1...old) to `base#f(N)`, dropping those where f is nil.
    private func renumbering(_ base: String, old: Int, _ number: @escaping (Int) -> Int?) -> (String) -> String? {
        let marker = base + "#"
        return { id in
            guard id.hasPrefix(marker) else { return id }
            let rest = id.dropFirst(marker.count)
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            guard let current = Int(digits), current >= 1, current <= old else { return id }
            let tail = rest.dropFirst(digits.count)
            guard tail.isEmpty || tail.first == "/" else { return id }
            return number(current).map { "\(marker)\($0)\(tail)" }
        }
    }

    private func apply(_ rename: (String) -> String?) {
        var answers: [String: [FHIR.Value]] = [:]
        for (id, values) in state.answers { if let new = rename(id) { answers[new] = values } }
        var counts: [String: Int] = [:]
        for (id, count) in state.groupCounts { if let new = rename(id) { counts[new] = count } }
        state.answers = answers
        state.groupCounts = counts
        state.initialized = Set(state.initialized.compactMap(rename))
        state.withheld = Set(state.withheld.compactMap(rename))
        var enabled: [String: Bool] = [:]
        for (id, value) in state.enabledByID { if let new = rename(id) { enabled[new] = value } }
        state.enabledByID = enabled
        state.expressions.rename(rename)
        state.focus = state.focus.flatMap(rename)
    }

    // MARK: deriving the view

    /// Rebuilds the instances (giving new ones their initial values), enablement and the visible list.
    private func refresh() {
        buildInstances()
        failure = nil
        settled = evaluateEnablementAndExpressions()
        var shown = [Bool](repeating: false, count: tree.instances.count)
        var list: [Int] = []
        var hash: UInt64 = 0
        var itemNowShown = [Bool](repeating: false, count: survey.items.count)
        for (position, instance) in tree.instances.enumerated() {
            let on = enablement[position] && !survey.items[instance.item].hidden && instance.parent.map { shown[$0] } != false
            shown[position] = on
            if on {
                list.append(position)
                hash &+= StableHash.mix(StableHash.of([instance.id]))
                itemNowShown[instance.item] = true
                if failure == nil, case .androidThrowsWhenShown(let why)? = survey.items[instance.item].rendering {
                    failure = "NotImplementedError: android-fhir has no view for '\(instance.id)' (\(why)), so showing it throws (google/android-fhir@28a50345 datacapture/src/main/java/com/google/android/fhir/datacapture/QuestionnaireLists.kt:249-279)"
                }
            }
        }
        visible = list
        visibleSet = shown
        fingerprint = hash
        if let coverage {
            for (item, on) in itemNowShown.enumerated() where on != itemShown[item] {
                if let question = coverage.layout.questionOfItem[item] { coverage.recorder.question(question, shown: on) }
            }
            recordDecisions(coverage.recorder, coverage.layout)
        }
        itemShown = itemNowShown
    }

    /// The instances, giving new ones their initial values.
    private func buildInstances() {
        // Initial values of a question can create the items under it, which can have initial values in turn:
        // at most one round per level of nesting.
        for _ in 0...survey.items.count {
            tree = referenceTree(survey, answerCount: { [state] in state.answers[$0]?.count ?? 0 }, groupCount: { [state] in state.groupCounts[$0] ?? 1 })
            var grew = false
            for instance in tree.instances where !state.initialized.contains(instance.id) {
                state.initialized.insert(instance.id)
                let values = survey.initialValues(instance.item)
                if !values.isEmpty, state.answers[instance.id] == nil {
                    state.answers[instance.id] = values
                    recordAnswer(values, item: instance.item)
                    grew = grew || !survey.items[instance.item].children.isEmpty
                }
            }
            if !grew { break }
        }
    }

    /// Enablement and, with SDC expressions, the values and enablement they compute, as the engine works them
    /// out (`FHIRExpressions`): android-fhir evaluates its expressions once per change, then makes its pass;
    /// LHC-Forms alternates its skip logic and its expression run until neither changes anything. Whether a
    /// fixpoint was reached.
    private func evaluateEnablementAndExpressions() -> Bool {
        guard let expressions else { return profile.engine == .lhcForms ? evaluateEnablement() : evaluateAndroidPass() }
        func run() -> FHIRExpressionPass {
            // The pass reads and writes answers by position in the tree.
            var memory = state.expressions
            var answers = tree.instances.map { state.answers[$0.id] ?? [] }
            let pass = expressions.run(&memory, tree: tree, enablement: enablement, answers: &answers, withheld: tree.instances.map { state.withheld.contains($0.id) }, sameInstances: false)
            state.expressions = memory
            for (instance, values) in zip(tree.instances, answers) { state.answers[instance.id] = values.isEmpty ? nil : values }
            return pass
        }
        if profile.engine == .androidFHIR {
            let pass = run()
            if pass.answersChanged { buildInstances() }
            let settled = evaluateAndroidPass()
            if let reason = pass.failure { failure = reason }
            return settled
        }
        for _ in 0..<(survey.expressionProgram.nodes.count + survey.conditionalCount + 2) {
            let settled = evaluateEnablement()
            guard failure == nil else { return true }
            let pass = run()
            if let reason = pass.failure {
                failure = reason
                return true
            }
            guard pass.answersChanged || pass.enablementChanged else { return settled }
            if pass.answersChanged { buildInstances() }
        }
        return false
    }

    /// LHC-Forms: enablement of every instance, in document order, repeated until nothing changes (its
    /// `_checkFormControls` loop, lhc-form-data.ts:687-706; §A1 "iterate until a fixpoint with a maximum
    /// iteration count"): forward references settle, and a disabled source counts as unanswered. A pass
    /// that changes nothing proves the fixpoint; whether one was reached is returned. A condition that
    /// throws stops the work (`failure`).
    private func evaluateEnablement() -> Bool {
        enablement = tree.instances.map { state.enabledByID[$0.id] ?? true }
        for _ in 0..<(survey.conditionalCount + 2) {
            var changed = false
            for position in enablement.indices {
                let value: Bool
                switch decide(position) {
                case .failure(let reason):
                    failure = reason
                    keepEnablement()
                    return true
                case .truth(let truth): value = truth
                }
                if value != enablement[position] {
                    enablement[position] = value
                    changed = true
                }
            }
            if !changed {
                keepEnablement()
                return true
            }
        }
        keepEnablement()
        return false
    }

    /// Remembers each instance's enablement by id, where the next evaluation starts.
    private func keepEnablement() {
        state.enabledByID = [:]
        for (position, instance) in tree.instances.enumerated() { state.enabledByID[instance.id] = enablement[position] }
    }

    /// android-fhir: one pass in document order after each change (`getQuestionnaireAdapterItems`,
    /// QuestionnaireViewModel.kt:878-896). A hidden item is passed over unevaluated with what is under it; a
    /// disabled one has its answers cleared (cached, `cacheDisabledQuestionnaireItemAnswers`, :1076-1087) and
    /// what is under it is not visited, so those keep their answers; an enabled one gets its cached answers
    /// back (:1089-1096). A condition reads the answers as they are at that moment of the pass: one placed
    /// before its source sees the source's answers from before the pass until the next change.
    private func evaluateAndroidPass() -> Bool {
        enablement = Array(repeating: true, count: tree.instances.count)
        var visited = [Bool](repeating: false, count: tree.instances.count)
        for (position, instance) in tree.instances.enumerated() {
            if let parent = instance.parent, !visited[parent] || !enablement[parent] {
                // Under a disabled item: disabled with it; under a hidden one: not evaluated, hidden with it.
                enablement[position] = enablement[parent]
                continue
            }
            guard !survey.items[instance.item].hidden else { continue }
            visited[position] = true
            switch decide(position) {
            case .failure(let reason):
                failure = reason
                return true
            case .truth(let value):
                enablement[position] = value
                if value {
                    state.withheld.remove(instance.id)
                } else if state.answers[instance.id] != nil {
                    state.withheld.insert(instance.id)
                }
            }
        }
        return true
    }

    /// An instance's enablement from its ancestors and its own conditions, as the engine evaluates them.
    private func decide(_ position: Int) -> FHIRConditionValue {
        let instance = tree.instances[position]
        if let parent = instance.parent, !enablement[parent] { return .truth(false) }
        let item = survey.items[instance.item]
        if let expressions, let enabled = expressions.enables(instance.id, of: item, state.expressions) { return .truth(enabled) }
        guard !item.enableWhen.isEmpty else { return .truth(true) }
        return profile.combine(item) { evaluate(item.enableWhen[$0], for: position).value }
    }

    /// One condition of the instance at `position`, and whether its source had answers. A condition naming
    /// no item reads no answer (android-fhir finds no response item for it; LHC-Forms refuses such a file).
    private func evaluate(_ condition: FHIR.EnableWhen, for position: Int) -> (value: FHIRConditionValue, answered: Bool) {
        var answers: [FHIR.Value] = []
        var sourceItem: FHIR.Item?
        if let items = survey.itemsByLinkId[condition.question], let source = tree.source(items, for: position, engine: profile.engine) {
            answers = seenAnswers(source)
            sourceItem = survey.items[tree.instances[source].item]
        }
        return (profile.evaluate(condition, source: sourceItem, answers: answers), !answers.isEmpty)
    }

    /// The answers the engine sees at a source instance; nil when they are unknown (an SDC expression
    /// decides them). LHC-Forms counts a disabled item as unanswered (`hasAnswer`, lhc-form-data.ts:3872-3873);
    /// android-fhir reads the response item, whose answers are gone once a pass cleared them.
    private func seenAnswers(_ source: Int) -> [FHIR.Value] {
        let instance = tree.instances[source]
        switch profile.engine {
        case .lhcForms: return enablement[source] ? state.answers[instance.id] ?? [] : []
        case .androidFHIR: return state.withheld.contains(instance.id) ? [] : state.answers[instance.id] ?? []
        }
    }

    private func recordDecisions(_ recorder: CoverageRecorder, _ layout: FHIRCoverageLayout) {
        for (position, instance) in tree.instances.enumerated() {
            if let decision = layout.expressionDecisionOfItem[instance.item], instance.parent.map({ enablement[$0] }) != false,
                let outcome = state.expressions.enabled[instance.id]
            {
                recorder.decision(decision, outcome: outcome, leaves: [outcome ? .true : .false])
            }
            guard let decision = layout.decisionOfItem[instance.item], instance.parent.map({ enablement[$0] }) != false,
                case .truth(let outcome) = decide(position)
            else { continue }
            let leaves = survey.items[instance.item].enableWhen.map { condition -> CoverageRecorder.LeafValue in
                let (value, answered) = evaluate(condition, for: position)
                switch value {
                case .truth(true): return answered || condition.op == .exists ? .true : .unansweredTrue
                case .truth(false): return answered || condition.op == .exists ? .false : .unansweredFalse
                case .failure: return .skipped
                }
            }
            recorder.decision(decision, outcome: outcome, leaves: leaves)
        }
    }

    /// The items whose enablement still changes after the bound on passes.
    private func unsettledItems() -> [String] {
        enablement.indices.filter { decide($0) != .truth(enablement[$0]) }.map { tree.instances[$0].id }
    }

    // MARK: positions

    private func visiblePosition(of position: Int) -> Int? {
        var low = 0
        var high = visible.count
        while low < high {
            let middle = (low + high) / 2
            if visible[middle] < position { low = middle + 1 } else { high = middle }
        }
        return low < visible.count && visible[low] == position ? low : nil
    }

    /// The visible questions after a position, in order.
    private func visibleQuestions(after position: Int) -> LazyFilterSequence<[Int]> {
        visible.lazy.filter { $0 > position && self.survey.items[self.tree.instances[$0].item].type.takesAnswers }
    }

    private func visibleQuestions(before position: Int) -> [Int] {
        visible.filter { $0 < position && survey.items[tree.instances[$0].item].type.takesAnswers }
    }

    // MARK: what the response and checks read

    /// What the response is written from: the instances, their enablement and the answers that count.
    var responseInput: FHIRResponseInput {
        switch profile.engine {
        case .lhcForms:
            return FHIRResponseInput(survey: survey, tree: tree, enablement: enablement, answers: state.answers, today: settings.today)
        case .androidFHIR:
            return FHIRResponseInput(
                survey: survey, tree: tree, enablement: (try? submitEnablement().get()) ?? enablement,
                answers: state.answers.filter { !state.withheld.contains($0.key) }, today: settings.today)
        }
    }

    struct SubmitFailure: Error {
        let reason: String
    }

    /// android-fhir evaluates enablement once more from the top as it submits (`getEnabledResponseItems`,
    /// QuestionnaireViewModel.kt:1098-1124), hidden items included, over the answers it has not cleared; what
    /// a condition throws then fails the submit. LHC-Forms writes what it shows.
    private func submitEnablement() -> Result<[Bool], SubmitFailure> {
        guard profile.engine == .androidFHIR else { return .success(enablement) }
        let saved = enablement
        defer { enablement = saved }
        for position in enablement.indices {
            switch decide(position) {
            case .truth(let value): enablement[position] = value
            case .failure(let reason): return .failure(SubmitFailure(reason: "\(reason), as it submits"))
            }
        }
        return .success(enablement)
    }

    /// The session's invariant, for walks: what is shown is enabled, and under LHC-Forms enablement worked out
    /// afresh is the session's (android-fhir's single pass is not a fixpoint, so a fresh pass may differ).
    func invariantViolation() -> String? {
        guard refusal == nil, openingFailure == nil else { return nil }
        for position in visible where !enablement[position] {
            return "'\(tree.instances[position].id)' is shown though it is not enabled"
        }
        guard profile.engine == .lhcForms else { return nil }
        let saved = (enablement, failure)
        let fresh = evaluateEnablement()
        defer { (enablement, failure) = saved }
        if fresh != settled { return "the fixpoint of enablement is reached in one evaluation and not in another" }
        if let position = enablement.indices.first(where: { enablement[$0] != saved.0[$0] }) {
            return "'\(tree.instances[position].id)' is \(saved.0[position] ? "enabled" : "not enabled") though its conditions now say otherwise"
        }
        return nil
    }
}

extension FHIRReferenceSession {
    /// Whether a condition holds now, read from the first instance of its source (for properties files); a
    /// condition the engine throws on does not hold.
    func holds(_ condition: FHIR.EnableWhen) -> Bool {
        let item = survey.itemByLinkId[condition.question]
        let source = item.flatMap { tree.instancesOfItem[$0].first }
        let answers = source.map(seenAnswers) ?? []
        return profile.evaluate(condition, source: item.map { survey.items[$0] }, answers: answers) == .truth(true)
    }
}

/// The instances as the reference rebuilds them after every change: from the top, one instance a item, one
/// per instance of a repeating group, the items nested under a question once per answer it has.
func referenceTree(_ survey: FHIRSurvey, answerCount: (String) -> Int, groupCount: (String) -> Int) -> FHIRInstanceTree {
    var instances: [FHIRInstanceTree.Instance] = []
    func add(_ children: [Int], prefix: String, parent: Int?, answerIndex: Int?) {
        for child in children {
            let item = survey.items[child]
            if item.isRepeatingGroup {
                let base = prefix + item.id
                for number in 1...max(1, groupCount(base)) {
                    let position = append(child, id: "\(base)#\(number)", parent: parent, answerIndex: answerIndex, groupBase: base)
                    add(item.children, prefix: "\(base)#\(number)/", parent: position, answerIndex: nil)
                    instances[position].end = instances.count
                }
                continue
            }
            let id = prefix + item.id
            let position = append(child, id: id, parent: parent, answerIndex: answerIndex, groupBase: nil)
            if !item.children.isEmpty {
                if item.type.takesAnswers {
                    let count = answerCount(id)
                    if item.repeats {
                        for number in 0..<count { add(item.children, prefix: "\(id)#\(number + 1)/", parent: position, answerIndex: number) }
                    } else if count > 0 {
                        add(item.children, prefix: prefix, parent: position, answerIndex: 0)
                    }
                } else {
                    add(item.children, prefix: prefix, parent: position, answerIndex: nil)
                }
            }
            instances[position].end = instances.count
        }
    }
    func append(_ item: Int, id: String, parent: Int?, answerIndex: Int?, groupBase: String?) -> Int {
        instances.append(FHIRInstanceTree.Instance(item: item, id: id, parent: parent, answerIndex: answerIndex, groupBase: groupBase, end: instances.count + 1))
        return instances.count - 1
    }
    add(survey.topLevel, prefix: "", parent: nil, answerIndex: nil)
    return FHIRInstanceTree(survey: survey, instances: instances)
}
