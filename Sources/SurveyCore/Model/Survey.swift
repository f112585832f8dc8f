/// A survey file format the harness can simulate. A format is one folder of `SurveyFormats` and one line in
/// its registry: it recognizes its files and loads them into a `Survey`.
public protocol SurveyFormat: Sendable {
    /// The short name used in traces and on the command line (`surveynative`).
    var name: String { get }
    /// What a file of this format looks like, for the message when no format recognizes a file.
    var signature: String { get }
    /// Whether a parsed file is of this format (by its top-level shape).
    func recognizes(_ root: JSONNode) -> Bool
    /// Decodes and checks the file; every problem that stops a run is an error with its location.
    func load(_ root: JSONCursor) throws(InputError) -> any Survey
    /// Every finding about the file, without running it: what would stop a run (errors), what the real
    /// engine does that the author probably did not mean, and what crashes it. Works on files that fail to
    /// load, reporting as much as can be read.
    func lint(_ root: JSONCursor) -> [Diagnostic]
    /// The rules `lint` reports by, with what each finds and how to fix it.
    var lintRules: [LintRule] { get }
}

extension SurveyFormat {
    public var lintRules: [LintRule] { [] }
}

/// A loaded survey, ready to start sessions.
public protocol Survey: Sendable {
    var format: String { get }
    /// Every id an action may name, in document order.
    var questionIDs: [String] { get }
    /// Whether an id names a question of the survey: one of `questionIDs`, or for formats whose questions
    /// have instances (FHIR repeating groups), an instance of one.
    func hasQuestion(_ id: String) -> Bool
    /// A session; with a recorder, the session reports every branch it takes into it.
    func makeSession(_ settings: SessionSettings, coverage: CoverageRecorder?) -> any SurveySession
    /// The branches of the survey's logic, for coverage.
    func coveragePlan() -> CoveragePlan
    /// How the recorder shows a question, or nil for an unknown id.
    func prompt(for question: String, settings: SessionSettings) -> QuestionPrompt?
    /// Turns what a person typed at the recorder's prompt into an answer value, or says why it cannot.
    func interpretInput(_ text: String, for question: String) -> Result<JSONValue, InputProblem>
    /// The answers inside a payload of this format, by question id (for `import`); an error names what
    /// in the payload does not have the format's shape.
    func answers(inPayload payload: JSONCursor) throws(InputError) -> [(question: String, value: JSONValue)]
    /// The payload as `import` reads it under these settings (a format with several engine profiles reads
    /// it as the chosen one writes it): its answers with their places, and what no scenario can reproduce.
    func readPayload(_ payload: JSONCursor, settings: SessionSettings) throws(InputError) -> PayloadReading

    // What random walks, properties and generation need.

    /// Keys of the conditions the host app decides (custom conditions), which walks set both ways.
    var hostConditionKeys: [String] { get }
    /// Values worth trying for a question: every option, boundary values from validations and ranges,
    /// the literals its conditions compare against and their neighbours, and some invalid values on purpose.
    func candidateValues(for question: String, settings: SessionSettings) -> [JSONValue]
    /// A checker of the engine's invariants and the survey's hazards, for one session.
    func makeStepChecker() -> any StepChecker
    /// What makes the step checkers of one walker's walks (each its own session, one after another, under
    /// the same settings); by default each is `makeStepChecker()`'s. A format may keep in it work that is
    /// the same in every walk of the survey under those settings.
    func makeStepCheckerSource() -> any StepCheckerSource
    /// Compiles a condition written as the survey file writes its conditions (for properties files).
    func compileCondition(_ cursor: JSONCursor) throws(InputError) -> any SessionPredicate

    /// The profiles a session of this survey can simulate, and the options it reads with their values
    /// (the first value of each is the default).
    var profiles: [String] { get }
    var options: [String: [String]] { get }
    /// Why the engine these settings choose refuses this survey or fails on it before a respondent sees
    /// anything (it refuses to render the file, or throws while preparing it or as the form opens), with
    /// where in the survey file; nil when it runs. `problem(with:)` asks it once the settings are known.
    func engineProblem(_ settings: SessionSettings) -> String?
    /// How a trace names the format under these settings (with the engine chosen, where there are several).
    func format(for settings: SessionSettings) -> String
}

extension Survey {
    public func hasQuestion(_ id: String) -> Bool { questionIDs.contains(id) }

    public func makeStepCheckerSource() -> any StepCheckerSource { FreshStepCheckers(survey: self) }

    public var profiles: [String] { [] }
    public var options: [String: [String]] { [:] }
    public func engineProblem(_ settings: SessionSettings) -> String? { nil }
    public func format(for settings: SessionSettings) -> String { format }

    /// Why these settings do not fit the survey, or nil: a profile or option its format does not have,
    /// else the engine they choose refusing or failing on it (`engineProblem`).
    public func problem(with settings: SessionSettings) -> String? {
        if let profile = settings.profile, !profiles.contains(profile) {
            let known = profiles.isEmpty ? "the \(format) format has no profiles" : "expected one of \(profiles.joined(separator: ", "))"
            return "unknown profile '\(profile)'; \(known)\(Spelling.suggestion(for: profile, in: profiles))"
        }
        for (name, value) in settings.options.sorted(by: { $0.key < $1.key }) {
            guard let values = options[name] else {
                let known = options.isEmpty ? "the \(format) format has no options" : "expected one of \(options.keys.sorted().joined(separator: ", "))"
                return "unknown option '\(name)'; \(known)\(Spelling.suggestion(for: name, in: Array(options.keys)))"
            }
            if !values.contains(value) {
                return "option '\(name)' has no value '\(value)'; expected one of \(values.joined(separator: ", "))"
            }
        }
        return engineProblem(settings)
    }
}

/// Why typed input is not an answer, in words for the person typing.
public struct InputProblem: Error, Sendable, Equatable {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }
}

extension Survey {
    public func makeSession(_ settings: SessionSettings) -> any SurveySession {
        makeSession(settings, coverage: nil)
    }
}

/// What the host environment of a session provides: today's date (a fixed clock, for determinism), and
/// where engines disagree, which engine's behaviour to simulate: a profile (`c3pro`) and named options.
public struct SessionSettings: Sendable, Hashable {
    /// The clock used when no scenario gives one: fixed, so that runs never depend on the machine's date.
    public static let defaultToday = CalendarDate(year: 2026, month: 1, day: 1)

    public var today: CalendarDate
    /// The engine profile a format simulates, when it has several (nil: the format's default).
    public var profile: String?
    /// Switches between disagreeing engines' readings of one rule, by name.
    public var options: [String: String]
    /// What the host app hands the engine as the survey opens, by name: FHIR's launch contexts (a `patient`
    /// resource and so on, SDC "launchContext"). Formats without such a notion ignore it.
    public var launchContext: [String: JSONValue]

    public init(
        today: CalendarDate = SessionSettings.defaultToday, profile: String? = nil, options: [String: String] = [:], launchContext: [String: JSONValue] = [:]
    ) {
        self.today = today
        self.profile = profile
        self.options = options
        self.launchContext = launchContext
    }
}

/// A respondent's session with the real engine's semantics: a state machine that takes actions and
/// returns outcomes. Sessions are classes because a session is one evolving thing with identity.
public protocol SurveySession: AnyObject {
    func perform(_ action: Action) -> StepResult
    /// The question the engine is waiting on, or nil (for example once Submit is shown).
    var currentQuestion: String? { get }
    /// The ids a respondent sees now, in display order.
    var visibleQuestions: [String] { get }
    /// Whether Submit can be tapped now.
    var isSubmittable: Bool { get }
    /// The stored answer of a question, visible or not.
    func answer(for question: String) -> JSONValue?
    /// What the engine produces for the server: nil until the format produces one (e.g. on submit).
    var payload: JSONValue? { get }

    // Cheap views for walks, which must not build the visible list at every step.

    /// How many questions are visible.
    var visibleCount: Int { get }
    /// The id of the visible question at `position` in display order.
    func visibleQuestion(at position: Int) -> String
    /// The index in the survey's `questionIDs` of the visible question at `position` in display order.
    func visibleQuestionIndex(at position: Int) -> Int
    /// Both of the above at once (a format that finds the question once gives both for one search).
    func visibleEntry(at position: Int) -> (question: String, index: Int)
    /// The position of the current question in the visible list, if it is current and visible.
    var currentVisiblePosition: Int? { get }
    /// A number that differs whenever the visible list differs (a hash of it).
    var visibleFingerprint: UInt64 { get }
    /// A number that differs whenever the visible list, the current question's place in it or Submit differ:
    /// `StableHash.view` of the three (read after every step of a checked walk, twice with its replay).
    var viewFingerprint: UInt64 { get }
    /// Actions other than answering, Next, Submit and host conditions that the respondent or the app can
    /// take now (add a group instance, skip a step, launch the app…), for walks to choose among.
    var otherActions: [Action] { get }
    /// How many of them there are, and the one at an index of the list: a session with many on offer gives
    /// one without building the list.
    var otherActionCount: Int { get }
    func otherAction(at index: Int) -> Action
    /// Whether the session is over for good (a task its rules finished): nothing more can happen in it, so
    /// a walk stops there as it does after Submit.
    var hasEnded: Bool { get }
    /// What the engine reported while preparing the survey, before the first action (C3-PRO's errors
    /// beside the task it still runs).
    var startEvents: [TraceEvent] { get }
}

extension SurveySession {
    public var visibleCount: Int { visibleQuestions.count }

    public func visibleQuestion(at position: Int) -> String { visibleQuestions[position] }

    public func visibleEntry(at position: Int) -> (question: String, index: Int) {
        (visibleQuestion(at: position), visibleQuestionIndex(at: position))
    }

    public var currentVisiblePosition: Int? {
        currentQuestion.flatMap { visibleQuestions.firstIndex(of: $0) }
    }

    public var visibleFingerprint: UInt64 {
        StableHash.of(visibleQuestions)
    }

    public var otherActions: [Action] { [] }

    public var otherActionCount: Int { otherActions.count }

    public func otherAction(at index: Int) -> Action { otherActions[index] }

    public var hasEnded: Bool { false }

    public var startEvents: [TraceEvent] { [] }

    public var viewFingerprint: UInt64 {
        StableHash.view(visible: visibleFingerprint, currentPosition: currentVisiblePosition, submittable: isSubmittable)
    }
}
