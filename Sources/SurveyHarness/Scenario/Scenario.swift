import SurveyCore

/// A scenario file: a respondent's session as data, one statement a line (DESIGN.md §4). Comments and
/// blank lines are kept so that printing a parsed canonical file gives back the same bytes.
public struct Scenario: Sendable, Equatable {
    public var path: String
    public var lines: [Line]

    public init(path: String, lines: [Line]) {
        self.path = path
        self.lines = lines
    }

    public struct Line: Sendable, Equatable {
        public var statement: Statement?
        /// Text after `#`, without the `#`: the whole line's comment, or one after the statement.
        public var comment: String?
        /// 1-based line number in the file (0 for lines made in memory).
        public var number: Int

        public init(_ statement: Statement?, comment: String? = nil, number: Int = 0) {
            self.statement = statement
            self.comment = comment
            self.number = number
        }
    }

    public enum Statement: Sendable, Equatable {
        /// The survey file, relative to the scenario.
        case survey(String)
        /// The fixed clock for "current_year" / "current_date".
        case today(CalendarDate)
        /// The engine profile to simulate, for formats with several (`profile c3pro`).
        case profile(String)
        /// A switch between disagreeing engines' readings of one rule (`option NAME VALUE`).
        case option(name: String, value: String)
        /// A resource the host app hands the engine as the survey opens, from a JSON file relative to the
        /// scenario (`context patient patient.json`: FHIR's SDC launch contexts).
        case context(name: String, path: String)
        case action(Action)
        case expect(Expectation)
        /// A property checked after every step, as a walk checks it (`check hidden-answer-submitted`, `check
        /// whenever {...} then hidden x`): a fuzz finding saved as a scenario keeps failing until the survey
        /// is fixed, rather than being frozen into a golden.
        case check(Check)
    }

    /// What a `check` line checks.
    public enum Check: Sendable, Equatable {
        /// A built-in property by its stable id, as `fuzz` names it (an engine invariant or a survey hazard).
        case builtIn(String)
        /// An author's property, written as in a properties file (`whenever …`, `always …`, `payload never
        /// contains …`).
        case assertion(String)
    }

    /// An assertion about the session at that point; a failed one fails the run.
    public enum Expectation: Sendable, Equatable {
        /// Each listed question is visible.
        case visible([String])
        /// Each listed question is not visible.
        case hidden([String])
        /// The current question, or none.
        case current(String?)
        /// The stored answer (JSON null: unanswered).
        case answer(String, JSONValue)
        /// The payload (JSON null: none yet).
        case payload(JSONValue)
        case submittable(Bool)
    }

    /// The `survey` line's path, if any.
    public var surveyPath: String? {
        for line in lines { if case .survey(let path)? = line.statement { return path } }
        return nil
    }

    public var today: CalendarDate? {
        for line in lines { if case .today(let date)? = line.statement { return date } }
        return nil
    }

    public var profile: String? {
        for line in lines { if case .profile(let name)? = line.statement { return name } }
        return nil
    }

    public var options: [String: String] {
        var options: [String: String] = [:]
        for line in lines { if case .option(let name, let value)? = line.statement { options[name] = value } }
        return options
    }

    /// The `context` lines: each name, resource file and line number.
    public var contexts: [(name: String, path: String, line: Int)] {
        lines.compactMap { line in
            if case .context(let name, let path)? = line.statement { return (name, path, line.number) }
            return nil
        }
    }

    /// The settings a session of this scenario runs with, without its launch contexts, which are files
    /// (`ScenarioRunner.settings(of:)` reads them).
    public var settings: SessionSettings {
        SessionSettings(today: today ?? SessionSettings.defaultToday, profile: profile, options: options)
    }

    /// The `check` lines, with their line numbers.
    public var checks: [(line: Int, check: Check)] {
        lines.compactMap { line in
            if case .check(let check)? = line.statement { return (line.number, check) }
            return nil
        }
    }

    public var actions: [Action] {
        lines.compactMap { line in
            if case .action(let action)? = line.statement { return action }
            return nil
        }
    }
}
