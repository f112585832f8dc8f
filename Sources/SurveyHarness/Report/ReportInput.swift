import SurveyCore

/// What a report is made from: a suite run (statuses of scenarios against their goldens), the survey files
/// to draw, random walks to add to coverage, and fuzz runs.
public struct ReportInput {
    public var title: String
    /// The suite run whose scenarios get pages; nil for a report without scenarios.
    public var suite: SuiteResult?
    /// Survey files to draw besides those the scenarios use.
    public var surveyFiles: [String]
    /// Files under the given folders that no format recognizes: listed, not drawn.
    public var otherFiles: [Diagnostic]
    /// Random walks added to each survey's coverage (0: scenarios only).
    public var walks: Int
    public var seed: UInt64
    public var maxSteps: Int
    public var settings: SessionSettings
    public var fuzz: [FuzzRun]

    public init(
        title: String, suite: SuiteResult?, surveyFiles: [String] = [], otherFiles: [Diagnostic] = [], walks: Int = 0, seed: UInt64 = 1,
        maxSteps: Int = 100, settings: SessionSettings = SessionSettings(), fuzz: [FuzzRun] = []
    ) {
        self.title = title
        self.suite = suite
        self.surveyFiles = surveyFiles
        self.otherFiles = otherFiles
        self.walks = walks
        self.seed = seed
        self.maxSteps = maxSteps
        self.settings = settings
        self.fuzz = fuzz
    }

    /// One `fuzz` run: how it was configured and its findings with their shrunk scenarios.
    public struct FuzzRun: Sendable {
        public var surveyPath: String
        public var format: String
        public var seed: UInt64
        public var walks: Int
        public var steps: Int
        public var maxSteps: Int
        public var settings: SessionSettings
        public var findings: [FuzzFinding]

        public init(surveyPath: String, format: String, seed: UInt64, walks: Int, steps: Int, maxSteps: Int, settings: SessionSettings, findings: [FuzzFinding]) {
            self.surveyPath = surveyPath
            self.format = format
            self.seed = seed
            self.walks = walks
            self.steps = steps
            self.maxSteps = maxSteps
            self.settings = settings
            self.findings = findings
        }
    }

    public struct FuzzFinding: Sendable {
        public var finding: Finding
        /// Whether it fails the run (engine errors and properties; hazards with --strict).
        public var fails: Bool
        public var walks: Int
        public var firstWalk: Int
        public var token: String
        public var replayCommand: String
        /// The shrunk walk as a scenario (its survey line relative to where it would be written).
        public var scenario: Scenario

        public init(finding: Finding, fails: Bool, walks: Int, firstWalk: Int, token: String, replayCommand: String, scenario: Scenario) {
            self.finding = finding
            self.fails = fails
            self.walks = walks
            self.firstWalk = firstWalk
            self.token = token
            self.replayCommand = replayCommand
            self.scenario = scenario
        }
    }
}
