/// What a respondent (or the host app) does in one step of a session. Each format supports the actions
/// that exist in its engine and answers the others with `Outcome.doesNotFit`.
public enum Action: Hashable, Sendable {
    /// Enter or pick a value for a visible question, the way the engine stores it.
    case answer(question: String, value: JSONValue)
    /// Remove a question's answer.
    case clear(question: String)
    /// Tap Next: on the active question, or on a named visible question.
    case next(question: String?)
    /// Go back one step.
    case back
    /// Move to (or scroll to) a visible question.
    case goto(question: String)
    /// Tap Submit.
    case submit
    /// Set what the host app answers for a condition it decides (scenario verb `custom`).
    case hostCondition(key: String, outcome: Bool)
    /// Add an instance of a repeating group (FHIR).
    case add(group: String)
    /// Remove one instance of a repeating group, named `GROUP#N` (FHIR).
    case remove(instance: String)
    /// Skip an optional step without answering it: the current one, or a named one (SageResearch, C3-PRO).
    case skip(question: String?)
    /// Something the app or its user does outside the questions (Owlmetry's lifecycle).
    case app(AppEvent)
}

extension Action {
    /// The question an action names, if it names one.
    public var question: String? {
        switch self {
        case .answer(let question, _), .clear(let question), .goto(let question): question
        case .next(let question), .skip(let question): question
        case .add(let group): group
        case .remove(let instance): instance
        case .back, .submit, .hostCondition, .app: nil
        }
    }
}

/// What happens around a questionnaire in the app that shows it: launches, time passing, the consent
/// sheet, leaving and coming back.
public enum AppEvent: Hashable, Sendable {
    case launch
    case foreground
    /// Time passes on the scenario's clock.
    case wait(seconds: Int)
    case consent(Consent)
    /// The respondent leaves the questionnaire unfinished.
    case quit
    /// The respondent opens it again.
    case resume

    public enum Consent: String, Hashable, Sendable, CaseIterable {
        case accept, later, never
    }
}

/// How the engine took an action.
public enum Outcome: Hashable, Sendable {
    case ok
    /// The engine refuses it now (a hidden question, a value out of range, no Submit yet), with why.
    case rejected(String)
    /// A validation of the survey failed; the message is the survey's own.
    case validationFailed(String)
    /// The action names something the survey does not have (a question, an option, a verb the engine
    /// lacks): the scenario no longer fits the survey.
    case doesNotFit(String)

    public var message: String? {
        switch self {
        case .ok: nil
        case .rejected(let text), .validationFailed(let text), .doesNotFit(let text): text
        }
    }
}

/// Something the engine did that the respondent or a server would notice (a submission, a dead end).
public struct TraceEvent: Hashable, Sendable {
    public let name: String
    public let detail: JSONValue?

    public init(_ name: String, detail: JSONValue? = nil) {
        self.name = name
        self.detail = detail
    }
}

public struct StepResult: Hashable, Sendable {
    public var outcome: Outcome
    public var events: [TraceEvent]

    public init(_ outcome: Outcome, events: [TraceEvent] = []) {
        self.outcome = outcome
        self.events = events
    }
}
