import SurveyCore

/// An app with the Owlmetry Swift SDK showing one questionnaire: the process and the gate that presents the
/// sheet (`OwlmetryGate.swift`), and here the sheet itself, `OwlQuestionnaireFlowContainer`: the consent
/// detent, one question per page with Back, Next and Submit, a draft save of the collected answers on every
/// Next, Cancel, and the success page. Every request the device sends is an event with the server's answer,
/// so goldens show exactly what is sent and what the respondent is told.
final class OwlmetrySession: SurveySession {
    enum Screen: Equatable {
        /// No sheet: the app is not launched, or the questionnaire is not presented.
        case closed
        case consent
        case page(Int)
        /// The success page after a submission.
        case thanks
    }

    let survey: OwlmetrySurvey
    let host: OwlmetryHost
    let coverage: (recorder: CoverageRecorder, layout: OwlmetryCoverageLayout)?
    var clock: ScenarioClock
    private(set) var screen = Screen.closed
    var isRunning = false
    /// `OwlQuestionnaireState`: persistent across launches.
    var launches = 0
    var foregrounds = 0
    var firstLaunch: Int?
    /// `Owl.questionnaireWasShownThisProcess`: set when the gate presents it, cleared by a launch.
    var shownThisProcess = false
    /// How many times the gate presented the sheet since the last launch (at most once without `forceShow`).
    var gatePresentationsThisProcess = 0
    /// The user id the SDK puts on every questionnaire call.
    var userID: String?
    /// The changes `…AfterFetch` options make on the server, applied once when a fetch first presents it.
    var changesAfterFetchPending = true
    var isOffline: Bool
    /// What the sheet's controls hold (`OwlQuestionnaireAnswerStore`): text as typed, choices sorted.
    var store: [String: JSONValue] = [:]
    var server: OwlmetryServer
    /// The row of the completed submission (for the payload).
    private(set) var submittedRow: Int?
    /// How many calls answered `was_submitted: true` (must never exceed one).
    private(set) var submissions = 0

    init(survey: OwlmetrySurvey, settings: SessionSettings, coverage: CoverageRecorder?) {
        self.survey = survey
        let host = OwlmetryHost(settings)
        self.host = host
        self.coverage = coverage.map { ($0, survey.layout()) }
        self.clock = ScenarioClock(today: settings.today)
        self.userID = host.initialUserID
        self.isOffline = host.isOffline
        var server = OwlmetryServer(validator: survey.validator, schema: survey.schema)
        server.isActive = host.isActive
        if host.identity == .identified || host.identity == .loggedOut {
            _ = server.claim(anonymousID: OwlmetryHost.anonymousID, userID: OwlmetryHost.accountID)
        }
        switch host.server {
        case .responded: server.markResponded(userID: host.respondentID, at: clock.timestamp())
        case .dismissed: _ = server.dismiss(userID: host.respondentID)
        case .fresh, .respondedAfterFetch, .dismissedAfterFetch: break
        }
        self.server = server
    }

    // MARK: what the respondent sees

    var page: Int? {
        if case .page(let index) = screen { return index }
        return nil
    }

    var isSheetShown: Bool { screen != .closed }

    var currentQuestion: String? { page.map { survey.questions[$0].id } }

    /// One question per page: the page's question, nothing else.
    var visibleQuestions: [String] { currentQuestion.map { [$0] } ?? [] }

    // The cheap views walks read at every step, from the page alone.

    var visibleCount: Int { page == nil ? 0 : 1 }

    func visibleQuestion(at position: Int) -> String { survey.questions[page ?? 0].id }

    func visibleQuestionIndex(at position: Int) -> Int { page ?? 0 }

    var currentVisiblePosition: Int? { page == nil ? nil : 0 }

    /// The page shown (question ids are unique, so the page tells the list).
    var visibleFingerprint: UInt64 { StableHash.mix(0x0471_5EED ^ UInt64(page.map { $0 + 1 } ?? 0)) }

    /// The last page with every required question answered: Submit is enabled and passes `hasAllRequired`.
    var isSubmittable: Bool {
        guard let page, page == survey.questions.count - 1 else { return false }
        return missingRequired == nil
    }

    /// Over once submitted, or once nothing can lead to a submission: the server will refuse any
    /// completion from this user (inactive, dismissed, already responded), or the device is offline for good.
    var hasEnded: Bool {
        submittedRow != nil || isOffline || !server.acceptsCompletion(from: userID)
    }

    func answer(for question: String) -> JSONValue? { store[question] }

    /// The final merged answer map and the schema snapshot, once submitted.
    var payload: JSONValue? {
        guard let submittedRow else { return nil }
        let row = server.rows[submittedRow]
        return ["answers": .object(row.answers), "schema_snapshot": row.schemaSnapshot ?? .null]
    }

    var otherActions: [Action] {
        var actions: [Action] = []
        switch screen {
        case .consent: actions += AppEvent.Consent.allCases.map { .app(.consent($0)) }
        case .page(let index):
            if index > 0 { actions.append(.back) }
            actions.append(.app(.quit))
        case .closed:
            if isRunning { actions += [.app(.resume), .app(.foreground), .app(.wait(seconds: 3600)), .app(.wait(seconds: 86_400))] }
        case .thanks: break
        }
        actions.append(.app(.launch))
        return actions
    }

    /// `isAnswered` of the answer store: a text must not be empty once trimmed, a multiple choice must have
    /// an option; a single choice, rating and score are answered once picked.
    func isAnswered(_ question: Owlmetry.Question) -> Bool {
        switch store[question.id] {
        case nil, .null?: false
        case .string(let text)? where question.type == .text: !Owlmetry.sdkTrimsAway(text)
        case .array(let elements)?: !elements.isEmpty
        default: true
        }
    }

    /// The first required question of the schema without an answer (`hasAllRequired`).
    private var missingRequired: String? {
        survey.questions.first { $0.isRequired && !isAnswered($0) }?.id
    }

    /// `collected`: what a save sends. Text trimmed, blank text and empty selections left out.
    var collected: [String: JSONValue] {
        var answers: [String: JSONValue] = [:]
        for question in survey.questions where isAnswered(question) {
            guard let value = store[question.id] else { continue }
            answers[question.id] = value.stringValue.map { .string(Owlmetry.sdkTrimmed($0)) } ?? value
        }
        return answers
    }

    // MARK: actions

    func perform(_ action: Action) -> StepResult {
        if let id = action.question, survey.indexByID[id] == nil {
            return StepResult(.doesNotFit("the questionnaire has no question '\(id)'\(Spelling.suggestion(for: id, in: survey.questionIDs))"))
        }
        switch action {
        case .answer(let id, let value): return onPage(id) { self.answer($0, value) }
        case .clear(let id): return onPage(id) { self.answer($0, .null) }
        case .next(let id): return onPage(id) { self.next(from: $0) }
        case .back:
            return onPage(nil) { index in
                guard index > 0 else { return StepResult(.rejected("this is the first question: there is no Back")) }
                return self.show(page: index - 1)
            }
        case .submit: return onPage(nil) { self.submit(from: $0) }
        case .app(let event): return perform(event)
        case .skip: return StepResult(.doesNotFit("Owlmetry has no skip: an optional question is left unanswered with next"))
        case .goto: return StepResult(.doesNotFit("Owlmetry has no goto: pages move with next and back"))
        case .hostCondition: return StepResult(.doesNotFit("Owlmetry questionnaires have no conditions (no branching)"))
        case .add, .remove: return StepResult(.doesNotFit("Owlmetry questionnaires have no repeating groups"))
        }
    }

    private func onPage(_ id: String?, _ body: (Int) -> StepResult) -> StepResult {
        guard let page else { return StepResult(.rejected("no question is on screen (\(screenName))")) }
        if let id, id != survey.questions[page].id {
            return StepResult(.rejected("'\(id)' is not on this page ('\(survey.questions[page].id)'): one question per page; go back or next to reach it"))
        }
        return body(page)
    }

    var screenName: String {
        switch screen {
        case .closed: isRunning ? "the questionnaire is not presented" : "the app has not been launched"
        case .consent: "the consent sheet is shown"
        case .page: "a question page"
        case .thanks: "the questionnaire was submitted"
        }
    }

    /// What the page's control can hold: any text (erased: null); a set of the options (unticked: `[]`);
    /// one option, star or score, which a tap replaces but nothing removes. Anything else is refused with
    /// the server validator's message.
    private func answer(_ index: Int, _ value: JSONValue) -> StepResult {
        let question = survey.questions[index]
        switch (question.type, value) {
        case (.text, .string), (.text, .null), (.multiChoice, .null): break
        case (.multiChoice, .array(let elements)) where elements.isEmpty: break
        case (.singleChoice, _) where OwlmetryValidator.isEmpty(value), (.rating, _) where OwlmetryValidator.isEmpty(value), (.nps, _) where OwlmetryValidator.isEmpty(value):
            return StepResult(.rejected("the SDK's \(question.type.rawValue) page cannot unselect: a tap picks another \(question.type == .singleChoice ? "option" : "value"), nothing clears it"))
        default:
            if let problem = survey.validator.problem(with: value, for: question) { return StepResult(.rejected(problem.message)) }
        }
        switch value {
        case .null: store[question.id] = nil
        case .array(let elements): store[question.id] = .array(elements.sorted { ($0.stringValue ?? "") < ($1.stringValue ?? "") })
        default: store[question.id] = value
        }
        if let coverage, isAnswered(question), let stored = store[question.id] { coverage.layout.recordAnswer(stored, at: index, survey: survey, coverage.recorder) }
        return StepResult(.ok)
    }

    /// Next: disabled on an unanswered required question; otherwise a background draft save and the next page.
    private func next(from index: Int) -> StepResult {
        let question = survey.questions[index]
        if question.isRequired, !isAnswered(question) {
            return StepResult(.rejected("\"\(question.id)\" is required: Next stays disabled until it is answered"))
        }
        guard index + 1 < survey.questions.count else { return StepResult(.rejected("this is the last page: it has Submit, not Next")) }
        var events = saveDraft()
        events += show(page: index + 1).events
        return StepResult(.ok, events: events)
    }

    /// `saveDraftInBackground`: fire and forget; nothing is sent when the collected set is empty, and a
    /// refusal is swallowed (the trace still shows it).
    private func saveDraft() -> [TraceEvent] {
        let answers = collected
        guard !answers.isEmpty else { return [] }
        return send(answers, isComplete: false).events
    }

    /// Submit: awaits the server; a success shows the success page, any error an alert over the last page.
    private func submit(from index: Int) -> StepResult {
        guard index == survey.questions.count - 1 else { return StepResult(.rejected("Submit is on the last page; this is page \(index + 1) of \(survey.questions.count)")) }
        let question = survey.questions[index]
        if question.isRequired, !isAnswered(question) {
            return StepResult(.rejected("\"\(question.id)\" is required: Submit stays disabled until it is answered"))
        }
        if let missing = missingRequired {
            return StepResult(.rejected("\"\(missing)\" is required: Submit checks hasAllRequired"), events: [alert("errorRequiredMissing")])
        }
        let (response, events) = send(collected, isComplete: true)
        guard let response, response.http < 300, let row = response.row else {
            coverage.map { $0.recorder.terminal(OwlmetryCoverageLayout.Terminal.submitRefused.rawValue) }
            let message = response.map { Self.errorDescription($0) } ?? Self.offlineMessage
            return StepResult(.rejected("the submission failed and the sheet stays on the last page: \(message)"), events: events + [alert(message)])
        }
        submissions += 1
        submittedRow = row
        screen = .thanks
        coverage.map { $0.recorder.terminal(OwlmetryCoverageLayout.Terminal.submitted.rawValue) }
        return StepResult(.ok, events: events)
    }

    /// One save as the device sends it, and the event that shows the server's answer (nil when offline).
    private func send(_ answers: [String: JSONValue], isComplete: Bool) -> (response: OwlmetryServer.SaveResponse?, events: [TraceEvent]) {
        var detail: [String: JSONValue] = ["answers": .object(answers), "is_complete": .bool(isComplete)]
        detail["user_id"] = userID.map(JSONValue.string) ?? .null
        guard !isOffline else {
            detail["error"] = .string(Self.offlineMessage)
            return (nil, [TraceEvent("save_failed", detail: .object(detail))])
        }
        let response = server.save(userID: userID, answers: answers, isComplete: isComplete, at: clock.timestamp())
        detail["http"] = .number(Double(response.http))
        guard response.http < 300, let row = response.row else {
            if let reason = response.reason { detail["reason"] = .string(reason) }
            if let error = response.error { detail["error"] = .string(error) }
            return (response, [TraceEvent("save_rejected", detail: .object(detail))])
        }
        detail["was_submitted"] = .bool(response.wasSubmitted ?? false)
        detail["stored_answers"] = .object(server.rows[row].answers)
        detail["row"] = .number(Double(row + 1))
        if let submittedAt = server.rows[row].submittedAt { detail["submitted_at"] = .string(submittedAt) }
        return (response, [TraceEvent(isComplete ? "submitted" : "draft_saved", detail: .object(detail))])
    }

    /// `OwlQuestionnaireError.errorDescription` for a refused call: a save's 400 is `invalidAnswers` with the
    /// body and its 404 `slugNotFound`; anything else (and every refused dismissal) `serverError` with the
    /// status and the body (`EventTransport.saveQuestionnaireResponse`, `submitQuestionnaireDismiss`).
    static func errorDescription(_ response: OwlmetryServer.SaveResponse, ofSave: Bool = true) -> String {
        let body = CanonicalJSON.compact(response.errorBody)
        switch response.http {
        case 400 where ofSave: return "Invalid answers: \(body)"
        case 404 where ofSave: return "Questionnaire slug not found."
        default: return "Server returned \(response.http): \(body)"
        }
    }

    /// A transport failure's description (URLError's for no connection; the OS words it).
    static let offlineMessage = "The Internet connection appears to be offline."

    func alert(_ message: String) -> TraceEvent {
        TraceEvent("alert", detail: .string(message))
    }

    func show(page index: Int) -> StepResult {
        screen = .page(index)
        coverage.map { $0.recorder.question(index, shown: true) }
        return StepResult(.ok, events: [TraceEvent("page", detail: .string("\(index + 1)/\(survey.questions.count)"))])
    }

    func close() {
        screen = .closed
        store = [:]
    }

    func showConsent() -> [TraceEvent] {
        screen = .consent
        return [TraceEvent("consent_shown")]
    }

    /// `firstUnansweredIndex`: the first question in schema order not answered; the last page if all are.
    var firstUnanswered: Int {
        survey.questions.firstIndex { !isAnswered($0) } ?? max(0, survey.questions.count - 1)
    }

    // MARK: the sheet's consent detent and Cancel

    func consent(_ choice: AppEvent.Consent) -> StepResult {
        guard screen == .consent else { return StepResult(.rejected("no consent sheet is shown (\(screenName))")) }
        coverage.map { $0.recorder.choice($0.layout.consentChoice(choice)) }
        switch choice {
        case .accept:
            return show(page: 0)
        case .later:
            close()
            coverage.map { $0.recorder.terminal(OwlmetryCoverageLayout.Terminal.later.rawValue) }
            return StepResult(.ok)
        case .never:
            // "Don't ask again", confirmed: the dismissal must succeed for the sheet to close.
            guard !isOffline else {
                coverage.map { $0.recorder.terminal(OwlmetryCoverageLayout.Terminal.dismissFailed.rawValue) }
                return StepResult(.rejected("the dismissal failed and the consent sheet stays: \(Self.offlineMessage)"), events: [TraceEvent("dismiss_failed", detail: ["error": .string(Self.offlineMessage)]), alert(Self.offlineMessage)])
            }
            let response = server.dismiss(userID: userID)
            let user = userID.map(JSONValue.string) ?? .null
            guard response.http < 300 else {
                coverage.map { $0.recorder.terminal(OwlmetryCoverageLayout.Terminal.dismissFailed.rawValue) }
                let message = Self.errorDescription(response, ofSave: false)
                return StepResult(
                    .rejected("the dismissal failed and the consent sheet stays: \(message)"),
                    events: [TraceEvent("dismiss_failed", detail: ["http": .number(Double(response.http)), "user_id": user]), alert(message)])
            }
            close()
            coverage.map { $0.recorder.terminal(OwlmetryCoverageLayout.Terminal.dismissed.rawValue) }
            return StepResult(.ok, events: [TraceEvent("dismissed", detail: ["scope": "global", "user_id": user])])
        }
    }

    /// Cancel in the toolbar of a question page: the sheet closes without saving the page.
    func cancel() -> StepResult {
        guard page != nil else { return StepResult(.rejected("no question page is shown (\(screenName)): Cancel is on the question pages")) }
        close()
        coverage.map { $0.recorder.terminal(OwlmetryCoverageLayout.Terminal.quit.rawValue) }
        return StepResult(.ok)
    }
}
