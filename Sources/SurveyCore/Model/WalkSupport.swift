/// What a survey format gives random walks, property checks and generation, beyond running sessions.

/// Something a walk found: a bug of ours, a risk of the survey, or an author's property that failed.
public struct Finding: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The simulation broke one of its own invariants: must never happen.
        case engineError = "engine error"
        /// The survey's own risk, faithfully simulated (an answer of a hidden question submitted, a dead end).
        case hazard = "survey hazard"
        /// An assertion from the author's properties file did not hold.
        case property = "property"
    }

    public var kind: Kind
    /// A stable id of what was checked (`hidden-answer-submitted`, `deterministic-replay`, a property's name).
    public var property: String
    public var message: String
    /// The question the finding is about, when there is one; part of what makes two findings the same.
    public var question: String?

    public init(_ kind: Kind, _ property: String, _ message: String, question: String? = nil) {
        self.kind = kind
        self.property = property
        self.message = message
        self.question = question
    }

    /// Findings with the same key are one finding found again.
    public var key: String { "\(kind.rawValue)|\(property)|\(question ?? "")" }
}

/// Checks a format makes after every step of a walk: the engine's invariants and the survey's hazards.
/// One checker follows one session, so it can compare a step with the steps before it.
public protocol StepChecker: AnyObject {
    func check(_ session: any SurveySession, after action: Action, result: StepResult) -> [Finding]
    /// Checks once the walk is over (costlier ones, such as recomputing the whole view).
    func finish(_ session: any SurveySession) -> [Finding]
}

/// Makes the step checkers of one walker's walks, one a walk (`Survey.makeStepCheckerSource()`). A walker
/// is used from one place at a time, and so is its source.
public protocol StepCheckerSource: AnyObject {
    func makeStepChecker() -> any StepChecker
}

/// The default source: each walk's checker made afresh, sharing nothing.
final class FreshStepCheckers: StepCheckerSource {
    let survey: any Survey

    init(survey: any Survey) {
        self.survey = survey
    }

    func makeStepChecker() -> any StepChecker { survey.makeStepChecker() }
}

/// A condition in the survey's own condition language, compiled to test a session's current answers.
public protocol SessionPredicate: Sendable {
    func holds(in session: any SurveySession) -> Bool
}

