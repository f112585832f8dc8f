import SurveyCore

/// Runs one walk: actions chosen from a choice stream, performed on a fresh session, checked after every
/// step; then, with the built-in properties, the checks of the whole walk (replay, round trip, Submit
/// still reachable). The replay is a second fresh session fed the same actions step by step beside the walk,
/// so no step's outcome or view needs keeping to compare it afterwards.
public struct Walker {
    public let survey: any Survey
    public let settings: SessionSettings
    public let maxSteps: Int
    /// The format's invariants and hazards and the harness's own properties.
    public let builtInProperties: Bool
    public let properties: PropertiesFile?
    /// Whether to run the checks of the whole walk (replay, round trip, Submit reachable) at its end.
    public var wholeWalkChecks = true
    /// Whether to record each step's visible-list fingerprint (for counting distinct visible lists).
    public var recordsVisibleLists = false
    /// Where walk sessions report the branches they take, if anywhere.
    public var coverage: CoverageRecorder?
    private let chooser: ActionChooser
    /// Makes each walk's step checker (with the built-in properties); shared by copies of the walker.
    private let checkers: (any StepCheckerSource)?
    /// Actions already shown to read back unchanged from their scenario line.
    private let roundTripped: RoundTripCache

    /// The properties checked once a walk ends, rather than after a step.
    public static let wholeWalkProperties: Set<String> = ["deterministic-replay", "scenario-round-trip", "submit-unreachable"]

    public init(survey: any Survey, settings: SessionSettings, maxSteps: Int, builtInProperties: Bool, properties: PropertiesFile?) {
        self.survey = survey
        self.settings = settings
        self.maxSteps = maxSteps
        self.builtInProperties = builtInProperties
        self.properties = properties
        self.chooser = ActionChooser(survey: survey, settings: settings)
        self.roundTripped = RoundTripCache(settings: settings)
        self.checkers = builtInProperties ? survey.makeStepCheckerSource() : nil
    }

    public struct Outcome {
        public var actions: [Action] = []
        /// Each finding with the 0-based index of the step after which it was found (the last step for
        /// checks of the whole walk).
        public var findings: [(step: Int, finding: Finding)] = []
        public var submitted = false
        /// The choices made: the walk's replayable recording.
        public var recording = ChoiceRecording()

        /// The choices made, one list a step.
        public var choices: [[Int]] { recording.steps }
        /// The fingerprint of the visible list after each step (recorded only when asked for statistics).
        public var visibleLists: [UInt64] = []
        /// A stable hash of the actions taken, in order: walks that took the same actions have the same one.
        public var path: UInt64 = 0x9A74
    }

    /// A walk whose actions are chosen from `stream`.
    public mutating func walk(_ stream: inout ChoiceStream) -> Outcome {
        let chooser = chooser  // captured once, not copied out of the walker at every step
        var outcome = run { session in
            guard stream.beginStep() else { return nil }
            return chooser.choice(in: session, stream: &stream)
        }
        outcome.recording = stream.recording
        return outcome
    }

    /// The same checks on a fixed list of actions (for shrinking a walk action by action).
    public func check(_ actions: [Action]) -> Outcome {
        var remaining = actions[...]
        return run { _ in remaining.popFirst().map { ($0, StableHash.of($0)) } }
    }

    /// Runs a walk whose next action (with its stable hash) `nextAction` gives, until it gives none.
    private func run(_ nextAction: (any SurveySession) -> (action: Action, hash: UInt64)?) -> Outcome {
        let session = survey.makeSession(settings, coverage: coverage)
        let checker = checkers?.makeStepChecker()
        let checksWholeWalk = builtInProperties && wholeWalkChecks
        // Replaying the same actions on a session of its own gives the same outcomes and views.
        let replay = checksWholeWalk ? survey.makeSession(settings) : nil
        var outcome = Outcome()
        // A walk of a hundred steps fills each list a step once: one allocation each, not one per doubling.
        let expected = min(maxSteps, 128)
        outcome.actions.reserveCapacity(expected)
        if recordsVisibleLists { outcome.visibleLists.reserveCapacity(expected) }
        // The first action that does not read back from its scenario line, checked as the walk goes.
        var unreadable: Action?
        // The first step whose replay differs, checked as the walk goes.
        var diverged: Int?
        for step in 0..<maxSteps {
            guard let (action, hash) = nextAction(session) else { break }
            let result = session.perform(action)
            outcome.actions.append(action)
            outcome.path = StableHash.mix(outcome.path ^ hash)
            if checksWholeWalk, unreadable == nil, !roundTripped.readsBack(action, hash: hash) { unreadable = action }
            if let replay, diverged == nil, replay.perform(action).outcome != result.outcome || replay.viewFingerprint != session.viewFingerprint {
                diverged = step
            }
            if recordsVisibleLists { outcome.visibleLists.append(session.visibleFingerprint) }
            if let checker {
                if case .doesNotFit(let reason) = result.outcome {
                    outcome.findings.append((step, Finding(.engineError, "generated-action-fits", "the walk generated an action the survey cannot take: \(reason)")))
                }
                for finding in checker.check(session, after: action, result: result) { outcome.findings.append((step, finding)) }
            }
            if let properties {
                let submitted = action == .submit && result.outcome == .ok
                for finding in properties.violations(in: session, payloadQuestions: submitted ? payloadQuestions(session) : nil) {
                    outcome.findings.append((step, finding))
                }
            }
            // A session that ended by itself (a task its rules finished) is as done as one submitted.
            let submitted = if case .submit = action { result.outcome == .ok } else { false }
            if submitted || session.hasEnded {
                outcome.submitted = true
                break
            }
        }
        if let checker {
            for finding in checker.finish(session) { outcome.findings.append((max(0, outcome.actions.count - 1), finding)) }
        }
        if checksWholeWalk {
            let last = max(0, outcome.actions.count - 1)
            for finding in wholeWalkFindings(outcome, diverged: diverged, unreadable: unreadable, session: session) { outcome.findings.append((last, finding)) }
        }
        return outcome
    }

    /// The question ids in the submitted payload, read as the format reads its payloads.
    private func payloadQuestions(_ session: any SurveySession) -> Set<String> {
        guard let answers = session.payload.flatMap({ survey.submittedAnswers($0, settings: settings) }) else { return [] }
        return Set(answers.map(\.question))
    }

    /// `diverged`: the 0-based index of the first step whose replay differed, if one did.
    private func wholeWalkFindings(_ outcome: Outcome, diverged: Int?, unreadable: Action?, session: any SurveySession) -> [Finding] {
        var findings: [Finding] = []
        if let step = diverged {
            findings.append(Finding(.engineError, "deterministic-replay", "replaying the walk gives a different result at step \(step + 1)"))
        }
        // The walk printed as a scenario reads back as the same actions: a scenario is one action a line,
        // so each distinct action is printed and read back once (as the walk goes).
        if let action = unreadable {
            findings.append(
                Finding(.engineError, "scenario-round-trip", "'\(ScenarioSyntax.text(of: action))' does not read back as the same action from a scenario"))
        }
        if !outcome.submitted, let stuck = SubmitFinder(survey: survey, settings: settings, candidates: chooser.candidates).stuckQuestion(continuing: session) {
            findings.append(
                Finding(
                    .hazard, "submit-unreachable",
                    "from the end of this walk Submit cannot be reached: no candidate answer or Next gets past '\(stuck)'", question: stuck))
        }
        return findings
    }
}

/// Which actions have been printed as a scenario line and read back unchanged. Looked up at every step, so
/// by the action's stable hash in a table of its own (open addressing: the hash is already mixed), and only
/// then compared as a whole; an action whose hash another holds is printed and read back each time.
private final class RoundTripCache {
    /// The walker's settings, which each scenario line is printed and read back with.
    let settings: SessionSettings
    /// The actions verified, with their hashes. Each is boxed in a constant: compared in place at every step,
    /// where an action read out of a list would be copied (its strings and value retained and released).
    @exclusivity(unchecked) private var actions: [Verified] = []
    @exclusivity(unchecked) private var hashes: [UInt64] = []
    /// By hash: 1 + the index of an action verified, or 0 for a free slot; never more than half full.
    @exclusivity(unchecked) private var table = [Int32](repeating: 0, count: 64)

    init(settings: SessionSettings) {
        self.settings = settings
    }

    /// Whether the action, whose stable hash is `hash`, reads back from its line (looked up at every step,
    /// so the settings are the cache's own rather than passed, and copied, each time).
    func readsBack(_ action: Action, hash: UInt64) -> Bool {
        var slot = Int(truncatingIfNeeded: hash) & (table.count - 1)
        while table[slot] != 0 {
            let index = Int(table[slot]) - 1
            if hashes[index] == hash, actions[index].holds(action) { return true }
            slot = (slot + 1) & (table.count - 1)
        }
        return verify(action, hash: hash, slot: slot)
    }

    /// Prints the action as a scenario line and reads it back; remembers it in the free `slot` if it reads
    /// back unchanged. Apart from the lookup, which then never has to copy the action to keep it.
    @inline(never)
    private func verify(_ action: Action, hash: UInt64, slot: Int) -> Bool {
        let text = Scenario.make(path: "walk.scenario", surveyPath: "survey", settings: settings, actions: [action]).text
        // Launch contexts are files a scenario names, not text it holds: they are not part of the round trip.
        var written = settings
        written.launchContext = [:]
        guard let parsed = try? ScenarioParser.parse(SourceFile(path: "walk.scenario", text: text)),
            parsed.actions == [action], parsed.settings == written
        else { return false }
        actions.append(Verified(action: action))
        hashes.append(hash)
        table[slot] = Int32(actions.count)
        if actions.count * 2 > table.count {
            table = [Int32](repeating: 0, count: table.count * 2)
            for (index, hash) in hashes.enumerated() {
                var free = Int(truncatingIfNeeded: hash) & (table.count - 1)
                while table[free] != 0 { free = (free + 1) & (table.count - 1) }
                table[free] = Int32(index + 1)
            }
        }
        return true
    }

    private final class Verified {
        let action: Action

        init(action: Action) {
            self.action = action
        }

        /// Compared from inside the box, whose constant needs no copy to stay alive during the comparison.
        @inline(never)
        func holds(_ other: Action) -> Bool {
            action == other
        }
    }
}

/// Tries to finish a session: answers the questions on screen with their candidate values and taps Next
/// until Submit shows. Used to check that Submit stays reachable. It reads the session through its cheap
/// views (fingerprint, positions), never the whole visible list, so a survey of 100,000 questions is
/// finished in time linear in its length.
struct SubmitFinder {
    let survey: any Survey
    let settings: SessionSettings
    /// The candidate values tried, kept from one search to the next (a walker shares its chooser's).
    let candidates: CandidateCache

    init(survey: any Survey, settings: SessionSettings, candidates: CandidateCache? = nil) {
        self.survey = survey
        self.settings = settings
        self.candidates = candidates ?? CandidateCache(survey: survey, settings: settings)
    }

    /// nil when Submit shows (or was tapped); otherwise the question the session cannot get past.
    func stuckQuestion(continuing session: any SurveySession) -> String? {
        let limit = survey.questionIDs.count * 4 + 8
        for _ in 0..<limit {
            if session.isSubmittable || session.hasEnded { return nil }
            let before = session.viewFingerprint
            guard let current = session.currentQuestion, let position = session.currentVisiblePosition else {
                if session.currentQuestion == nil, takeOtherAction(session) { continue }
                return session.currentQuestion ?? "(no question waits and Submit is not shown)"
            }
            // The visible list stays as it was until an answer changes the view, which ends the search.
            var progressed = false
            var next = position
            while !progressed, next < session.visibleCount {
                let (question, index) = session.visibleEntry(at: next)
                next += 1
                for value in candidates.values(ofQuestionAt: index) {
                    if session.perform(.answer(question: question, value: value)).outcome == .ok, session.viewFingerprint != before {
                        progressed = true
                        break
                    }
                }
            }
            if !progressed {
                _ = session.perform(.next(question: nil))
                progressed = session.viewFingerprint != before
            }
            if !progressed { return current }
        }
        return session.currentQuestion ?? "(the walk does not end)"
    }

    /// When no question waits, the app may have to act first (launch, a consent sheet): takes the first of
    /// the format's other actions that changes what the session offers or shows.
    private func takeOtherAction(_ session: any SurveySession) -> Bool {
        let offered = session.otherActions
        let view = session.viewFingerprint
        for action in offered where session.perform(action).outcome == .ok {
            if session.viewFingerprint != view || session.otherActions != offered || session.hasEnded { return true }
        }
        return false
    }
}
