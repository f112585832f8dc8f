import SurveyCore

/// An app showing an Owlmetry questionnaire (reference §3.3): launches, foregrounds and time passing drive
/// the trigger; a fetch decides eligibility; the consent sheet; one question per page with Back, Next and
/// Submit; a draft save of the whole accumulated answer set on every Next; quit, and resume at the first
/// unanswered question with consent skipped. Every request the device sends is an event with the server's
/// answer, so goldens show exactly what the device sends.
final class OwlmetrySession: SurveySession {
    enum Screen: Equatable {
        /// Nothing shown: the app is not launched, or the questionnaire is closed.
        case closed
        case consent
        case page(Int)
        /// The thank-you page after a submission.
        case thanks
    }

    let survey: OwlmetrySurvey
    let host: OwlmetryHost
    private let coverage: (recorder: CoverageRecorder, layout: OwlmetryCoverageLayout)?
    private(set) var clock: ScenarioClock
    private(set) var screen = Screen.closed
    private(set) var isRunning = false
    private var launches = 0
    private var foregrounds = 0
    private var firstLaunch: Int?
    /// After "later", a quit or an ineligible fetch, the app does not present again before the next launch.
    private var heldUntilLaunch = false
    /// The answers on the device (the SDK's answer store).
    private(set) var store: [String: JSONValue] = [:]
    private(set) var server: OwlmetryServer
    /// The row of the completed submission (for the payload).
    private(set) var submittedRow: Int?
    /// How many calls answered `was_submitted: true` (must never exceed one).
    private(set) var submissions = 0

    init(survey: OwlmetrySurvey, settings: SessionSettings, coverage: CoverageRecorder?) {
        self.survey = survey
        self.host = OwlmetryHost(settings)
        self.coverage = coverage.map { ($0, survey.layout()) }
        self.clock = ScenarioClock(today: settings.today)
        var server = OwlmetryServer(validator: survey.validator, schema: survey.schema)
        server.isActive = host.isActive
        switch host.server {
        case "responded":
            server.insert(
                OwlmetryServer.Row(
                    userID: host.userID, answers: [:], createdAt: clock.timestamp(), submittedAt: clock.timestamp(), schemaSnapshot: survey.schema))
        case "dismissed":
            server.dismiss(userID: host.userID)
        default:
            break
        }
        self.server = server
    }

    // MARK: what the respondent sees

    private var page: Int? {
        if case .page(let index) = screen { return index }
        return nil
    }

    var currentQuestion: String? { page.map { survey.questions[$0].id } }

    /// One question per page: the page's question, nothing else.
    var visibleQuestions: [String] { currentQuestion.map { [$0] } ?? [] }

    func visibleQuestionIndex(at position: Int) -> Int { page ?? 0 }

    var isSubmittable: Bool {
        guard let page, page == survey.questions.count - 1 else { return false }
        return missingRequired == nil
    }

    /// Over once submitted, or once the server will never again find the respondent eligible (dismissed
    /// for good, already responded, inactive): nothing more can lead to a submission.
    var hasEnded: Bool {
        if submittedRow != nil { return true }
        if case .ineligible = server.fetch(userID: host.userID) { return true }
        return false
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

    /// The first required question of the schema without an answer (blank counts as unanswered).
    private var missingRequired: String? {
        survey.questions.first { $0.isRequired && OwlmetryValidator.isEmpty(store[$0.id]) }?.id
    }

    // MARK: actions

    func perform(_ action: Action) -> StepResult {
        if let id = action.question, survey.indexByID[id] == nil {
            return StepResult(.doesNotFit("the questionnaire has no question '\(id)'\(Spelling.suggestion(for: id, in: survey.questionIDs))"))
        }
        switch action {
        case .answer(let id, let value): return onPage(id) { self.answer($0, value) }
        case .clear(let id):
            return onPage(id) { index in
                self.store[self.survey.questions[index].id] = nil
                return StepResult(.ok)
            }
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

    private var screenName: String {
        switch screen {
        case .closed: isRunning ? "the questionnaire is closed" : "the app has not been launched"
        case .consent: "the consent sheet is shown"
        case .page: "a question page"
        case .thanks: "the questionnaire was submitted"
        }
    }

    private func answer(_ index: Int, _ value: JSONValue) -> StepResult {
        let question = survey.questions[index]
        // The SDK's controls cannot make an answer of the wrong type; a text longer than the server takes
        // can be typed, and the server refuses it at the next save.
        if !OwlmetryValidator.isEmpty(value), case .failure(let problem) = survey.validator.check(value, for: question),
            !(question.type == .text && value.stringValue != nil)
        {
            return StepResult(.rejected(problem.message))
        }
        // The SDK sorts a multiple choice's ids (reference §3.2).
        if case .array(let elements) = value {
            store[question.id] = .array(elements.sorted { ($0.stringValue ?? "") < ($1.stringValue ?? "") })
        } else {
            store[question.id] = value
        }
        if let coverage, !OwlmetryValidator.isEmpty(value) { coverage.layout.recordAnswer(value, at: index, survey: survey, coverage.recorder) }
        return StepResult(.ok)
    }

    /// Next: blocked on an unanswered required question; otherwise saves the draft and shows the next page.
    private func next(from index: Int) -> StepResult {
        let question = survey.questions[index]
        if question.isRequired, OwlmetryValidator.isEmpty(store[question.id]) {
            return StepResult(.rejected("\"\(question.id)\" is required: Next stays disabled until it is answered"))
        }
        guard index + 1 < survey.questions.count else { return StepResult(.rejected("this is the last page: it has Submit, not Next")) }
        var events = saveDraft()
        events += show(page: index + 1).events
        return StepResult(.ok, events: events)
    }

    /// The full accumulated answer set, without the empty values (an empty set is not sent).
    private var answerSet: [String: JSONValue] { store.filter { !OwlmetryValidator.isEmpty($0.value) } }

    /// A fire-and-forget draft save: errors are swallowed by the SDK, but the trace shows them.
    private func saveDraft() -> [TraceEvent] {
        let answers = answerSet
        guard !answers.isEmpty else { return [] }
        let response = server.save(userID: host.userID, answers: answers, isComplete: false, at: clock.timestamp())
        return [event(for: response, sent: answers, isComplete: false)]
    }

    private func submit(from index: Int) -> StepResult {
        guard index == survey.questions.count - 1 else { return StepResult(.rejected("Submit is on the last page; this is page \(index + 1) of \(survey.questions.count)")) }
        if let missing = missingRequired { return StepResult(.rejected("\"\(missing)\" is required: Submit checks hasAllRequired")) }
        let answers = answerSet
        let response = server.save(userID: host.userID, answers: answers, isComplete: true, at: clock.timestamp())
        let events = [event(for: response, sent: answers, isComplete: true)]
        guard response.wasSubmitted == true, let row = response.row else {
            coverage.map { $0.recorder.terminal(OwlmetryCoverageLayout.Terminal.submitRefused.rawValue) }
            return StepResult(.rejected("the server refused the submission: \(response.reason ?? response.error ?? "HTTP \(response.http)")"), events: events)
        }
        submissions += 1
        submittedRow = row
        screen = .thanks
        coverage.map { $0.recorder.terminal(OwlmetryCoverageLayout.Terminal.submitted.rawValue) }
        return StepResult(.ok, events: events)
    }

    private func event(for response: OwlmetryServer.SaveResponse, sent: [String: JSONValue], isComplete: Bool) -> TraceEvent {
        var detail: [String: JSONValue] = ["answers": .object(sent), "is_complete": .bool(isComplete), "http": .number(Double(response.http))]
        detail["user_id"] = host.userID.map(JSONValue.string) ?? .null
        if let reason = response.reason { detail["reason"] = .string(reason) }
        if let error = response.error { detail["error"] = .string(error) }
        guard response.http < 300, let row = response.row else { return TraceEvent("save_rejected", detail: .object(detail)) }
        detail["was_submitted"] = .bool(response.wasSubmitted ?? false)
        detail["stored_answers"] = .object(server.rows[row].answers)
        detail["row"] = .number(Double(row + 1))
        if let submittedAt = server.rows[row].submittedAt { detail["submitted_at"] = .string(submittedAt) }
        return TraceEvent(isComplete ? "submitted" : "draft_saved", detail: .object(detail))
    }

    private func show(page index: Int) -> StepResult {
        screen = .page(index)
        coverage.map { $0.recorder.question(index, shown: true) }
        return StepResult(.ok, events: [TraceEvent("page", detail: .string("\(index + 1)/\(survey.questions.count)"))])
    }

    // MARK: the app around it

    private func perform(_ event: AppEvent) -> StepResult {
        switch event {
        case .launch:
            // A launch starts the app afresh: a questionnaire on screen is gone, with its unsaved page.
            screen = .closed
            isRunning = true
            launches += 1
            firstLaunch = firstLaunch ?? clock.elapsed
            heldUntilLaunch = false
            return StepResult(.ok, events: checkTrigger(on: .launch))
        case .foreground:
            guard isRunning else { return StepResult(.rejected("the app has not been launched")) }
            foregrounds += 1
            return StepResult(.ok, events: checkTrigger(on: .foreground))
        case .wait(let seconds):
            clock.advance(seconds: seconds)
            return StepResult(.ok, events: isRunning ? checkTrigger(on: .wait) : [])
        case .consent(let choice):
            guard screen == .consent else { return StepResult(.rejected("no consent sheet is shown (\(screenName))")) }
            coverage.map { $0.recorder.choice($0.layout.consentChoice(choice)) }
            switch choice {
            case .accept:
                return show(page: firstUnanswered)
            case .later:
                screen = .closed
                heldUntilLaunch = true
                coverage.map { $0.recorder.terminal(OwlmetryCoverageLayout.Terminal.later.rawValue) }
                return StepResult(.ok)
            case .never:
                screen = .closed
                server.dismiss(userID: host.userID)
                coverage.map { $0.recorder.terminal(OwlmetryCoverageLayout.Terminal.dismissed.rawValue) }
                return StepResult(.ok, events: [TraceEvent("dismissed", detail: ["scope": "global", "user_id": host.userID.map(JSONValue.string) ?? .null])])
            }
        case .quit:
            guard page != nil else { return StepResult(.rejected("no question page is shown (\(screenName))")) }
            // The unsaved page is lost; a resume starts from the server's draft.
            screen = .closed
            heldUntilLaunch = true
            store = [:]
            coverage.map { $0.recorder.terminal(OwlmetryCoverageLayout.Terminal.quit.rawValue) }
            return StepResult(.ok)
        case .resume:
            guard isRunning else { return StepResult(.rejected("the app has not been launched")) }
            guard screen == .closed else { return StepResult(.rejected("the questionnaire is already open (\(screenName))")) }
            return StepResult(.ok, events: present())
        }
    }

    enum Occasion { case launch, foreground, wait }

    /// Evaluates the trigger and presents the questionnaire when it holds.
    private func checkTrigger(on occasion: Occasion) -> [TraceEvent] {
        guard screen == .closed, !heldUntilLaunch else { return [] }
        let holds: Bool
        switch host.trigger {
        case .manual:
            return []
        case .afterLaunch, .afterLaunches:
            guard occasion == .launch else { return [] }
            let needed = if case .afterLaunches(let count) = host.trigger { count } else { 1 }
            holds = launches >= needed
            coverage.map { $0.recorder.decision(OwlmetryCoverageLayout.launchTrigger, outcome: holds, leaves: [holds ? .true : .false]) }
        case .conditions:
            let elapsed = clock.elapsed - (firstLaunch ?? clock.elapsed)
            let leaves = [
                launches >= host.launches, foregrounds >= host.foregrounds,
                elapsed >= host.daysSinceFirstLaunch * 86_400, elapsed >= host.hoursSinceFirstLaunch * 3600,
            ]
            holds = leaves.allSatisfy { $0 }
            coverage.map { $0.recorder.decision(OwlmetryCoverageLayout.conditionTrigger, outcome: holds, leaves: leaves.map { $0 ? .true : .false }) }
        }
        return holds ? present() : []
    }

    /// Fetches the questionnaire and shows it: at the first unanswered question of a draft (consent
    /// skipped), or the consent sheet.
    private func present() -> [TraceEvent] {
        switch server.fetch(userID: host.userID) {
        case .ineligible(let reason):
            heldUntilLaunch = true
            coverage.map { $0.recorder.terminal(OwlmetryCoverageLayout.Terminal.ineligible(reason)) }
            return [TraceEvent("fetched", detail: ["eligible": false, "reason": .string(reason)])]
        case .eligible(let draft):
            var detail: [String: JSONValue] = ["eligible": true]
            if let draft {
                detail["in_progress"] = .object(draft)
                store = draft
                return [TraceEvent("fetched", detail: .object(detail))] + show(page: firstUnanswered).events
            }
            store = [:]
            screen = .consent
            return [TraceEvent("fetched", detail: .object(detail))]
        }
    }

    /// `firstUnansweredIndex`: the first question in schema order without an answer; the last page if all are.
    private var firstUnanswered: Int {
        survey.questions.firstIndex { OwlmetryValidator.isEmpty(store[$0.id]) } ?? max(0, survey.questions.count - 1)
    }
}
