import SurveyCore
import SurveyFormats
import Testing

@testable import SurveyHarness

/// The checks of a whole walk still catch what they are for, however cheaply they are run: a survey whose
/// sessions are tampered with in one way makes the one check that watches for it fire, in every walk it
/// can fire in.
@Suite struct WholeWalkCheckTests {
    /// A real survey whose sessions are changed in one way.
    struct TamperedSurvey: Survey {
        enum Tamper: Sendable {
            /// Every second session made (each walk's replay) shows another view from its second step on.
            case replayShowsAnotherView
            /// Submit never shows, and a tap on it is refused.
            case submitNeverShows
            /// Every question also offers a number no scenario line can hold.
            case unprintableCandidate
        }

        let inner: any Survey
        let tamper: Tamper
        let sessions = SessionCounter()

        var format: String { inner.format }
        var questionIDs: [String] { inner.questionIDs }
        func makeSession(_ settings: SessionSettings, coverage: CoverageRecorder?) -> any SurveySession {
            sessions.count += 1
            return TamperedSession(inner.makeSession(settings, coverage: coverage), tamper: tamper, serial: sessions.count)
        }
        func coveragePlan() -> CoveragePlan { inner.coveragePlan() }
        func prompt(for question: String, settings: SessionSettings) -> QuestionPrompt? { inner.prompt(for: question, settings: settings) }
        func interpretInput(_ text: String, for question: String) -> Result<JSONValue, InputProblem> { inner.interpretInput(text, for: question) }
        func answers(inPayload payload: JSONCursor) throws(InputError) -> [(question: String, value: JSONValue)] { try inner.answers(inPayload: payload) }
        func readPayload(_ payload: JSONCursor, settings: SessionSettings) throws(InputError) -> PayloadReading {
            try inner.readPayload(payload, settings: settings)
        }
        var hostConditionKeys: [String] { inner.hostConditionKeys }
        func candidateValues(for question: String, settings: SessionSettings) -> [JSONValue] {
            inner.candidateValues(for: question, settings: settings) + (tamper == .unprintableCandidate ? [.number(.nan)] : [])
        }
        func makeStepChecker() -> any StepChecker { UnwrappingChecker(inner: inner.makeStepChecker()) }
        func compileCondition(_ cursor: JSONCursor) throws(InputError) -> any SessionPredicate { try inner.compileCondition(cursor) }
    }

    final class SessionCounter: @unchecked Sendable {
        var count = 0
    }

    final class TamperedSession: SurveySession {
        let inner: any SurveySession
        let tamper: TamperedSurvey.Tamper
        let serial: Int
        var steps = 0

        init(_ inner: any SurveySession, tamper: TamperedSurvey.Tamper, serial: Int) {
            self.inner = inner
            self.tamper = tamper
            self.serial = serial
        }

        func perform(_ action: Action) -> StepResult {
            steps += 1
            if tamper == .submitNeverShows, action == .submit { return StepResult(.rejected("Submit is not shown")) }
            return inner.perform(action)
        }
        var currentQuestion: String? { inner.currentQuestion }
        var visibleQuestions: [String] { inner.visibleQuestions }
        var isSubmittable: Bool { tamper == .submitNeverShows ? false : inner.isSubmittable }
        func answer(for question: String) -> JSONValue? { inner.answer(for: question) }
        var payload: JSONValue? { inner.payload }
        var visibleCount: Int { inner.visibleCount }
        func visibleQuestion(at position: Int) -> String { inner.visibleQuestion(at: position) }
        func visibleQuestionIndex(at position: Int) -> Int { inner.visibleQuestionIndex(at: position) }
        func visibleEntry(at position: Int) -> (question: String, index: Int) { inner.visibleEntry(at: position) }
        var currentVisiblePosition: Int? { inner.currentVisiblePosition }
        var visibleFingerprint: UInt64 {
            let differs = tamper == .replayShowsAnotherView && serial % 2 == 0 && steps >= 2
            return inner.visibleFingerprint ^ (differs ? 0xD1FF : 0)
        }
        var otherActions: [Action] { inner.otherActions }
        var hasEnded: Bool { inner.hasEnded }
    }

    /// The real survey's checker, shown the real session inside the tampered one.
    final class UnwrappingChecker: StepChecker {
        let inner: any StepChecker

        init(inner: any StepChecker) { self.inner = inner }

        func check(_ session: any SurveySession, after action: Action, result: StepResult) -> [Finding] {
            inner.check((session as! TamperedSession).inner, after: action, result: result)
        }

        func finish(_ session: any SurveySession) -> [Finding] {
            inner.finish((session as! TamperedSession).inner)
        }
    }

    private static func fuzz(_ tamper: TamperedSurvey.Tamper, walks: Int) throws -> Fuzzer.Result {
        let survey = TamperedSurvey(inner: try Fixtures.survey(), tamper: tamper)
        return Fuzzer(survey: survey, configuration: .init(walks: walks, seed: 1, maxSteps: 30, settings: SessionSettings())).run()
    }

    @Test("a replay that shows something else than its walk is found in every walk of two steps or more, and shrinks to two steps")
    func replayDifferenceIsFound() throws {
        let result = try Self.fuzz(.replayShowsAnotherView, walks: 40)
        let report = try #require(result.findings.first { $0.finding.property == "deterministic-replay" })
        #expect(report.finding.kind == .engineError)
        #expect(report.finding.message == "replaying the walk gives a different result at step 2")
        #expect(report.shrunk.count == 2)
        let untampered = Fuzzer(survey: try Fixtures.survey(), configuration: .init(walks: 40, seed: 1, maxSteps: 30, settings: SessionSettings())).run()
        #expect(!untampered.findings.contains { $0.finding.property == "deterministic-replay" })
        // Walks of one step have nothing to differ at; every other walk is replayed and differs.
        #expect(report.walks == result.walks - oneStepWalks(walks: 40))
    }

    @Test("a session whose Submit never shows is found stuck at the end of every walk")
    func unreachableSubmitIsFound() throws {
        let result = try Self.fuzz(.submitNeverShows, walks: 20)
        #expect(result.submitted == 0)
        let report = try #require(result.findings.first { $0.finding.property == "submit-unreachable" })
        #expect(report.finding.kind == .hazard)
        #expect(report.walks == 20)
    }

    @Test("an answer no scenario line can hold is found by the round trip, however often it is chosen")
    func unprintableActionIsFound() throws {
        let result = try Self.fuzz(.unprintableCandidate, walks: 20)
        let report = try #require(result.findings.first { $0.finding.property == "scenario-round-trip" })
        #expect(report.finding.kind == .engineError)
        #expect(report.finding.message.hasSuffix("does not read back as the same action from a scenario"))
        #expect(report.shrunk.count == 1)
    }

    /// How many of the first walks of seed 1 take a single step on the fixture survey.
    private func oneStepWalks(walks: Int) -> Int {
        var walker = Walker(survey: try! Fixtures.survey(), settings: SessionSettings(), maxSteps: 30, builtInProperties: false, properties: nil)
        return (0..<walks).count { walk in
            var stream = ChoiceStream(generator: SplitMix64(seed: SplitMix64.walkSeed(1, walk: walk)))
            return walker.walk(&stream).actions.count < 2
        }
    }
}
