import SurveyCore

/// What happened in one replay: after every action, the outcome and what the respondent sees; at the end,
/// the payload. Traces render to golden text and to the JSON contract of DESIGN.md §5.
public struct Trace: Sendable, Equatable {
    /// The survey path as the scenario gives it.
    public var survey: String
    public var format: String
    /// What the respondent sees before the first action.
    public var start: View
    /// What the engine reported while preparing the survey, before the first action.
    public var startEvents: [TraceEvent]
    public var steps: [Step]
    public var payload: JSONValue?

    public init(survey: String, format: String, start: View, startEvents: [TraceEvent] = [], steps: [Step] = [], payload: JSONValue? = nil) {
        self.survey = survey
        self.format = format
        self.start = start
        self.startEvents = startEvents
        self.steps = steps
        self.payload = payload
    }

    /// The respondent's screen at one moment.
    public struct View: Sendable, Equatable {
        public var current: String?
        public var visible: [String]
        public var submittable: Bool

        public init(current: String?, visible: [String], submittable: Bool) {
            self.current = current
            self.visible = visible
            self.submittable = submittable
        }

        public init(of session: any SurveySession) {
            self.init(current: session.currentQuestion, visible: session.visibleQuestions, submittable: session.isSubmittable)
        }
    }

    public struct Step: Sendable, Equatable {
        /// 1-based.
        public var number: Int
        public var action: Action
        public var outcome: Outcome
        public var view: View
        public var events: [TraceEvent]

        public init(number: Int, action: Action, outcome: Outcome, view: View, events: [TraceEvent]) {
            self.number = number
            self.action = action
            self.outcome = outcome
            self.view = view
            self.events = events
        }

        /// The action as a scenario line.
        public var actionText: String { ScenarioSyntax.text(of: action) }
    }
}
