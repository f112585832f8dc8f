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
